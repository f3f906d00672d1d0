import ConsentKitFormats
import Foundation
import SQLKit

/// A signed-in operator's session, as a request finds it.
struct ConsoleSession: Sendable {
    /// The SHA-256 of the session id, its key in the database.
    var sessionHash: String
    var operatorId: String
    var email: String
    var role: OperatorRole
    /// What state-changing requests send in `X-CSRF-Token`.
    var csrfToken: String
    var createdAt: Date
    var lastSeenAt: Date
}

/// Sessions of the console in the database (`console_sessions`): a 256-bit random id per sign-in,
/// only its SHA-256 stored; idle and absolute expiry checked on every use (decision 0038).
struct ConsoleSessions: Sendable {
    let database: Database

    /// A session unused this long is over.
    static let idleTimeout: TimeInterval = 30 * 60
    /// A session this old is over, used or not.
    static let lifetime: TimeInterval = 12 * 3600
    /// Last-seen times are written at most this often (a session's expiry is that much earlier at worst).
    static let touchInterval: TimeInterval = 60

    /// A new session for `operatorId`: its id (for the cookie, shown only now) and CSRF token.
    func create(operatorId: String, now: Date) async throws -> (id: String, csrfToken: String) {
        let id = randomToken(), csrf = randomToken()
        let at = ISO8601.milliseconds(of: now)
        try await database.transaction { db in
            try await db.raw("""
                INSERT INTO console_sessions (session_sha256, operator_id, csrf_token, created_at_ms, last_seen_at_ms)
                VALUES (\(bind: sha256Hex(id)), \(bind: operatorId), \(bind: csrf), \(bind: at), \(bind: at))
                """).run()
        }
        return (id, csrf)
    }

    /// The live session `id` names, its last-seen time moved to `now`; nil when there is none, it
    /// expired (then it is deleted) or its operator is disabled.
    func session(id: String, now: Date) async throws -> ConsoleSession? {
        let hash = sha256Hex(id)
        guard let row = try await database.read({ db in
            try await db.raw("""
                SELECT s.operator_id, s.csrf_token, s.created_at_ms, s.last_seen_at_ms, o.email, o.role, o.disabled_at_ms
                FROM console_sessions s JOIN console_operators o ON o.operator_id = s.operator_id
                WHERE s.session_sha256 = \(bind: hash)
                """).first()
        }), try row.decode(column: "disabled_at_ms", as: Int64?.self) == nil,
              let role = OperatorRole(rawValue: try row.decode(column: "role", as: String.self))
        else { return nil }
        var session = try ConsoleSession(
            sessionHash: hash, operatorId: row.decode(column: "operator_id", as: String.self), email: row.decode(column: "email", as: String.self),
            role: role, csrfToken: row.decode(column: "csrf_token", as: String.self),
            createdAt: Date(milliseconds: row.decode(column: "created_at_ms", as: Int64.self)),
            lastSeenAt: Date(milliseconds: row.decode(column: "last_seen_at_ms", as: Int64.self)))
        // In whole milliseconds, as the times are stored.
        let at = ISO8601.milliseconds(of: now)
        let unused = at - ISO8601.milliseconds(of: session.lastSeenAt), age = at - ISO8601.milliseconds(of: session.createdAt)
        if unused >= Int64(Self.idleTimeout * 1000) || age >= Int64(Self.lifetime * 1000) {
            try await delete(hash: hash)
            return nil
        }
        if unused >= Int64(Self.touchInterval * 1000) {
            try await database.transaction { db in
                try await db.raw("""
                    UPDATE console_sessions SET last_seen_at_ms = \(bind: at) WHERE session_sha256 = \(bind: hash)
                    """).run()
            }
            session.lastSeenAt = now
        }
        return session
    }

    /// Ends the session whose id has the SHA-256 `hash`.
    func delete(hash: String) async throws {
        try await database.transaction { db in
            try await db.raw("DELETE FROM console_sessions WHERE session_sha256 = \(bind: hash)").run()
        }
    }
}

extension Date {
    /// The time `milliseconds` after the Unix epoch.
    init(milliseconds: Int64) {
        self.init(timeIntervalSince1970: Double(milliseconds) / 1000)
    }
}
