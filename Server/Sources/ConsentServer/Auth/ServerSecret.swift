import Crypto
import Foundation

/// The server's secret and the keys derived from it: one for subject-id HMACs, one for signing
/// subject tokens.
///
/// Every node of one deployment needs the same secret: subject ids hashed by one node must match on
/// another, and a token minted by one must verify on another. Losing it makes stored subject ids
/// unmatchable, so back it up with the database.
public struct ServerSecret: Sendable {
    let subjectKey: SymmetricKey
    let tokenKey: SymmetricKey

    /// Derives the keys from secret material (at least 32 bytes).
    public init(material: Data) throws(SecretError) {
        guard material.count >= 32 else { throw SecretError.tooShort(material.count) }
        let master = SymmetricKey(data: material)
        func derive(_ label: String) -> SymmetricKey {
            HKDF<SHA256>.deriveKey(inputKeyMaterial: master, info: Data("consentd \(label)".utf8), outputByteCount: 32)
        }
        subjectKey = derive("subject id v1")
        tokenKey = derive("subject token v1")
    }

    /// Reads the secret from hex text (64 or more hex digits).
    public init(hex: String) throws(SecretError) {
        let text = hex.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let data = Data(hexEncoded: text) else { throw SecretError.notHex }
        try self.init(material: data)
    }

    /// Reads the secret from a file, or creates one with 32 random bytes (mode 0600) when the file
    /// does not exist.
    public static func loadOrCreate(at path: String) throws -> ServerSecret {
        if FileManager.default.fileExists(atPath: path) {
            do {
                return try ServerSecret(hex: String(contentsOfFile: path, encoding: .utf8))
            } catch let error as SecretError {
                throw SecretError.inFile(path, error.description)
            }
        }
        let material = SymmetricKey(size: .bits256).withUnsafeBytes { Data($0) }
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        guard FileManager.default.createFile(atPath: path, contents: Data((material.hexString + "\n").utf8),
                                             attributes: [.posixPermissions: 0o600])
        else { throw SecretError.inFile(path, "could not be created") }
        return try ServerSecret(material: material)
    }

    /// The stored form of a subject id: HMAC-SHA256 over the app id and the subject id, in hex.
    public func subjectHash(appId: String, subjectId: String) -> String {
        var message = Data(appId.utf8)
        message.append(0)
        message.append(contentsOf: subjectId.utf8)
        return Data(HMAC<SHA256>.authenticationCode(for: message, using: subjectKey)).hexString
    }
}

/// A server secret that cannot be used.
public enum SecretError: Error, CustomStringConvertible, Sendable {
    /// Fewer than 32 bytes.
    case tooShort(Int)
    /// Not hexadecimal text.
    case notHex
    /// A problem with the secret file.
    case inFile(String, String)

    /// A sentence saying what to do.
    public var description: String {
        switch self {
        case .tooShort(let count): "the server secret has \(count) bytes; it needs at least 32 (64 hex digits)"
        case .notHex: "the server secret must be hexadecimal text (for example from `openssl rand -hex 32`)"
        case .inFile(let path, let problem): "secret file \(path): \(problem)"
        }
    }
}

extension Data {
    /// Lower-case hexadecimal text.
    var hexString: String {
        let digits = Array("0123456789abcdef".utf8)
        var bytes = [UInt8]()
        bytes.reserveCapacity(count * 2)
        for byte in self {
            bytes.append(digits[Int(byte >> 4)])
            bytes.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    init?(hexEncoded text: String) {
        let bytes = Array(text.utf8)
        guard bytes.count % 2 == 0 else { return nil }
        func value(_ byte: UInt8) -> UInt8? {
            switch byte {
            case 0x30...0x39: byte - 0x30
            case 0x61...0x66: byte - 0x61 + 10
            case 0x41...0x46: byte - 0x41 + 10
            default: nil
            }
        }
        var data = Data(capacity: bytes.count / 2)
        var index = 0
        while index < bytes.count {
            guard let high = value(bytes[index]), let low = value(bytes[index + 1]) else { return nil }
            data.append(high << 4 | low)
            index += 2
        }
        self = data
    }
}

extension Digest {
    /// Lower-case hexadecimal text.
    var hexString: String { Data(self).hexString }
}
