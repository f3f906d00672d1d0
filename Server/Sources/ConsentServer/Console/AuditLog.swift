import ConsentKitFormats
import Foundation
import SQLKit
import Synchronization

/// One entry of the console's audit log: who did what to what, when, from where.
public struct AuditEntry: Codable, Sendable, Equatable {
    /// The entry's id: its time and random characters, ordered as the entries are (the page cursor).
    public var id: String
    /// When (ISO 8601).
    public var at: String
    /// The operator who acted; nil for a sign-in attempt with an unknown e-mail, and for the CLI.
    public var operatorId: String?
    /// What was done (``AuditAction``).
    public var action: String
    /// What it was done to: an operator's e-mail, an e-mail tried, a subject (`<hash> of <app>`), an app.
    public var target: String?
    /// The client's address; `cli` for the `consent` command.
    public var address: String?
}

/// The actions the audit log records.
public enum AuditAction: String, Sendable {
    /// An operator signed in.
    case signIn = "sign_in"
    /// An operator signed out.
    case signOut = "sign_out"
    /// A sign-in was refused (wrong e-mail or password, disabled operator).
    case signInFailed = "sign_in_failed"
    /// An e-mail was locked after repeated failures.
    case lockedOut = "locked_out"
    /// An operator was created.
    case operatorCreated = "operator_created"
    /// An operator was disabled.
    case operatorDisabled = "operator_disabled"
    /// A one-time link was used.
    case oneTimeLinkUsed = "one_time_link_used"

    // The configuration (decision 0041): the target names the entry (`publisher pub-news`).
    /// The publishers file was imported into the database.
    case configurationImported = "configuration_imported"
    /// A publisher, app, website or ad-tech provider was created.
    case configurationCreated = "configuration_created"
    /// A publisher, app, website or ad-tech provider was changed.
    case configurationUpdated = "configuration_updated"
    /// A publisher, app, website or ad-tech provider was deleted.
    case configurationDeleted = "configuration_deleted"
    /// An API key was created (the target is its id, kind and app).
    case keyCreated = "key_created"
    /// An API key was revoked.
    case keyRevoked = "key_revoked"
    // The notice's versions (decision record 0043).
    /// A draft of a notice was created.
    case noticeDraftCreated = "notice_draft_created"
    /// A draft of a notice was changed.
    case noticeDraftUpdated = "notice_draft_updated"
    /// A notice version was published.
    case noticePublished = "notice_published"
    // Data-subject requests (decision 0042): the target is `<subject hash> of <app id>`, never a
    // subject's clear id.
    /// A subject was looked up (found or not).
    case subjectLookedUp = "subject_looked_up"
    /// A subject's history with proofs was read.
    case subjectHistoryRead = "subject_history_read"
    /// A subject's data was exported.
    case subjectExported = "subject_exported"
    /// A subject was erased.
    case subjectErased = "subject_erased"
    /// An erased subject was started anew.
    case subjectRestarted = "subject_restarted"
    /// An app's hash chain was verified (the target is the app id).
    case chainVerified = "chain_verified"
}

/// The console's audit log, in the database (`console_audit`).
public struct AuditLog: Sendable {
    let database: Database

    /// The log of `database`.
    public init(database: Database) {
        self.database = database
    }

    /// Appends an entry, in the transaction `db` when given, else in one of its own.
    func record(_ action: AuditAction, operatorId: String?, target: String?, address: String?, at now: Date, in db: (any SQLDatabase)? = nil) async throws {
        let milliseconds = ISO8601.milliseconds(of: now)
        let id = Self.entryId(milliseconds: milliseconds)
        let insert: SQLQueryString = """
            INSERT INTO console_audit (entry_id, at_ms, operator_id, action, target, address)
            VALUES (\(bind: id), \(bind: milliseconds), \(bind: operatorId), \(bind: action.rawValue), \(bind: target), \(bind: address))
            """
        if let db {
            try await db.raw(insert).run()
        } else {
            try await database.transaction { db in try await db.raw(insert).run() }
        }
    }

    /// Entries recorded by this process, counted: orders those of one millisecond.
    private static let counter = Atomic<Int>(0)

    /// The entry's time (13 digits), this process's count (9 digits) and 4 random characters: ids
    /// sort as the entries were written (within a millisecond, as one node wrote them).
    static func entryId(milliseconds: Int64) -> String {
        let count = counter.add(1, ordering: .relaxed).newValue % 1_000_000_000
        return String(format: "%013lld-%09ld-", milliseconds, count) + APIKeys.randomText(count: 4)
    }

    /// The newest `limit` entries older than the entry `before` (all when nil), newest first.
    public func page(limit: Int, before: String? = nil) async throws -> [AuditEntry] {
        let filter: SQLQueryString = before.map { " WHERE entry_id < \(bind: $0)" } ?? ""
        return try await database.read { db in
            try await db.raw("SELECT entry_id, at_ms, operator_id, action, target, address FROM console_audit" + filter
                             + " ORDER BY entry_id DESC LIMIT \(literal: limit)").all().map { row in
                try AuditEntry(
                    id: row.decode(column: "entry_id", as: String.self),
                    at: ISO8601.format(milliseconds: row.decode(column: "at_ms", as: Int64.self)),
                    operatorId: row.decode(column: "operator_id", as: String?.self), action: row.decode(column: "action", as: String.self),
                    target: row.decode(column: "target", as: String?.self), address: row.decode(column: "address", as: String?.self))
            }
        }
    }
}
