import ConsentKitFormats
import Foundation
import SQLKit

/// The console's operators in the database (`console_operators`), and their one-time links
/// (`console_one_time_links`): what `consent operators` and the console's sign-in use.
public struct Operators: Sendable {
    let database: Database
    let audit: AuditLog

    /// How long a one-time link works.
    public static let linkLifetime: TimeInterval = 3600

    /// The operators of `database`.
    public init(database: Database) {
        self.database = database
        self.audit = AuditLog(database: database)
    }

    /// Creates an operator with a password (hashed here with `parameters`: blocking, tens of
    /// milliseconds), recorded in the audit log as done from `address`.
    public func create(email: String, role: OperatorRole, password: String, parameters: ScryptParameters = .standard,
                       address: String = "cli", now: Date = Date()) async throws -> ConsoleOperator {
        try OperatorEmail.check(email)
        try PasswordHash.check(password)
        let hash = try PasswordHash.make(password, parameters: parameters)
        return try await database.transaction { db in
            try await insert(email: email, role: role, passwordHash: hash, address: address, now: now, in: db)
        }
    }

    /// Creates an operator without a password and a one-time link (its token, shown once) with
    /// which it sets one within ``linkLifetime``.
    public func createWithLink(email: String, role: OperatorRole, address: String = "cli", now: Date = Date()) async throws
        -> (account: ConsoleOperator, token: String) {
        try OperatorEmail.check(email)
        return try await database.transaction { db in
            let created = try await insert(email: email, role: role, passwordHash: nil, address: address, now: now, in: db)
            let token = try await insertLink(operatorId: created.operatorId, role: role, now: now, in: db)
            return (created, token)
        }
    }

    /// A one-time link that creates the first owner, when there is no operator at all (nil otherwise).
    public func firstOperatorLink(now: Date = Date()) async throws -> String? {
        try await database.transaction { db -> String? in
            guard try await db.raw("SELECT operator_id FROM console_operators LIMIT 1").first() == nil else { return nil }
            return try await insertLink(operatorId: nil, role: .owner, now: now, in: db)
        }
    }

    /// Every operator, oldest first.
    public func list() async throws -> [ConsoleOperator] {
        try await database.read { db in
            try await db.raw("""
                SELECT operator_id, email, role, password_hash, created_at_ms, disabled_at_ms FROM console_operators
                ORDER BY created_at_ms, operator_id
                """).all().map(Self.decode)
        }
    }

    /// Disables an operator by e-mail (any case) or id and ends its sessions; false when there is
    /// no such operator. Disabling one already disabled changes nothing.
    @discardableResult
    public func disable(_ emailOrId: String, address: String = "cli", now: Date = Date()) async throws -> Bool {
        let at = ISO8601.milliseconds(of: now)
        return try await database.transaction { db in
            guard let row = try await db.raw("""
                SELECT operator_id, email, disabled_at_ms FROM console_operators
                WHERE email_key = \(bind: OperatorEmail.key(emailOrId)) OR operator_id = \(bind: emailOrId)
                """).first() else { return false }
            let id = try row.decode(column: "operator_id", as: String.self)
            guard try row.decode(column: "disabled_at_ms", as: Int64?.self) == nil else { return true }
            try await db.raw("UPDATE console_operators SET disabled_at_ms = \(bind: at) WHERE operator_id = \(bind: id)").run()
            try await db.raw("DELETE FROM console_sessions WHERE operator_id = \(bind: id)").run()
            try await audit.record(.operatorDisabled, operatorId: nil, target: row.decode(column: "email", as: String.self),
                                   address: address, at: now, in: db)
            return true
        }
    }

    /// The operator with this e-mail (any case) and its password's stored hash.
    func credentials(email: String) async throws -> (account: ConsoleOperator, passwordHash: String?)? {
        try await database.read { db in
            try await db.raw("""
                SELECT operator_id, email, role, password_hash, created_at_ms, disabled_at_ms FROM console_operators
                WHERE email_key = \(bind: OperatorEmail.key(email))
                """).first().map { row in try (Self.decode(row), row.decode(column: "password_hash", as: String?.self)) }
        }
    }

    /// Uses a one-time link: marks it used (once: a second use, an expired or unknown token finds
    /// nothing) and sets its operator's password, or for the first-operator link creates the owner
    /// with `email`. Nil when the token is not a live link.
    func useLink(token: String, email: String?, passwordHash: String, address: String, now: Date) async throws -> ConsoleOperator? {
        let at = ISO8601.milliseconds(of: now)
        return try await database.transaction { db -> ConsoleOperator? in
            guard let link = try await db.raw("""
                UPDATE console_one_time_links SET used_at_ms = \(bind: at)
                WHERE token_sha256 = \(bind: sha256Hex(token)) AND used_at_ms IS NULL AND expires_at_ms > \(bind: at)
                RETURNING operator_id, role
                """).first() else { return nil }
            let linked: ConsoleOperator
            if let id = try link.decode(column: "operator_id", as: String?.self) {
                try await db.raw("""
                    UPDATE console_operators SET password_hash = \(bind: passwordHash) WHERE operator_id = \(bind: id) AND disabled_at_ms IS NULL
                    """).run()
                guard let row = try await db.raw("""
                    SELECT operator_id, email, role, password_hash, created_at_ms, disabled_at_ms FROM console_operators
                    WHERE operator_id = \(bind: id) AND disabled_at_ms IS NULL
                    """).first() else { return nil }
                linked = try Self.decode(row)
            } else {
                guard let email else { throw ConsoleError.badEmail("") }
                try OperatorEmail.check(email)
                let role = try OperatorRole.named(link.decode(column: "role", as: String.self))
                linked = try await insert(email: email, role: role, passwordHash: passwordHash, address: address, now: now, in: db)
            }
            try await audit.record(.oneTimeLinkUsed, operatorId: linked.operatorId, target: linked.email, address: address, at: now, in: db)
            return linked
        }
    }

    private func insert(email: String, role: OperatorRole, passwordHash: String?, address: String, now: Date,
                        in db: any SQLDatabase) async throws -> ConsoleOperator {
        let key = OperatorEmail.key(email)
        guard try await db.raw("SELECT operator_id FROM console_operators WHERE email_key = \(bind: key)").first() == nil else {
            throw ConsoleError.emailTaken(email)
        }
        let id = "op_" + APIKeys.randomText(count: 12)
        let at = ISO8601.milliseconds(of: now)
        try await db.raw("""
            INSERT INTO console_operators (operator_id, email, email_key, role, password_hash, created_at_ms)
            VALUES (\(bind: id), \(bind: email), \(bind: key), \(bind: role.rawValue), \(bind: passwordHash), \(bind: at))
            """).run()
        try await audit.record(.operatorCreated, operatorId: nil, target: email, address: address, at: now, in: db)
        return ConsoleOperator(operatorId: id, email: email, role: role, createdAt: ISO8601.format(milliseconds: at), disabledAt: nil,
                               hasPassword: passwordHash != nil)
    }

    private func insertLink(operatorId: String?, role: OperatorRole, now: Date, in db: any SQLDatabase) async throws -> String {
        let token = randomToken()
        let at = ISO8601.milliseconds(of: now)
        try await db.raw("""
            INSERT INTO console_one_time_links (token_sha256, operator_id, role, created_at_ms, expires_at_ms)
            VALUES (\(bind: sha256Hex(token)), \(bind: operatorId), \(bind: role.rawValue), \(bind: at),
                    \(bind: at + Int64(Self.linkLifetime * 1000)))
            """).run()
        return token
    }

    private static func decode(_ row: any SQLRow) throws -> ConsoleOperator {
        try ConsoleOperator(
            operatorId: row.decode(column: "operator_id", as: String.self), email: row.decode(column: "email", as: String.self),
            role: OperatorRole.named(row.decode(column: "role", as: String.self)),
            createdAt: ISO8601.format(milliseconds: row.decode(column: "created_at_ms", as: Int64.self)),
            disabledAt: row.decode(column: "disabled_at_ms", as: Int64?.self).map { ISO8601.format(milliseconds: $0) },
            hasPassword: row.decode(column: "password_hash", as: String?.self) != nil)
    }
}
