import ConsentKitFormats
import Foundation
import SQLKit

/// The lockout of sign-in attempts per e-mail (`console_sign_in_failures`), known to consentd as an
/// operator or not, so the lockout does not tell which e-mails are operators (decision 0038):
/// ``limit`` failures, each within ``window`` of the one before, lock the e-mail for ``window``.
struct SignInThrottle: Sendable {
    let database: Database

    /// Failures that lock an e-mail.
    static let limit = 5
    /// How long failures are remembered, and how long a lockout lasts.
    static let window: TimeInterval = 15 * 60

    /// The seconds until the lockout of `email` ends (rounded up), nil when it is not locked.
    func lockedFor(email: String, now: Date) async throws -> Int? {
        let at = ISO8601.milliseconds(of: now)
        let until = try await database.read { db in
            try await db.raw("""
                SELECT locked_until_ms FROM console_sign_in_failures WHERE email_key = \(bind: OperatorEmail.key(email))
                """).first()?.decode(column: "locked_until_ms", as: Int64?.self)
        }
        return until.flatMap { $0 > at ? Int(($0 - at + 999) / 1000) : nil }
    }

    /// Counts a failure for `email`; true when it locked the e-mail.
    func recordFailure(email: String, now: Date) async throws -> Bool {
        let key = OperatorEmail.key(email)
        let at = ISO8601.milliseconds(of: now)
        let window = Int64(Self.window * 1000)
        return try await database.transaction { db in
            // Forget e-mails whose last failure is older than the window and that are not locked.
            try await db.raw("""
                DELETE FROM console_sign_in_failures
                WHERE last_failure_at_ms <= \(bind: at - window) AND (locked_until_ms IS NULL OR locked_until_ms <= \(bind: at))
                """).run()
            let row = try await db.raw("""
                SELECT failures, locked_until_ms FROM console_sign_in_failures WHERE email_key = \(bind: key)
                """).first()
            var failures = try row?.decode(column: "failures", as: Int64.self) ?? 0
            if let until = try row?.decode(column: "locked_until_ms", as: Int64?.self), until <= at { failures = 0 }
            failures += 1
            let locks = failures >= Int64(Self.limit)
            let until: Int64? = locks ? at + window : nil
            // A lockout starts the count anew: once it ends, `limit` more failures lock again.
            let stored = locks ? 0 : failures
            if row == nil {
                try await db.raw("""
                    INSERT INTO console_sign_in_failures (email_key, failures, last_failure_at_ms, locked_until_ms)
                    VALUES (\(bind: key), \(bind: stored), \(bind: at), \(bind: until))
                    """).run()
            } else {
                try await db.raw("""
                    UPDATE console_sign_in_failures
                    SET failures = \(bind: stored), last_failure_at_ms = \(bind: at), locked_until_ms = \(bind: until)
                    WHERE email_key = \(bind: key)
                    """).run()
            }
            return locks
        }
    }

    /// Forgets the failures of `email` (after a successful sign-in).
    func clear(email: String) async throws {
        try await database.transaction { db in
            try await db.raw("DELETE FROM console_sign_in_failures WHERE email_key = \(bind: OperatorEmail.key(email))").run()
        }
    }
}
