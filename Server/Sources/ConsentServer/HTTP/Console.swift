import Foundation
import NIOPosix
import Synchronization

/// The console's sign-in and access, server side (issue 29 §1, decision 0038): operators and their
/// passwords, the lockout, sessions, one-time links and the audit log, on consentd's database and
/// clock. ``ConsoleController`` and ``ConsoleSessionMiddleware`` are its HTTP face.
final class Console: Sendable {
    let operators: Operators
    let sessions: ConsoleSessions
    let throttle: SignInThrottle
    let audit: AuditLog
    /// The time now: `Date()` in production, a clock the tests move.
    let clock: @Sendable () -> Date
    /// The cost of new password hashes.
    let passwordParameters: ScryptParameters
    /// The CPU-heavy work of the server, which password hashing joins.
    let cpuWork: CPUWorkGate
    /// A hash no password matches, checked for unknown e-mails so they take as long as known ones;
    /// made on first need (which costs the same one scrypt).
    private let dummyHash = Mutex<String?>(nil)

    /// The cookie that carries the session id.
    static let cookieName = "consentkit_console"
    /// The header that carries the CSRF token.
    static let csrfHeader = "X-CSRF-Token"

    init(database: Database, cpuWork: CPUWorkGate, passwordParameters: ScryptParameters, clock: @escaping @Sendable () -> Date) {
        operators = Operators(database: database)
        sessions = ConsoleSessions(database: database)
        throttle = SignInThrottle(database: database)
        audit = AuditLog(database: database)
        self.cpuWork = cpuWork
        self.passwordParameters = passwordParameters
        self.clock = clock
    }

    /// A signed-in operator: its new session's id (for the cookie) and CSRF token.
    struct SignedIn: Sendable {
        var account: ConsoleOperator
        var sessionId: String
        var csrfToken: String
        var expiresAt: Date
    }

    /// Signs in with e-mail and password. A locked e-mail is refused (429 `locked_out`) without
    /// checking the password; a wrong password, an unknown or disabled operator all get the same
    /// 401 `sign_in_failed` after the same work (an unknown e-mail is checked against a dummy hash).
    func signIn(email: String, password: String, address: String) async throws -> SignedIn {
        let now = clock()
        if let wait = try await throttle.lockedFor(email: email, now: now) {
            throw APIError(.tooManyRequests, "locked_out", "too many failed sign-ins for this e-mail; retry in \(wait) s", retryAfter: wait)
        }
        let found = try await operators.credentials(email: email)
        let usable = found.flatMap { $0.account.disabledAt == nil ? $0.passwordHash : nil }
        let matches: Bool
        if let usable {
            matches = try await hashing { PasswordHash.verify(password, against: usable) }
        } else {
            try await spendOneCheck(password)
            matches = false
        }
        guard matches, let signedIn = found?.account else {
            let locked = try await throttle.recordFailure(email: email, now: now)
            try await audit.record(.signInFailed, operatorId: found?.account.operatorId, target: email, address: address, at: now)
            if locked {
                try await audit.record(.lockedOut, operatorId: found?.account.operatorId, target: email, address: address, at: now)
            }
            throw APIError(.unauthorized, "sign_in_failed", "the e-mail or the password is wrong")
        }
        try await throttle.clear(email: email)
        return try await startSession(for: signedIn, address: address, now: now)
    }

    /// Signs in with a one-time link's token, setting the password (and for the first-operator link,
    /// creating the owner with `email`). An unknown, used or expired token gets 401 `link_invalid`.
    func signIn(token: String, email: String?, password: String, address: String) async throws -> SignedIn {
        let now = clock()
        do {
            try PasswordHash.check(password)
            if let email { try OperatorEmail.check(email) }
            let parameters = passwordParameters
            let hash = try await hashing { try PasswordHash.make(password, parameters: parameters) }
            guard let linked = try await operators.useLink(token: token, email: email, passwordHash: hash, address: address, now: now) else {
                throw APIError(.unauthorized, "link_invalid", "the one-time link is unknown, used or expired; ask an owner for a new one")
            }
            return try await startSession(for: linked, address: address, now: now)
        } catch let error as ConsoleError {
            if case .badEmail("") = error {
                throw APIError(.badRequest, "missing_field", "the first operator's link needs the owner's e-mail", field: "email")
            }
            throw error.apiError
        }
    }

    /// Ends a session.
    func signOut(_ session: ConsoleSession, address: String) async throws {
        try await sessions.delete(hash: session.sessionHash)
        try await audit.record(.signOut, operatorId: session.operatorId, target: session.email, address: address, at: clock())
    }

    /// The live session a cookie's id names (nil when none).
    func session(id: String) async throws -> ConsoleSession? {
        try await sessions.session(id: id, now: clock())
    }

    private func startSession(for signedIn: ConsoleOperator, address: String, now: Date) async throws -> SignedIn {
        let session = try await sessions.create(operatorId: signedIn.operatorId, now: now)
        try await audit.record(.signIn, operatorId: signedIn.operatorId, target: signedIn.email, address: address, at: now)
        return SignedIn(account: signedIn, sessionId: session.id, csrfToken: session.csrfToken,
                        expiresAt: now.addingTimeInterval(ConsoleSessions.lifetime))
    }

    /// Runs scrypt off the event loops (NIO's blocking pool), in a slot of the CPU-work gate.
    private func hashing<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await cpuWork.run { try await NIOThreadPool.singleton.runIfActive(work) }
    }

    /// The work of one password check for an e-mail with no usable hash: a check against the dummy
    /// hash, or, the first time, making it (one scrypt either way).
    private func spendOneCheck(_ password: String) async throws {
        if let dummy = dummyHash.withLock({ $0 }) {
            _ = try await hashing { PasswordHash.verify(password, against: dummy) }
            return
        }
        let parameters = passwordParameters
        let made = try await hashing { try PasswordHash.make(randomToken(), parameters: parameters) }
        dummyHash.withLock { $0 = $0 ?? made }
    }
}
