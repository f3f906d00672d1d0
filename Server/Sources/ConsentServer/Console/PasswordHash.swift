import Crypto
import Foundation
import _CryptoExtras

/// scrypt's cost: N = 2^``log2N`` rounds, block size ``blockSize`` (r), parallelism ``parallelism`` (p).
public struct ScryptParameters: Sendable, Equatable {
    /// log2 of N, the rounds.
    public var log2N: Int
    /// r, the block size.
    public var blockSize: Int
    /// p, the parallelism.
    public var parallelism: Int

    /// Creates parameters.
    public init(log2N: Int, blockSize: Int, parallelism: Int) {
        self.log2N = log2N
        self.blockSize = blockSize
        self.parallelism = parallelism
    }

    /// What new hashes use: N = 2^15, r = 8, p = 1 (32 MiB, up to a few hundred milliseconds of one core; decision 0038).
    public static let standard = ScryptParameters(log2N: 15, blockSize: 8, parallelism: 1)

    /// Whether a stored hash's parameters are within what consentd computes (10–20, 1–16, 1–4), so
    /// a damaged or planted row cannot ask for unbounded memory or time.
    var isWithinBounds: Bool {
        (10...20).contains(log2N) && (1...16).contains(blockSize) && (1...4).contains(parallelism)
    }
}

/// Operators' passwords, hashed with scrypt (swift-crypto's extras, BoringSSL) and stored as one
/// self-describing string, `scrypt$<log2 N>$<r>$<p>$<salt, base64>$<hash, base64>`, so a stored hash
/// is always checked with its own parameters and new ones can cost more.
public enum PasswordHash {
    /// The fewest characters a password may have.
    public static let minimumLength = 12
    /// The most bytes a password may have (its cost must not be the sender's to choose).
    public static let maximumBytes = 1024

    /// Refuses a password shorter than ``minimumLength`` characters or longer than ``maximumBytes`` bytes.
    public static func check(_ password: String) throws(ConsoleError) {
        guard password.count >= minimumLength else { throw .weakPassword("a password needs at least \(minimumLength) characters") }
        guard password.utf8.count <= maximumBytes else { throw .weakPassword("a password may have at most \(maximumBytes) bytes") }
    }

    /// The stored form of `password`, with a new random salt. Blocking: up to a few hundred milliseconds of CPU.
    public static func make(_ password: String, parameters: ScryptParameters = .standard) throws -> String {
        let salt = randomBytes(16)
        let hash = try derive(password, salt: salt, parameters: parameters)
        return ["scrypt", String(parameters.log2N), String(parameters.blockSize), String(parameters.parallelism),
                Data(salt).base64EncodedString(), hash.base64EncodedString()].joined(separator: "$")
    }

    /// Whether `password` is the one `stored` was made from, compared in constant time; false for a
    /// stored form this build cannot read. Blocking, as ``make(_:parameters:)``.
    public static func verify(_ password: String, against stored: String) -> Bool {
        let parts = stored.split(separator: "$", omittingEmptySubsequences: false)
        guard parts.count == 6, parts[0] == "scrypt", let log2N = Int(parts[1]), let r = Int(parts[2]), let p = Int(parts[3]),
              let salt = Data(base64Encoded: String(parts[4])), let expected = Data(base64Encoded: String(parts[5])), expected.count == 32,
              password.utf8.count <= maximumBytes
        else { return false }
        let parameters = ScryptParameters(log2N: log2N, blockSize: r, parallelism: p)
        guard parameters.isWithinBounds, let derived = try? derive(password, salt: Array(salt), parameters: parameters) else { return false }
        return constantTimeEqual(derived, expected)
    }

    private static func derive(_ password: String, salt: [UInt8], parameters: ScryptParameters) throws -> Data {
        let key = try KDF.Scrypt.deriveKey(from: Array(password.utf8), salt: salt, outputByteCount: 32, rounds: 1 << parameters.log2N,
                                           blockSize: parameters.blockSize, parallelism: parameters.parallelism)
        return key.withUnsafeBytes { Data($0) }
    }
}

/// `count` bytes from the system's CSPRNG.
func randomBytes(_ count: Int) -> [UInt8] {
    var generator = SystemRandomNumberGenerator()
    return (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
}

/// 32 random bytes (256 bits) as base64url without padding: session ids, CSRF tokens, one-time links.
func randomToken() -> String {
    Data(randomBytes(32)).base64EncodedString()
        .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
}

/// The SHA-256 of `text` in hex: how session ids and one-time tokens are stored.
func sha256Hex(_ text: String) -> String {
    SHA256.hash(data: Data(text.utf8)).hexString
}

/// Byte strings compared in time that depends on their length only.
func constantTimeEqual(_ a: Data, _ b: Data) -> Bool {
    guard a.count == b.count else { return false }
    var difference: UInt8 = 0
    for (x, y) in zip(a, b) { difference |= x ^ y }
    return difference == 0
}
