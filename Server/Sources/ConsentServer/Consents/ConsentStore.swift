import Crypto
import Foundation
import SQLKit

/// The consent database: appends events, keeps each subject's current state by last-writer-wins,
/// answers history, export and erasure, and verifies each app's hash chain.
///
/// Appends go through a `GroupCommitter`: concurrent appends share one transaction and one
/// durable commit. Subject ids are stored only as HMAC-SHA256 under the server secret.
public final class ConsentStore: Sendable {
    /// The database the store lives in.
    public let database: Database
    private let secret: ServerSecret
    private let committer: GroupCommitter<PendingAppend, AppendAnswer>

    /// Creates a store over a migrated database.
    public init(database: Database, secret: ServerSecret) {
        self.database = database
        self.secret = secret
        self.committer = GroupCommitter { [database] batch in
            try await database.transaction { db in
                try await Self.commit(batch, in: db, engine: database.engine)
            }
        }
    }

    /// The answer to an append, and whether it was new (a retry answers `created == false`).
    public struct AppendAnswer: Sendable, Equatable {
        /// What the client gets back.
        public var result: AppendResult
        /// False when this event id was appended before and the first answer is repeated.
        public var created: Bool
    }

    /// Appends one event for `appId`. A retry of an event already stored (same event id, same
    /// content) returns the first answer; the same event id with other content throws
    /// `StoreError.eventIdConflict`.
    public func append(
        appId: String, request: ConsentEventRequest, credential: CredentialKind, receivedAt: Date = Date()
    ) async throws -> AppendAnswer {
        let givenSubject = request.subjectId
        let subjectId = givenSubject ?? Self.newSubjectId()
        let subjectHash = secret.subjectHash(appId: appId, subjectId: subjectId)
        let fingerprint = try Self.fingerprint(
            request: request, subjectHash: givenSubject.map { _ in subjectHash })
        let pending = PendingAppend(
            appId: appId, eventId: request.eventId, subjectId: subjectId,
            subjectWasGenerated: givenSubject == nil, subjectHash: subjectHash,
            collectedAt: request.collectedAtMilliseconds, receivedAt: Timestamps.milliseconds(receivedAt),
            credential: credential, consent: request.consent, fingerprint: fingerprint)
        return try await committer.submit(pending)
    }

    /// The subject's current state, nil when the subject has none.
    public func current(appId: String, subjectId: String) async throws -> SubjectState? {
        let hash = secret.subjectHash(appId: appId, subjectId: subjectId)
        return try await database.read { db in
            try await Self.currentState(db, appId: appId, subjectHash: hash, subjectId: subjectId)
        }
    }

    /// A page of the subject's history, oldest first, after `cursor`.
    public func events(appId: String, subjectId: String, limit: Int, cursor: String?) async throws -> EventPage {
        let hash = secret.subjectHash(appId: appId, subjectId: subjectId)
        let after: Int64
        if let cursor {
            guard let value = Int64(cursor), value >= 0 else { throw StoreError.badCursor(cursor) }
            after = value
        } else {
            after = 0
        }
        let limit = max(1, min(limit, 500))
        let events = try await database.read { db in
            try await Self.storedEvents(db, appId: appId, subjectHash: hash, after: after, limit: limit + 1)
        }
        let page = Array(events.prefix(limit))
        let next = events.count > limit ? page.last.map { String($0.sequence) } : nil
        return EventPage(events: page, nextCursor: next)
    }

    /// Everything held about the subject, nil when nothing is.
    public func export(appId: String, subjectId: String, now: Date = Date()) async throws -> SubjectExport? {
        let hash = secret.subjectHash(appId: appId, subjectId: subjectId)
        return try await database.read { db in
            let current = try await Self.currentState(db, appId: appId, subjectHash: hash, subjectId: subjectId)
            let events = try await Self.storedEvents(db, appId: appId, subjectHash: hash, after: 0, limit: nil)
            if current == nil, events.isEmpty { return nil }
            return SubjectExport(subjectId: subjectId, appId: appId, exportedAt: Timestamps.format(now), current: current, events: events)
        }
    }

    /// Erases the subject's personal data: the current state goes, each event keeps only its
    /// sequence, event id, received time and hashes (so the chain still verifies). Returns a
    /// receipt, nil when nothing was held.
    public func erase(appId: String, subjectId: String, now: Date = Date()) async throws -> ErasureReceipt? {
        let hash = secret.subjectHash(appId: appId, subjectId: subjectId)
        let erasedAt = Timestamps.milliseconds(now)
        return try await database.transaction { db in
            let count = try await db.raw("""
                SELECT COUNT(*) AS n FROM consent_events WHERE app_id = \(bind: appId) AND subject_hash = \(bind: hash)
                """).first()?.decode(column: "n", as: Int64.self) ?? 0
            let state = try await db.raw("""
                SELECT event_id FROM subjects WHERE app_id = \(bind: appId) AND subject_hash = \(bind: hash)
                """).first()
            if count == 0, state == nil { return nil }
            try await db.raw("""
                UPDATE consent_events SET subject_hash = NULL, collected_at_ms = NULL, request_sha256 = NULL,
                    record = NULL, response = NULL
                WHERE app_id = \(bind: appId) AND subject_hash = \(bind: hash)
                """).run()
            try await db.raw("DELETE FROM subjects WHERE app_id = \(bind: appId) AND subject_hash = \(bind: hash)").run()
            let receipt = ErasureReceipt(
                receiptId: "era_" + UUID().uuidString.lowercased(), appId: appId,
                erasedAt: Timestamps.format(milliseconds: erasedAt), eventsErased: count)
            try await db.raw("""
                INSERT INTO erasure_receipts (receipt_id, app_id, erased_at_ms, events_erased)
                VALUES (\(bind: receipt.receiptId), \(bind: appId), \(bind: erasedAt), \(bind: count))
                """).run()
            return receipt
        }
    }

    /// Verifies the app's hash chain (see `HashChain.verify`).
    public func verifyChain(appId: String) async throws -> ChainVerification {
        try await HashChain.verify(appId: appId, in: database)
    }

    // MARK: - Appending

    struct PendingAppend: Sendable {
        let appId: String
        let eventId: String
        let subjectId: String
        let subjectWasGenerated: Bool
        let subjectHash: String
        let collectedAt: Int64
        let receivedAt: Int64
        let credential: CredentialKind
        let consent: ConsentRecord
        let fingerprint: String
    }

    /// What is hashed and stored for an event: everything but the subject's clear id.
    struct EventRecord: Codable {
        var eventId: String
        var subjectHash: String
        var collectedAt: Int64
        var receivedAt: Int64
        var credential: CredentialKind
        var consent: ConsentRecord
    }

    /// The first answer, as stored for retries. The subject id is kept only when the server made it.
    struct StoredAnswer: Codable {
        var outcome: AppendOutcome
        var generatedSubjectId: String?
        /// The winning event's id and content.
        var eventId: String
        var collectedAt: Int64
        var receivedAt: Int64
        var consent: ConsentRecord
    }

    private struct CurrentRow {
        var eventId: String
        var sequence: Int64
        var collectedAt: Int64
        var receivedAt: Int64
        var consent: ConsentRecord
    }

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    private static func json(_ value: some Encodable) throws -> String {
        String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    private static func fingerprint(request: ConsentEventRequest, subjectHash: String?) throws -> String {
        struct Fingerprint: Encodable {
            var eventId: String
            var subjectHash: String?
            var collectedAt: Int64
            var consent: ConsentRecord
        }
        let text = try json(Fingerprint(eventId: request.eventId, subjectHash: subjectHash,
                                        collectedAt: request.collectedAtMilliseconds, consent: request.consent))
        return SHA256.hash(data: Data(text.utf8)).hexString
    }

    private static func newSubjectId() -> String {
        "sub_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
    }

    /// Appends a batch in one transaction: per app, lock the chain head, look up retries and
    /// current states, decide each event in order, then write all rows.
    private static func commit(_ batch: [PendingAppend], in db: any SQLDatabase, engine: DatabaseEngine) async throws -> [Result<AppendAnswer, any Error>] {
        var results = [Result<AppendAnswer, any Error>?](repeating: nil, count: batch.count)
        let byApp = Dictionary(grouping: batch.indices, by: { batch[$0].appId })
        // A fixed lock order keeps nodes that share a PostgreSQL database from deadlocking.
        for appId in byApp.keys.sorted() {
            let indices = byApp[appId]!
            try await db.raw("""
                INSERT INTO app_chains (app_id, last_sequence, last_hash) VALUES (\(bind: appId), 0, \(bind: HashChain.genesis))
                ON CONFLICT (app_id) DO NOTHING
                """).run()
            let lock: SQLQueryString = engine == .postgresql ? " FOR UPDATE" : ""
            guard let head = try await db.raw("SELECT last_sequence, last_hash FROM app_chains WHERE app_id = \(bind: appId)" + lock).first() else {
                throw StoreError.chainHeadMissing(appId)
            }
            var sequence = try head.decode(column: "last_sequence", as: Int64.self)
            var chain = try head.decode(column: "last_hash", as: String.self)

            let eventIds = Array(Set(indices.map { batch[$0].eventId }))
            var existing: [String: (fingerprint: String?, answer: String?)] = [:]
            for row in try await db.raw("""
                SELECT event_id, request_sha256, response FROM consent_events
                WHERE app_id = \(bind: appId) AND event_id IN (\(binds: eventIds))
                """).all() {
                existing[try row.decode(column: "event_id", as: String.self)] = (
                    try row.decode(column: "request_sha256", as: String?.self), try row.decode(column: "response", as: String?.self))
            }
            let subjectHashes = Array(Set(indices.map { batch[$0].subjectHash }))
            var currents: [String: CurrentRow] = [:]
            for row in try await db.raw("""
                SELECT subject_hash, event_id, event_sequence, collected_at_ms, received_at_ms, consent FROM subjects
                WHERE app_id = \(bind: appId) AND subject_hash IN (\(binds: subjectHashes))
                """).all() {
                currents[try row.decode(column: "subject_hash", as: String.self)] = try CurrentRow(
                    eventId: row.decode(column: "event_id", as: String.self),
                    sequence: row.decode(column: "event_sequence", as: Int64.self),
                    collectedAt: row.decode(column: "collected_at_ms", as: Int64.self),
                    receivedAt: row.decode(column: "received_at_ms", as: Int64.self),
                    consent: JSONDecoder().decode(ConsentRecord.self, from: Data(row.decode(column: "consent", as: String.self).utf8)))
            }

            var inserts: [SQLQueryString] = []
            var changedSubjects: [String] = []
            for index in indices {
                let event = batch[index]
                if let found = existing[event.eventId] {
                    results[index] = replay(event, fingerprint: found.fingerprint, answer: found.answer)
                    continue
                }
                sequence += 1
                let candidate = CurrentRow(eventId: event.eventId, sequence: sequence, collectedAt: event.collectedAt,
                                           receivedAt: event.receivedAt, consent: event.consent)
                let outcome: AppendOutcome
                if let current = currents[event.subjectHash],
                   (current.collectedAt, current.eventId) > (event.collectedAt, event.eventId) {
                    outcome = .history
                } else {
                    outcome = .current
                    if !changedSubjects.contains(event.subjectHash) { changedSubjects.append(event.subjectHash) }
                    currents[event.subjectHash] = candidate
                }
                let winner = currents[event.subjectHash]!
                let record = try json(EventRecord(eventId: event.eventId, subjectHash: event.subjectHash, collectedAt: event.collectedAt,
                                                  receivedAt: event.receivedAt, credential: event.credential, consent: event.consent))
                let recordHash = HashChain.recordHash(record)
                chain = HashChain.link(previous: chain, sequence: sequence, recordHash: recordHash)
                let stored = StoredAnswer(outcome: outcome, generatedSubjectId: event.subjectWasGenerated ? event.subjectId : nil,
                                          eventId: winner.eventId, collectedAt: winner.collectedAt, receivedAt: winner.receivedAt,
                                          consent: winner.consent)
                let answerText = try json(stored)
                existing[event.eventId] = (event.fingerprint, answerText)
                inserts.append("""
                    (\(bind: appId), \(bind: sequence), \(bind: event.eventId), \(bind: event.subjectHash), \(bind: event.collectedAt), \
                    \(bind: event.receivedAt), \(bind: event.credential.rawValue), \(bind: outcome.rawValue), \(bind: event.fingerprint), \
                    \(bind: record), \(bind: answerText), \(bind: recordHash), \(bind: chain))
                    """)
                results[index] = .success(AppendAnswer(result: answer(stored, eventId: event.eventId, subjectId: event.subjectId), created: true))
            }

            for chunk in stride(from: 0, to: inserts.count, by: 200).map({ inserts[$0..<min($0 + 200, inserts.count)] }) {
                try await db.raw("""
                    INSERT INTO consent_events (app_id, sequence, event_id, subject_hash, collected_at_ms, received_at_ms, credential,
                        outcome, request_sha256, record, response, record_hash, chain_hash) VALUES
                    """ + chunk.joined(separator: ", ")).run()
            }
            var upserts: [SQLQueryString] = []
            for subjectHash in changedSubjects {
                let row = currents[subjectHash]!
                upserts.append("""
                    (\(bind: appId), \(bind: subjectHash), \(bind: row.eventId), \(bind: row.sequence), \(bind: row.collectedAt), \
                    \(bind: row.receivedAt), \(bind: try json(row.consent)))
                    """)
            }
            for chunk in stride(from: 0, to: upserts.count, by: 200).map({ upserts[$0..<min($0 + 200, upserts.count)] }) {
                // The WHERE clause repeats last-writer-wins in SQL, so the table can never move backwards.
                try await db.raw("""
                    INSERT INTO subjects (app_id, subject_hash, event_id, event_sequence, collected_at_ms, received_at_ms, consent) VALUES
                    """ + chunk.joined(separator: ", ") + """
                     ON CONFLICT (app_id, subject_hash) DO UPDATE SET event_id = excluded.event_id,
                        event_sequence = excluded.event_sequence, collected_at_ms = excluded.collected_at_ms,
                        received_at_ms = excluded.received_at_ms, consent = excluded.consent
                    WHERE excluded.collected_at_ms > subjects.collected_at_ms
                       OR (excluded.collected_at_ms = subjects.collected_at_ms AND excluded.event_id > subjects.event_id)
                    """).run()
            }
            if !inserts.isEmpty {
                try await db.raw("""
                    UPDATE app_chains SET last_sequence = \(bind: sequence), last_hash = \(bind: chain) WHERE app_id = \(bind: appId)
                    """).run()
            }
        }
        return results.map { $0! }
    }

    /// The answer to a retry: the first answer when the content matches, a conflict otherwise.
    private static func replay(_ event: PendingAppend, fingerprint: String?, answer: String?) -> Result<AppendAnswer, any Error> {
        guard let fingerprint, let answer else {
            return .failure(StoreError.eventIdConflict(event.eventId, erased: true))
        }
        guard fingerprint == event.fingerprint else {
            return .failure(StoreError.eventIdConflict(event.eventId, erased: false))
        }
        do {
            let stored = try JSONDecoder().decode(StoredAnswer.self, from: Data(answer.utf8))
            let subjectId = stored.generatedSubjectId ?? event.subjectId
            return .success(AppendAnswer(result: Self.answer(stored, eventId: event.eventId, subjectId: subjectId), created: false))
        } catch {
            return .failure(error)
        }
    }

    private static func answer(_ stored: StoredAnswer, eventId: String, subjectId: String) -> AppendResult {
        AppendResult(
            eventId: eventId, subjectId: subjectId, outcome: stored.outcome,
            current: SubjectState(subjectId: subjectId, eventId: stored.eventId,
                                  collectedAt: Timestamps.format(milliseconds: stored.collectedAt),
                                  receivedAt: Timestamps.format(milliseconds: stored.receivedAt), consent: stored.consent))
    }

    // MARK: - Reading

    private static func currentState(_ db: any SQLDatabase, appId: String, subjectHash: String, subjectId: String) async throws -> SubjectState? {
        guard let row = try await db.raw("""
            SELECT event_id, collected_at_ms, received_at_ms, consent FROM subjects
            WHERE app_id = \(bind: appId) AND subject_hash = \(bind: subjectHash)
            """).first() else { return nil }
        return try SubjectState(
            subjectId: subjectId, eventId: row.decode(column: "event_id", as: String.self),
            collectedAt: Timestamps.format(milliseconds: row.decode(column: "collected_at_ms", as: Int64.self)),
            receivedAt: Timestamps.format(milliseconds: row.decode(column: "received_at_ms", as: Int64.self)),
            consent: JSONDecoder().decode(ConsentRecord.self, from: Data(row.decode(column: "consent", as: String.self).utf8)))
    }

    private static func storedEvents(_ db: any SQLDatabase, appId: String, subjectHash: String, after: Int64, limit: Int?) async throws -> [StoredEvent] {
        let limitClause: SQLQueryString = limit.map { " LIMIT \(literal: $0)" } ?? ""
        return try await db.raw("""
            SELECT sequence, outcome, record FROM consent_events
            WHERE app_id = \(bind: appId) AND subject_hash = \(bind: subjectHash) AND sequence > \(bind: after)
            ORDER BY sequence
            """ + limitClause).all().map { row in
            let record = try JSONDecoder().decode(EventRecord.self, from: Data(row.decode(column: "record", as: String.self).utf8))
            return try StoredEvent(
                eventId: record.eventId, sequence: row.decode(column: "sequence", as: Int64.self),
                collectedAt: Timestamps.format(milliseconds: record.collectedAt),
                receivedAt: Timestamps.format(milliseconds: record.receivedAt),
                outcome: AppendOutcome(rawValue: row.decode(column: "outcome", as: String.self)) ?? .history,
                credential: record.credential, consent: record.consent)
        }
    }
}

/// A store operation refused.
public enum StoreError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The event id was used before with other content (or for a subject since erased).
    case eventIdConflict(String, erased: Bool)
    /// A pagination cursor that this server did not hand out.
    case badCursor(String)
    /// The app's chain head vanished inside a transaction (a database fault).
    case chainHeadMissing(String)

    /// A sentence saying what happened.
    public var description: String {
        switch self {
        case .eventIdConflict(let id, let erased):
            erased
                ? "event \(id) was appended before and its subject has since been erased; use a new event id"
                : "event \(id) was appended before with different content; a retry must send the same body, a new event needs a new id"
        case .badCursor(let cursor): "cursor \(cursor) is not one this server handed out"
        case .chainHeadMissing(let app): "the hash chain head of app \(app) is missing"
        }
    }
}
