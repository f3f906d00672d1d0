import Crypto
import Foundation

/// A short-lived credential for one subject of one app, minted with a secret key.
///
/// An app holding it may read and write that subject's state (cross-device sync) without the
/// secret key. It reads `ckt_<payload>.<signature>`: the payload is base64url JSON
/// `{"app","sub","exp"}` where `sub` is the subject's HMAC (never its clear id), the signature
/// an HMAC-SHA256 under a key derived from the server secret.
public struct SubjectToken: Sendable, Equatable {
    /// The app the token is for.
    public var appId: String
    /// The stored form of the subject's id.
    public var subjectHash: String
    /// When the token stops working, in seconds since 1970.
    public var expiresAt: Int64

    /// The default lifetime (15 minutes) and the longest allowed (24 hours).
    public static let defaultLifetime: Int64 = 900
    /// The longest lifetime a token may be minted with.
    public static let maxLifetime: Int64 = 86_400

    private struct Payload: Codable {
        var app: String
        var sub: String
        var exp: Int64
    }

    /// Signs the token.
    public func encoded(with secret: ServerSecret) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let payload = (try? encoder.encode(Payload(app: appId, sub: subjectHash, exp: expiresAt))) ?? Data()
        let body = Self.base64url(payload)
        let signature = HMAC<SHA256>.authenticationCode(for: Data(body.utf8), using: secret.tokenKey)
        return "ckt_" + body + "." + Self.base64url(Data(signature))
    }

    /// Checks the signature and the expiry; nil for anything that does not verify.
    public static func verify(_ token: String, with secret: ServerSecret, now: Date = Date()) -> SubjectToken? {
        guard token.hasPrefix("ckt_"), token.utf8.count < 1024 else { return nil }
        let parts = token.dropFirst(4).split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, let signature = base64urlDecode(parts[1]) else { return nil }
        guard HMAC<SHA256>.isValidAuthenticationCode(signature, authenticating: Data(parts[0].utf8), using: secret.tokenKey),
              let payloadData = base64urlDecode(parts[0]),
              let payload = try? JSONDecoder().decode(Payload.self, from: payloadData),
              Int64(now.timeIntervalSince1970) < payload.exp
        else { return nil }
        return SubjectToken(appId: payload.app, subjectHash: payload.sub, expiresAt: payload.exp)
    }

    private static func base64url(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    private static func base64urlDecode(_ text: Substring) -> Data? {
        var standard = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while standard.count % 4 != 0 { standard += "=" }
        return Data(base64Encoded: standard)
    }
}
