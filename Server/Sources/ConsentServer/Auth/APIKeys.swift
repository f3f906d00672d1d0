import ConsentKitFormats
import Crypto
import Foundation
import SQLKit
import Logging
import ServiceLifecycle
import Synchronization

/// An app's API key as stored: everything but the secret, of which only a SHA-256 is kept.
public struct APIKey: Codable, Sendable, Equatable {
    /// The two kinds of key.
    public enum Kind: String, Codable, Sendable, CaseIterable {
        /// Ships inside apps: appends events for its app, reads config and vendor lists.
        case publishable
        /// Stays on the customer's backend: reads, exports, erases, mints subject tokens.
        case secret

        var prefix: String { self == .publishable ? "ck_pub_" : "ck_sec_" }
    }

    /// The public part of the key, unique.
    public var keyId: String
    /// The app the key belongs to.
    public var appId: String
    /// What the key may do.
    public var kind: Kind
    /// A note for people (`"iOS app"`, `"CRM backend"`).
    public var label: String
    /// When the key was created.
    public var createdAt: String
    /// When the key was revoked, if it was.
    public var revokedAt: String?
    /// When a request last authenticated with the key (to the minute: see ``APIKeys/usageFlushInterval``),
    /// nil when never.
    public var lastUsedAt: String?
}

/// Creates, lists, revokes and checks API keys.
///
/// A key reads `ck_pub_<keyId>_<secret>` or `ck_sec_<keyId>_<secret>`. Checking caches what the
/// database says for `cacheSeconds`, so a revocation takes effect on every node within that time.
public final class APIKeys: Sendable {
    private let database: Database
    private let cacheSeconds: Double
    private let cache = Mutex([String: (key: APIKey, secretSHA256: String, fetched: Date)]())
    /// Last-used times noted in memory and not yet written, by key id (milliseconds): a request
    /// costs one dictionary write, never a database write (decision 0041).
    private let usage = Mutex(KeyUsage())

    /// How often the last-used times noted in memory are written: a key's row is written at most
    /// this often, whatever its traffic.
    public static let usageFlushInterval: Duration = .seconds(60)

    /// Creates the key store; `cacheSeconds` bounds how long a revoked key keeps working.
    public init(database: Database, cacheSeconds: Double = 5) {
        self.database = database
        self.cacheSeconds = cacheSeconds
    }

    /// Creates a key and returns it with its full text, which is shown only this once.
    public func create(appId: String, kind: APIKey.Kind, label: String, now: Date = Date()) async throws -> (key: APIKey, token: String) {
        guard AppID.isValid(appId) else { throw KeyError.badAppId(appId) }
        let keyId = Self.randomText(count: 12)
        let secret = Self.randomText(count: 32)
        let createdAt = ISO8601.milliseconds(of: now)
        let hash = SHA256.hash(data: Data(secret.utf8)).hexString
        try await database.transaction { db in
            try await db.raw("""
                INSERT INTO api_keys (key_id, app_id, kind, secret_sha256, label, created_at_ms)
                VALUES (\(bind: keyId), \(bind: appId), \(bind: kind.rawValue), \(bind: hash), \(bind: label), \(bind: createdAt))
                """).run()
        }
        let key = APIKey(keyId: keyId, appId: appId, kind: kind, label: label,
                         createdAt: ISO8601.format(milliseconds: createdAt), revokedAt: nil)
        return (key, kind.prefix + keyId + "_" + secret)
    }

    /// The text of a key consentd itself hands out (the demo's pages): the newest live key of
    /// `appId` whose id starts with `idPrefix` (8 characters) gets a new secret, so the tokens it
    /// minted keep working. A revoked key is never revived: when none is live, a new key is made
    /// with the id `idPrefix` and 4 random characters (random ids never start with a prefix that
    /// holds an `o` or a `0`, which the random alphabet lacks).
    public func renewOwnKey(idPrefix: String, appId: String, kind: APIKey.Kind, label: String, now: Date = Date()) async throws -> String {
        guard AppID.isValid(appId) else { throw KeyError.badAppId(appId) }
        precondition(idPrefix.utf8.count == 8, "an own key's id prefix has 8 characters")
        let secret = Self.randomText(count: 32)
        let hash = SHA256.hash(data: Data(secret.utf8)).hexString
        let createdAt = ISO8601.milliseconds(of: now)
        let keyId = try await database.transaction { db -> String in
            if let live = try await db.raw("""
                SELECT key_id FROM api_keys
                WHERE app_id = \(bind: appId) AND kind = \(bind: kind.rawValue) AND key_id LIKE \(bind: idPrefix + "%") AND revoked_at_ms IS NULL
                ORDER BY created_at_ms DESC, key_id DESC
                """).first()?.decode(column: "key_id", as: String.self) {
                try await db.raw("""
                    UPDATE api_keys SET secret_sha256 = \(bind: hash) WHERE key_id = \(bind: live) AND revoked_at_ms IS NULL
                    """).run()
                return live
            }
            let keyId = idPrefix + Self.randomText(count: 4)
            try await db.raw("""
                INSERT INTO api_keys (key_id, app_id, kind, secret_sha256, label, created_at_ms)
                VALUES (\(bind: keyId), \(bind: appId), \(bind: kind.rawValue), \(bind: hash), \(bind: label), \(bind: createdAt))
                """).run()
            return keyId
        }
        _ = cache.withLock { $0.removeValue(forKey: keyId) }
        return kind.prefix + keyId + "_" + secret
    }

    /// Every key, or those of one app, oldest first.
    public func list(appId: String? = nil) async throws -> [APIKey] {
        let filter: SQLQueryString = appId.map { " WHERE app_id = \(bind: $0)" } ?? ""
        return try await database.read { db in
            try await db.raw("SELECT key_id, app_id, kind, label, created_at_ms, revoked_at_ms, last_used_at_ms FROM api_keys" + filter
                             + " ORDER BY created_at_ms, key_id")
                .all().map { row in
                    let keyId = try row.decode(column: "key_id", as: String.self)
                    let stored = try row.decode(column: "last_used_at_ms", as: Int64?.self)
                    let noted = usage.withLock { $0.latest[keyId] }
                    let lastUsed = [stored, noted].compactMap { $0 }.max()
                    return try APIKey(
                        keyId: keyId, appId: row.decode(column: "app_id", as: String.self),
                        kind: APIKey.Kind(rawValue: row.decode(column: "kind", as: String.self)) ?? .secret,
                        label: row.decode(column: "label", as: String.self),
                        createdAt: ISO8601.format(milliseconds: row.decode(column: "created_at_ms", as: Int64.self)),
                        revokedAt: row.decode(column: "revoked_at_ms", as: Int64?.self).map { ISO8601.format(milliseconds: $0) },
                        lastUsedAt: lastUsed.map { ISO8601.format(milliseconds: $0) })
                }
        }
    }

    /// The key with id `keyId` as ``list(appId:)`` shows it; nil when there is none.
    public func key(id keyId: String) async throws -> APIKey? {
        try await list().first { $0.keyId == keyId }
    }

    /// Writes the last-used times noted in memory since the last write, in one transaction
    /// (``KeyUsageFlusher`` calls it every ``usageFlushInterval``, and at shutdown). Returns how
    /// many keys' rows it wrote. A time is never moved back (another node may have written a later one).
    @discardableResult
    public func flushUsage() async throws -> Int {
        let pending = usage.withLock { $0.takePending() }
        guard !pending.isEmpty else { return 0 }
        do {
            try await database.transaction { db in
                for (keyId, at) in pending.sorted(by: { $0.key < $1.key }) {
                    try await db.raw("""
                        UPDATE api_keys SET last_used_at_ms = \(bind: at)
                        WHERE key_id = \(bind: keyId) AND (last_used_at_ms IS NULL OR last_used_at_ms < \(bind: at))
                        """).run()
                }
            }
        } catch {
            usage.withLock { $0.restore(pending) }
            throw error
        }
        return pending.count
    }

    /// Revokes a key by its id (or its full text); false when no such key exists.
    @discardableResult
    public func revoke(_ keyIdOrToken: String, now: Date = Date()) async throws -> Bool {
        let keyId = Self.parse(keyIdOrToken)?.keyId ?? keyIdOrToken
        let revokedAt = ISO8601.milliseconds(of: now)
        let found = try await database.transaction { db in
            let exists = try await db.raw("SELECT key_id FROM api_keys WHERE key_id = \(bind: keyId)").first() != nil
            if exists {
                try await db.raw("""
                    UPDATE api_keys SET revoked_at_ms = \(bind: revokedAt) WHERE key_id = \(bind: keyId) AND revoked_at_ms IS NULL
                    """).run()
            }
            return exists
        }
        _ = cache.withLock { $0.removeValue(forKey: keyId) }
        return found
    }

    /// The key a bearer token names, nil when it is unknown, revoked or its secret is wrong.
    public func authenticate(_ token: String, now: Date = Date()) async throws -> APIKey? {
        guard let parsed = Self.parse(token), let entry = try await entry(keyId: parsed.keyId, now: now) else { return nil }
        let presented = SHA256.hash(data: Data(parsed.secret.utf8)).hexString
        guard entry.key.kind == parsed.kind, entry.key.revokedAt == nil,
              constantTimeEqual(entry.secretSHA256, presented)
        else { return nil }
        let milliseconds = ISO8601.milliseconds(of: now)
        usage.withLock { $0.note(parsed.keyId, at: milliseconds) }
        return entry.key
    }

    /// The key with this id when it exists and is not revoked: what a subject token minted by
    /// it needs in order to work. Cached as `authenticate` is.
    public func liveKey(id keyId: String, now: Date = Date()) async throws -> APIKey? {
        guard let entry = try await entry(keyId: keyId, now: now), entry.key.revokedAt == nil else { return nil }
        return entry.key
    }

    /// The key's row, from the cache while it is younger than `cacheSeconds`.
    private func entry(keyId: String, now: Date) async throws -> (key: APIKey, secretSHA256: String, fetched: Date)? {
        if let cached = cache.withLock({ $0[keyId] }), now.timeIntervalSince(cached.fetched) < cacheSeconds { return cached }
        guard let row = try await database.read({ db in
            try await db.raw("""
                SELECT app_id, kind, label, secret_sha256, created_at_ms, revoked_at_ms FROM api_keys WHERE key_id = \(bind: keyId)
                """).first().map { row in
                try (APIKey(
                    keyId: keyId, appId: row.decode(column: "app_id", as: String.self),
                    kind: APIKey.Kind(rawValue: row.decode(column: "kind", as: String.self)) ?? .publishable,
                    label: row.decode(column: "label", as: String.self),
                    createdAt: ISO8601.format(milliseconds: row.decode(column: "created_at_ms", as: Int64.self)),
                    revokedAt: row.decode(column: "revoked_at_ms", as: Int64?.self).map { ISO8601.format(milliseconds: $0) }),
                     row.decode(column: "secret_sha256", as: String.self))
            }
        }) else { return nil }
        let entry = (key: row.0, secretSHA256: row.1, fetched: now)
        cache.withLock { $0[keyId] = entry }
        return entry
    }

    static func parse(_ token: String) -> (kind: APIKey.Kind, keyId: String, secret: String)? {
        for kind in APIKey.Kind.allCases where token.hasPrefix(kind.prefix) {
            let rest = token.dropFirst(kind.prefix.count).split(separator: "_", omittingEmptySubsequences: false)
            guard rest.count == 2, rest[0].count == 12, rest[1].count == 32 else { return nil }
            return (kind, String(rest[0]), String(rest[1]))
        }
        return nil
    }

    /// Random lower-case letters and digits (base 32, no look-alikes), from the system's CSPRNG.
    static func randomText(count: Int) -> String {
        let alphabet = Array("abcdefghjkmnpqrstuvwxyz23456789".utf8)
        var generator = SystemRandomNumberGenerator()
        return String(decoding: (0..<count).map { _ in alphabet[Int(generator.next(upperBound: UInt32(alphabet.count)))] }, as: UTF8.self)
    }
}

/// Last-used times of keys held in memory between writes.
struct KeyUsage {
    /// The newest use of each key seen by this process.
    var latest: [String: Int64] = [:]
    /// The keys used since the last write.
    var dirty: Set<String> = []

    mutating func note(_ keyId: String, at milliseconds: Int64) {
        if let held = latest[keyId], held >= milliseconds { return }
        latest[keyId] = milliseconds
        dirty.insert(keyId)
    }

    /// The times to write now; the keys are clean after it.
    mutating func takePending() -> [String: Int64] {
        defer { dirty.removeAll(keepingCapacity: true) }
        var pending: [String: Int64] = [:]
        for keyId in dirty { pending[keyId] = latest[keyId] }
        return pending
    }

    /// Marks `pending` dirty again after a failed write.
    mutating func restore(_ pending: [String: Int64]) {
        dirty.formUnion(pending.keys)
    }
}

/// App ids: what the keys, the events and the chains are kept under.
enum AppID {
    /// 1–200 characters of letters, digits, `.`, `-` and `_` (bundle ids and package names fit).
    static func isValid(_ id: String) -> Bool {
        (1...200).contains(id.utf8.count) && id.utf8.allSatisfy { byte in
            (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
        }
    }
}

/// A key operation refused.
public enum KeyError: Error, CustomStringConvertible, Sendable {
    /// The app id has characters outside letters, digits, `.`, `-`, `_`, or is too long.
    case badAppId(String)

    /// A sentence saying what to do.
    public var description: String {
        switch self {
        case .badAppId(let id): "app id \"\(id)\" must be 1 to 200 letters, digits, '.', '-' or '_' (for example com.example.news)"
        }
    }
}

func constantTimeEqual(_ a: String, _ b: String) -> Bool {
    let x = Array(a.utf8), y = Array(b.utf8)
    guard x.count == y.count else { return false }
    var difference: UInt8 = 0
    for index in x.indices { difference |= x[index] ^ y[index] }
    return difference == 0
}

/// The service that writes the keys' last-used times every `interval`, and once more at shutdown.
struct KeyUsageFlusher: Service {
    let keys: APIKeys
    let interval: Duration
    let logger: Logger

    func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                await flush()
            }
        }
        await flush()
    }

    private func flush() async {
        do {
            try await keys.flushUsage()
        } catch {
            logger.warning("keys' last-used times not written; retrying later", metadata: ["error": "\(error)"])
        }
    }
}
