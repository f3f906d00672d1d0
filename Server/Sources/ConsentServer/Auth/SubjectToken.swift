import ConsentKitFormats
import Crypto
import Foundation

/// A credential for one subject of one app: what lets an app write that subject's consent
/// without the app's secret key.
///
/// Two kinds, one format:
/// - a **session token**, minted by the publisher's backend with a secret key
///   (`POST /v1/subjects/{subjectId}/tokens`) for an identified user: it expires
///   (`expiresAt`) and records when it was minted (`issuedAt`);
/// - an **installation token**, handed out with a publishable key when consentd creates a
///   subject (`POST /v1/consents` without `subjectId`): it does not expire, and only the
///   installation that created the subject holds it.
///
/// A website's visitor gets a token of the first format from the page's publishable key
/// (`POST /v1/web/choices`): it expires after `ServerSettings.webTokenLifetime` (30 days) and the
/// page's session call renews it in the last third of its life.
///
/// Either names the key that minted it (`keyId`), so it dies when that key is revoked, and
/// neither outlives an erasure of its subject (`ErasedSubject`). It reads
/// `ckt_<payload>.<signature>`: the payload is base64url JSON `{"app","sub","key","iat","exp"}`
/// where `sub` is the subject's HMAC (never its clear id), the signature an HMAC-SHA256 under a
/// key derived from the server secret.
public struct SubjectToken: Sendable, Equatable {
    /// The app the token is for.
    public var appId: String
    /// The stored form of the subject's id.
    public var subjectHash: String
    /// The id of the API key that minted the token.
    public var keyId: String
    /// When a session token was minted, in milliseconds since 1970; nil for an installation token.
    public var issuedAt: Int64?
    /// When a session token stops working, in seconds since 1970; nil for an installation token.
    public var expiresAt: Int64?

    /// Creates a token; nil `issuedAt` and `expiresAt` make an installation token.
    public init(appId: String, subjectHash: String, keyId: String, issuedAt: Int64? = nil, expiresAt: Int64? = nil) {
        self.appId = appId
        self.subjectHash = subjectHash
        self.keyId = keyId
        self.issuedAt = issuedAt
        self.expiresAt = expiresAt
    }

    /// A token for a subject a publishable key created: an installation token (`lifetime` nil,
    /// it does not expire) or a web visitor's token that expires after `lifetime`.
    init(appId: String, subjectHash: String, keyId: String, lifetime: Duration?, now: Date) {
        self.init(appId: appId, subjectHash: subjectHash, keyId: keyId,
                  issuedAt: lifetime.map { _ in ISO8601.milliseconds(of: now) },
                  expiresAt: lifetime.map { Int64(now.timeIntervalSince1970) + $0.components.seconds })
    }

    /// The default lifetime of a session token (15 minutes).
    public static let defaultLifetime: Int64 = 900
    /// The longest lifetime a session token may be minted with (24 hours).
    public static let maxLifetime: Int64 = 86_400

    private struct Payload: Codable {
        var app: String
        var sub: String
        var key: String
        var iat: Int64?
        var exp: Int64?
    }

    /// Signs the token. The same token always signs to the same text.
    public func encoded(with secret: ServerSecret) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let payload = (try? encoder.encode(Payload(app: appId, sub: subjectHash, key: keyId, iat: issuedAt, exp: expiresAt))) ?? Data()
        let body = Self.base64url(payload)
        let signature = HMAC<SHA256>.authenticationCode(for: Data(body.utf8), using: secret.tokenKey)
        return "ckt_" + body + "." + Self.base64url(Data(signature))
    }

    /// Checks the signature and the expiry; nil for anything that does not verify. Whether the
    /// minting key is still live is the caller's check.
    public static func verify(_ token: String, with secret: ServerSecret, now: Date = Date()) -> SubjectToken? {
        guard token.hasPrefix("ckt_"), token.utf8.count < 1024 else { return nil }
        let parts = token.dropFirst(4).split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, let signature = base64urlDecode(parts[1]) else { return nil }
        guard HMAC<SHA256>.isValidAuthenticationCode(signature, authenticating: Data(parts[0].utf8), using: secret.tokenKey),
              let payloadData = base64urlDecode(parts[0]),
              let payload = try? JSONDecoder().decode(Payload.self, from: payloadData),
              // A session token has both times, an installation token neither.
              (payload.iat == nil) == (payload.exp == nil),
              payload.exp.map({ Int64(now.timeIntervalSince1970) < $0 }) ?? true
        else { return nil }
        return SubjectToken(appId: payload.app, subjectHash: payload.sub, keyId: payload.key, issuedAt: payload.iat, expiresAt: payload.exp)
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
