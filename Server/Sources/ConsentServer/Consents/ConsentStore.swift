import ConsentKitFormats
import ConsentdAPI
import Crypto
import Foundation
import PostgresKit
import SQLKit

/// The consent database: appends events, keeps each subject's current state by last-writer-wins
/// (per record kind: the newest TCF decision and the newest US choice stand side by side,
/// decision record 0035), answers history, export and erasure, and verifies each app's hash chain.
///
/// Appends go through a `GroupCommitter`: concurrent appends share one transaction and one
/// durable commit. Subject ids are stored only as HMAC-SHA256 under the server secret.
public final class ConsentStore: Sendable {
    /// The database the store lives in.
    public let database: Database
    let secret: ServerSecret
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
        /// What the client gets back: an `AppendResult` as JSON, written once in the commit.
        public var json: String
        /// False when this event id was appended before and the first answer is repeated.
        public var created: Bool
        /// Set when consentd made the answer's subject for this event (it came without
        /// `subjectId`), now or in the first answer a retry repeats.
        public var creation: Creation? = nil

        /// Who made a subject consentd created, and when: what decides whether a retry may be
        /// given a token for it.
        public struct Creation: Sendable, Equatable {
            /// The key the creating event came with; nil in answers stored before it was kept.
            public var keyId: String?
            /// When the event was first answered, in milliseconds since 1970.
            public var firstAnsweredAt: Int64
        }

        /// The answer as a value.
        public func result() throws -> AppendResult {
            try JSONDecoder().decode(AppendResult.self, from: Data(json.utf8))
        }
    }

    /// Appends one event for `appId`. A retry of an event already stored (same event id, same
    /// content) returns the first answer; the same event id with other content throws
    /// `StoreError.eventIdConflict`.
    /// `keyId` is the key the request came with (kept with the answer of an event that creates
    /// its subject); `region` the region it was sent from, as the analytics count it
    /// (`RegionDecision.analyticsRegion`).
    public func append(
        appId: String, request: CheckedConsentEvent, credential: CredentialKind, keyId: String? = nil, region: String = "unknown",
        receivedAt: Date = Date()
    ) async throws -> AppendAnswer {
        try await committer.submit(try pending(appId: appId, request: request, credential: credential, keyId: keyId, region: region,
                                               receivedAt: receivedAt))
    }

    /// Appends several events for `appId` in one transaction, in the order given, each decided
    /// exactly as by `append(appId:request:credential:receivedAt:)` (so a later event of the list
    /// meets the earlier ones as stored). Answers each event in order: its answer, or the error
    /// `append` would have thrown for it alone (`StoreError.eventIdConflict`). Throws when the
    /// transaction as a whole failed, in which case nothing was appended.
    public func append(
        appId: String, contentsOf requests: [CheckedConsentEvent], credential: CredentialKind, keyId: String? = nil,
        region: String = "unknown", receivedAt: Date = Date()
    ) async throws -> [Result<AppendAnswer, any Error>] {
        try await committer.submit(contentsOf: requests.map {
            try pending(appId: appId, request: $0, credential: credential, keyId: keyId, region: region, receivedAt: receivedAt)
        })
    }

    /// An event made ready for the committer: the subject hashed (or made), the content serialized
    /// and fingerprinted, its analytics tallied. Done here, on the caller's task, so the single
    /// writer only assembles text.
    private func pending(
        appId: String, request: CheckedConsentEvent, credential: CredentialKind, keyId: String?, region: String, receivedAt: Date
    ) throws -> PendingAppend {
        let givenSubject = request.subjectId
        let subjectId = givenSubject ?? Self.newSubjectId()
        let subjectHash = secret.subjectHash(appId: appId, subjectId: subjectId)
        let consentJSON = request.consent.canonicalJSON
        let information = try request.subject.map { try SealedSubjectInformation($0, appId: appId, eventId: request.eventId, secret: secret) }
        // The subject information enters by its keyed hash (its sealed box differs on every try).
        let informationPart = information.map { "|" + $0.hash } ?? ""
        let fingerprint = SHA256.hash(data: Data(
            "\(request.eventId)|\(givenSubject == nil ? "" : subjectHash)|\(request.collectedAtMilliseconds)|\(consentJSON)\(informationPart)".utf8)).hexString
        let gpp = request.consent.gppString.flatMap(GPPEventValues.init(gppString:))
        var tally = AnalyticsTally()
        tally.add(request.consent, region: region, collectedAt: request.collectedAtMilliseconds, gpp: gpp)
        return PendingAppend(
            appId: appId, eventId: request.eventId, subjectId: subjectId,
            subjectWasGenerated: givenSubject == nil, subjectHash: subjectHash,
            collectedAt: request.collectedAtMilliseconds, receivedAt: ISO8601.milliseconds(of: receivedAt),
            credential: credential, keyId: keyId, kind: request.consent.recordKind.rawValue, consentJSON: consentJSON,
            fingerprint: fingerprint, subjectInformation: information, gpp: gpp, analyticsRegion: region, tally: tally)
    }

    /// The subject's current state, nil when the subject has none: its TCF decision's, with the
    /// newest record of each other kind in `otherKinds`. A withdrawal event (`proof.method`
    /// `withdrawal` or `underAge`, no consent) as a kind's current state means the subject has no
    /// decision of that kind (docs/decisions/0008).
    public func current(appId: String, subjectId: String) async throws -> SubjectState? {
        try await currentJSON(appId: appId, subjectId: subjectId).map {
            try JSONDecoder().decode(SubjectState.self, from: Data($0.utf8))
        }
    }

    /// The subject's current state as the API answers it (a `SubjectState` in JSON), read
    /// without decoding the stored consent.
    public func currentJSON(appId: String, subjectId: String) async throws -> String? {
        let hash = secret.subjectHash(appId: appId, subjectId: subjectId)
        if let client = database.postgres {
            // The hottest read: prepared once per connection.
            var rows: [CurrentRow] = []
            for try await row in try await client.execute(CurrentStateQuery(subjectHash: hash)) {
                rows.append(CurrentRow(row))
            }
            return Self.subjectStateJSON(subjectId: subjectId, rows)
        }
        return try await database.read { db in
            try await Self.currentStateJSON(db, subjectHash: hash, subjectId: subjectId)
        }
    }

    /// A page of the subject's history, oldest first, after `cursor`.
    public func events(appId: String, subjectId: String, limit: Int, cursor: String?) async throws -> EventPage {
        let hash = secret.subjectHash(appId: appId, subjectId: subjectId)
        let after: Int64
        if let cursor {
            guard cursor.utf8.count <= 19, cursor.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let value = Int64(cursor) else {
                throw StoreError.badCursor(cursor)
            }
            after = value
        } else {
            after = 0
        }
        let limit = max(1, min(limit, 500))
        let events = try await database.read { db in
            try await Self.storedEvents(db, subjectHash: hash, after: after, limit: limit + 1, secret: secret)
        }
        let page = Array(events.prefix(limit))
        let next = events.count > limit ? page.last.map { String($0.sequence) } : nil
        return EventPage(events: page, nextCursor: next)
    }

    /// Everything held about the subject, nil when nothing is.
    public func export(appId: String, subjectId: String, now: Date = Date()) async throws -> SubjectExport? {
        try await export(appId: appId, subjectHash: secret.subjectHash(appId: appId, subjectId: subjectId), named: subjectId, now: now)
    }

    /// Everything held about the subject whose stored id is `subjectHash` (a subject of `appId`:
    /// the caller checks that), nil when nothing is; `subjectId` names it in the export, as the
    /// caller named it (its id, or the hash when that is all the caller has).
    func export(appId: String, subjectHash hash: String, named subjectId: String, now: Date = Date()) async throws -> SubjectExport? {
        try await database.read { db in
            let current = try await Self.currentStateJSON(db, subjectHash: hash, subjectId: subjectId).map {
                try JSONDecoder().decode(SubjectState.self, from: Data($0.utf8))
            }
            let events = try await Self.storedEvents(db, subjectHash: hash, after: 0, limit: nil, secret: secret)
            if current == nil, events.isEmpty { return nil }
            return SubjectExport(subjectId: subjectId, appId: appId, exportedAt: ISO8601.format(now), current: current, events: events)
        }
    }

    /// Erases the subject's personal data: the current state goes, each event keeps only its
    /// sequence, event id, received time and hashes (so the chain still verifies). Returns a
    /// receipt, nil when nothing was held.
    public func erase(appId: String, subjectId: String, now: Date = Date()) async throws -> ErasureReceipt? {
        try await erase(appId: appId, subjectHash: secret.subjectHash(appId: appId, subjectId: subjectId), now: now)
    }

    /// Erases the subject whose stored id is `subjectHash`, a subject of `appId` (the caller
    /// checks that: the hash alone finds its rows), as `erase(appId:subjectId:now:)` does.
    func erase(appId: String, subjectHash hash: String, now: Date = Date()) async throws -> ErasureReceipt? {
        let erasedAt = ISO8601.milliseconds(of: now)
        let engine = database.engine
        return try await database.transaction { db in
            let count = try await db.raw("""
                SELECT COUNT(*) AS n FROM consent_events WHERE subject_hash = \(bind: hash)
                """).first()?.decode(column: "n", as: Int64.self) ?? 0
            let state = try await db.raw("""
                SELECT event_id FROM subjects WHERE subject_hash = \(bind: hash)
                """).first()
            if count == 0, state == nil { return nil }
            if engine == .postgresql {
                // The app's appends hold its chain head while they add to the rollups: taking it
                // first orders this erasure's rollup writes with theirs (no deadlock across nodes).
                try await db.raw("SELECT last_sequence FROM app_chains WHERE app_id = \(bind: appId) FOR UPDATE").run()
            }
            try await Self.subtractAnalytics(subjectHash: hash, appId: appId, in: db)
            try await db.raw("""
                UPDATE consent_events SET subject_hash = NULL, collected_at_ms = NULL, request_sha256 = NULL,
                    record = NULL, response = NULL, subject_information = NULL, gpp_section_id = NULL, gpp_sale_opt_out = NULL,
                    gpp_sharing_opt_out = NULL, gpp_targeted_advertising_opt_out = NULL, gpp_gpc = NULL, analytics_region = NULL
                WHERE subject_hash = \(bind: hash)
                """).run()
            try await db.raw("DELETE FROM subjects WHERE subject_hash = \(bind: hash)").run()
            let receipt = ErasureReceipt(
                receiptId: "era_" + UUID().uuidString.lowercased(), appId: appId,
                erasedAt: ISO8601.format(milliseconds: erasedAt), eventsErased: count)
            try await db.raw("""
                INSERT INTO erasure_receipts (receipt_id, app_id, erased_at_ms, events_erased)
                VALUES (\(bind: receipt.receiptId), \(bind: appId), \(bind: erasedAt), \(bind: count))
                """).run()
            try await db.raw("""
                INSERT INTO erased_subjects (subject_hash, app_id, erased_at_ms, restarted_at_ms)
                VALUES (\(bind: hash), \(bind: appId), \(bind: erasedAt), NULL)
                ON CONFLICT (subject_hash) DO UPDATE SET erased_at_ms = excluded.erased_at_ms, restarted_at_ms = NULL
                """).run()
            return receipt
        }
    }

    /// Takes the subject's events out of the analytics rollups (their records, read back before
    /// the erasure clears them), so that no figure holds an erased subject's choices. Events
    /// stored before the rollups existed (no `analytics_region`) were never counted. Rows left at
    /// zero go, so a figure does not even show that an erased subject's bucket existed.
    private static func subtractAnalytics(subjectHash: String, appId: String, in db: any SQLDatabase) async throws {
        var tally = AnalyticsTally()
        for row in try await db.raw("""
            SELECT record, analytics_region FROM consent_events
            WHERE subject_hash = \(bind: subjectHash) AND analytics_region IS NOT NULL AND record IS NOT NULL
            """).all() {
            let record = try JSONDecoder().decode(EventRecord.self, from: Data(row.decode(column: "record", as: String.self).utf8))
            tally.add(record.consent, region: try row.decode(column: "analytics_region", as: String.self), collectedAt: record.collectedAt,
                      gpp: record.consent.gppString.flatMap(GPPEventValues.init(gppString:)), sign: -1)
        }
        guard !tally.isEmpty else { return }
        for statement in tally.upserts(appId: appId) { try await db.raw(statement).run() }
        try await db.raw("DELETE FROM analytics_choices WHERE app_id = \(bind: appId) AND events = 0").run()
        try await db.raw("DELETE FROM analytics_counts WHERE app_id = \(bind: appId) AND events = 0").run()
    }

    /// The subject's last erasure, nil when it was never erased.
    public func erasure(appId: String, subjectId: String) async throws -> ErasedSubject? {
        try await erasures(appId: appId, subjectIds: [subjectId])[subjectId]
    }

    /// The last erasure of each of `subjectIds` that was ever erased, by subject id, in one query.
    public func erasures(appId: String, subjectIds: some Collection<String>) async throws -> [String: ErasedSubject] {
        let byHash = Dictionary(subjectIds.map { (secret.subjectHash(appId: appId, subjectId: $0), $0) }, uniquingKeysWith: { first, _ in first })
        return try await erasures(appId: appId, subjectHashes: Array(byHash.keys)).reduce(into: [:]) { found, entry in
            if let subjectId = byHash[entry.key] { found[subjectId] = entry.value }
        }
    }

    /// The last erasure of each of `subjectHashes` (stored subject ids, as a subject token names
    /// its subject) that was ever erased, by hash, in one query.
    public func erasures(appId: String, subjectHashes: [String]) async throws -> [String: ErasedSubject] {
        guard !subjectHashes.isEmpty else { return [:] }
        return try await database.read { db in
            var found: [String: ErasedSubject] = [:]
            for row in try await db.raw("""
                SELECT subject_hash, erased_at_ms, restarted_at_ms FROM erased_subjects
                WHERE subject_hash IN (\(binds: subjectHashes)) AND app_id = \(bind: appId)
                """).all() {
                found[try row.decode(column: "subject_hash", as: String.self)] = try ErasedSubject(
                    erasedAt: row.decode(column: "erased_at_ms", as: Int64.self), restartedAt: row.decode(column: "restarted_at_ms", as: Int64?.self))
            }
            return found
        }
    }

    /// What a subject stored since `since`: its events and the characters of their stored records.
    public func usage(appId: String, subjectHash: String, since: Date) async throws -> (events: Int, bytes: Int) {
        let after = ISO8601.milliseconds(of: since)
        return try await database.read { db in
            guard let row = try await db.raw("""
                SELECT COUNT(*) AS n, COALESCE(SUM(LENGTH(record)), 0) AS b FROM consent_events
                WHERE subject_hash = \(bind: subjectHash) AND received_at_ms > \(bind: after)
                """).first() else { return (0, 0) }
            return (Int(try row.decode(column: "n", as: Int64.self)), Int(try row.decode(column: "b", as: Int64.self)))
        }
    }

    /// Lets an erased subject be written again, by the secret key and by tokens minted from now
    /// on; returns the erasure restarted, nil when the subject was not erased.
    public func restart(appId: String, subjectId: String, now: Date = Date()) async throws -> ErasedSubject? {
        try await restart(appId: appId, subjectHash: secret.subjectHash(appId: appId, subjectId: subjectId), now: now)
    }

    /// Lets the erased subject whose stored id is `subjectHash` be written again, as
    /// `restart(appId:subjectId:now:)` does.
    func restart(appId: String, subjectHash hash: String, now: Date = Date()) async throws -> ErasedSubject? {
        let restartedAt = ISO8601.milliseconds(of: now)
        return try await database.transaction { db in
            guard let row = try await db.raw("""
                SELECT erased_at_ms FROM erased_subjects WHERE subject_hash = \(bind: hash) AND app_id = \(bind: appId)
                """).first() else { return nil }
            try await db.raw("""
                UPDATE erased_subjects SET restarted_at_ms = \(bind: restartedAt) WHERE subject_hash = \(bind: hash)
                """).run()
            return ErasedSubject(erasedAt: try row.decode(column: "erased_at_ms", as: Int64.self), restartedAt: restartedAt)
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
        let keyId: String?
        /// The record's kind (`ConsentRecord.Kind`'s raw value): which current state it competes for.
        var kind: String = ConsentRecord.Kind.tcf.rawValue
        let consentJSON: String
        let fingerprint: String
        /// The event's subject information, sealed; nil when it came without.
        var subjectInformation: SealedSubjectInformation? = nil
        /// The values of its GPP string kept in columns for queries; nil without one.
        var gpp: GPPEventValues? = nil
        /// The region it was sent from, as the analytics count it.
        var analyticsRegion: String = "unknown"
        /// What it adds to the analytics rollups once appended.
        var tally = AnalyticsTally()
    }

    /// What is hashed and stored for an event: everything but the subject's clear id.
    /// Written by `recordJSON`, read back with `JSONDecoder`.
    struct EventRecord: Codable {
        var eventId: String
        var subjectHash: String
        var collectedAt: Int64
        var receivedAt: Int64
        var credential: CredentialKind
        var consent: ConsentRecord
        /// The keyed hash of the event's subject information (see `SealedSubjectInformation`).
        var subjectInformationHash: String?
    }

    /// The first answer, as stored for retries. The subject id is kept only when the server made it.
    /// Written by `answerJSON`, read back with `JSONDecoder`.
    struct StoredAnswer: Codable {
        var outcome: AppendOutcome
        var generatedSubjectId: String?
        /// With `generatedSubjectId`: the key the creating event came with (absent from answers
        /// written before it was kept, which then never give a retry a token).
        var creatingKeyId: String?
        /// The winning event's id and times.
        var eventId: String
        var collectedAt: Int64
        var receivedAt: Int64
        /// The winning event's content: absent from answers written since it is read from the
        /// winner's own record (a TC string of up to 16 KB is stored once, not in every answer);
        /// present in answers written before.
        var consent: ConsentRecord?
    }

    /// A kind's current state of a subject, as the `subjects` table keeps it.
    struct CurrentRow {
        /// The record kind (`tcf` for rows stored before the kinds).
        var kind: String = ConsentRecord.Kind.tcf.rawValue
        var eventId: String
        var sequence: Int64
        var collectedAt: Int64
        var receivedAt: Int64
        var consentJSON: String
    }

    private static func newSubjectId() -> String {
        "sub_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
    }

    /// Appends a batch in one transaction: per app (in a fixed order, so that nodes sharing a
    /// PostgreSQL database cannot deadlock), lock the chain head, look up retries and current
    /// states, decide each event in order, answer the retries, then write all rows.
    private static func commit(_ batch: [PendingAppend], in db: any SQLDatabase, engine: DatabaseEngine) async throws -> [Result<AppendAnswer, any Error>] {
        var answered: [(index: Int, result: Result<AppendAnswer, any Error>)] = []
        for (appId, indices) in Dictionary(grouping: batch.indices, by: { batch[$0].appId }).sorted(by: { $0.key < $1.key }) {
            let events = indices.map { batch[$0] }
            let head = try await lockHead(appId: appId, in: db, engine: engine)
            let plan = decide(events, head: head, found: try await lookUp(events, appId: appId, in: db))
            for (index, decision) in zip(indices, plan.decisions) {
                switch decision {
                case .appended(let answer):
                    answered.append((index, .success(answer)))
                case .retry(let fingerprint, let answer):
                    answered.append((index, await replay(batch[index], fingerprint: fingerprint, answer: answer, appId: appId,
                                                         appended: plan.appended, in: db)))
                }
            }
            try await write(plan, appId: appId, in: db, engine: engine)
        }
        // Each index belongs to exactly one app: one answer per event, put back in the batch's order.
        return answered.sorted { $0.index < $1.index }.map(\.result)
    }

    /// An app's chain head: its last sequence number and chain hash.
    struct ChainHead {
        var sequence: Int64
        var hash: String
    }

    /// Reads the app's chain head, locked (PostgreSQL: `FOR UPDATE`; SQLite's one writer needs
    /// no lock) so that this app's appends are ordered across nodes. The row is made once, by the
    /// first append of an app.
    static func lockHead(appId: String, in db: any SQLDatabase, engine: DatabaseEngine) async throws -> ChainHead {
        let lock: SQLQueryString = engine == .postgresql ? " FOR UPDATE" : ""
        let selectHead: SQLQueryString = "SELECT last_sequence, last_hash FROM app_chains WHERE app_id = \(bind: appId)" + lock
        var head = try await db.raw(selectHead).first()
        if head == nil {
            try await db.raw("""
                INSERT INTO app_chains (app_id, last_sequence, last_hash) VALUES (\(bind: appId), 0, \(bind: HashChain.genesis))
                ON CONFLICT (app_id) DO NOTHING
                """).run()
            head = try await db.raw(selectHead).first()
        }
        guard let head else { throw StoreError.chainHeadMissing(appId) }
        return ChainHead(sequence: try head.decode(column: "last_sequence", as: Int64.self),
                         hash: try head.decode(column: "last_hash", as: String.self))
    }

    /// What is stored already for a batch's events: the events among them that are retries
    /// (their fingerprint and first answer; both nil once their subject was erased), and the
    /// current states of their subjects, by subject hash, then kind.
    struct Found {
        var retries: [String: (fingerprint: String?, answer: String?)] = [:]
        var currents: [String: [String: CurrentRow]] = [:]
    }

    /// Looks up the events' retries and their subjects' current states, in one round trip.
    private static func lookUp(_ events: [PendingAppend], appId: String, in db: any SQLDatabase) async throws -> Found {
        let eventIds = Array(Set(events.map(\.eventId)))
        let subjectHashes = Array(Set(events.map(\.subjectHash)))
        var found = Found()
        for row in try await db.raw("""
            SELECT 'event' AS kind, app_id, event_id AS key, request_sha256 AS a, response AS b,
                CAST(NULL AS BIGINT) AS sequence, CAST(NULL AS BIGINT) AS collected, CAST(NULL AS BIGINT) AS received,
                CAST(NULL AS TEXT) AS record_kind
            FROM consent_events WHERE event_id IN (\(binds: eventIds))
            UNION ALL
            SELECT 'subject', app_id, subject_hash, event_id, consent, event_sequence, collected_at_ms, received_at_ms, kind
            FROM subjects WHERE subject_hash IN (\(binds: subjectHashes))
            """).all() {
            // Event ids are unique per app; another app's event with the same id is not a retry.
            guard try row.decode(column: "app_id", as: String.self) == appId else { continue }
            let key = try row.decode(column: "key", as: String.self)
            if try row.decode(column: "kind", as: String.self) == "event" {
                found.retries[key] = (try row.decode(column: "a", as: String?.self), try row.decode(column: "b", as: String?.self))
            } else {
                let kind = try row.decode(column: "record_kind", as: String.self)
                found.currents[key, default: [:]][kind] = try CurrentRow(
                    kind: kind, eventId: row.decode(column: "a", as: String.self), sequence: row.decode(column: "sequence", as: Int64.self),
                    collectedAt: row.decode(column: "collected", as: Int64.self), receivedAt: row.decode(column: "received", as: Int64.self),
                    consentJSON: row.decode(column: "b", as: String.self))
            }
        }
        return found
    }

    /// What becomes of one event of a batch.
    enum Decision {
        /// Appended, with the answer it gets.
        case appended(AppendAnswer)
        /// A retry of an event stored before (or earlier in the batch): answered by ``replay``.
        case retry(fingerprint: String?, answer: String?)
    }

    /// An event row to insert, with its place in the chain.
    struct EventRow {
        var event: PendingAppend
        var sequence: Int64
        var outcome: AppendOutcome
        var record: String
        var answer: String
        var recordHash: String
        var chainHash: String
    }

    /// What one app's part of a batch does: each event's decision (in the batch's order), the rows
    /// to insert, the subjects' kinds whose current state changes (in the order they first
    /// changed), the chain head after it, and the content of the events appended (for retries
    /// within it).
    struct AppendPlan {
        var decisions: [Decision] = []
        var rows: [EventRow] = []
        var subjects: [(subjectHash: String, row: CurrentRow)] = []
        var head: ChainHead
        var appended: [String: String] = [:]
    }

    /// Decides each event in order, without the database: a retry is answered from what was
    /// stored, another event is appended (next in the chain) and becomes its subject's current
    /// state of its kind unless that state is later (last writer wins, by collection time then
    /// event id); the answer's state holds every kind's.
    static func decide(_ events: [PendingAppend], head: ChainHead, found: Found) -> AppendPlan {
        var plan = AppendPlan(head: head)
        var retries = found.retries
        var currents = found.currents
        var changed: [String: Int] = [:]
        for event in events {
            if let retry = retries[event.eventId] {
                plan.decisions.append(.retry(fingerprint: retry.fingerprint, answer: retry.answer))
                continue
            }
            plan.appended[event.eventId] = event.consentJSON
            plan.head.sequence += 1
            let outcome: AppendOutcome
            let winner: CurrentRow
            if let current = currents[event.subjectHash]?[event.kind],
               (current.collectedAt, current.eventId) > (event.collectedAt, event.eventId) {
                outcome = .history
                winner = current
            } else {
                outcome = .current
                winner = CurrentRow(kind: event.kind, eventId: event.eventId, sequence: plan.head.sequence, collectedAt: event.collectedAt,
                                    receivedAt: event.receivedAt, consentJSON: event.consentJSON)
                currents[event.subjectHash, default: [:]][event.kind] = winner
                let place = event.subjectHash + "|" + event.kind
                if let position = changed[place] {
                    plan.subjects[position].row = winner
                } else {
                    changed[place] = plan.subjects.count
                    plan.subjects.append((event.subjectHash, winner))
                }
            }
            let kinds = Array(currents[event.subjectHash, default: [:]].values)
            let record = recordJSON(event)
            let recordHash = HashChain.recordHash(record)
            plan.head.hash = HashChain.link(previous: plan.head.hash, sequence: plan.head.sequence, recordHash: recordHash)
            let answer = answerJSON(outcome: outcome, generatedSubjectId: event.subjectWasGenerated ? event.subjectId : nil,
                                    creatingKeyId: event.keyId, winner: winner)
            retries[event.eventId] = (event.fingerprint, answer)
            plan.rows.append(EventRow(event: event, sequence: plan.head.sequence, outcome: outcome, record: record, answer: answer,
                                      recordHash: recordHash, chainHash: plan.head.hash))
            plan.decisions.append(.appended(AppendAnswer(
                json: responseJSON(eventId: event.eventId, subjectId: event.subjectId, outcome: outcome, kinds: kinds), created: true,
                creation: event.subjectWasGenerated ? AppendAnswer.Creation(keyId: event.keyId, firstAnsweredAt: event.receivedAt) : nil)))
        }
        return plan
    }

    /// Writes an app's plan: the event rows, the changed subjects' current states and the new
    /// chain head; nothing when every event was a retry.
    private static func write(_ plan: AppendPlan, appId: String, in db: any SQLDatabase, engine: DatabaseEngine) async throws {
        guard !plan.rows.isEmpty else { return }
        let inserts: [SQLQueryString] = plan.rows.map { row in
            let event = row.event
            return """
                (\(bind: appId), \(bind: row.sequence), \(bind: event.eventId), \(bind: event.subjectHash), \(bind: event.collectedAt), \
                \(bind: event.receivedAt), \(bind: event.credential.rawValue), \(bind: row.outcome.rawValue), \(bind: event.fingerprint), \
                \(bind: row.record), \(bind: row.answer), \(bind: row.recordHash), \(bind: row.chainHash), \
                \(bind: event.subjectInformation?.sealed), \(bind: event.gpp?.sectionId), \(bind: GPPEventValues.column(event.gpp?.saleOptOut)), \
                \(bind: GPPEventValues.column(event.gpp?.sharingOptOut)), \(bind: GPPEventValues.column(event.gpp?.targetedAdvertisingOptOut)), \
                \(bind: GPPEventValues.column(event.gpp?.gpc)), \(bind: event.analyticsRegion))
                """
        }
        let upserts: [SQLQueryString] = plan.subjects.map { subjectHash, row in
            """
            (\(bind: appId), \(bind: subjectHash), \(bind: row.kind), \(bind: row.eventId), \(bind: row.sequence), \(bind: row.collectedAt), \
            \(bind: row.receivedAt), \(bind: row.consentJSON))
            """
        }
        // Rows go in chunks that stay under SQLite's bind limit (a batch is at most 256 events).
        var writes: [SQLQueryString] = inserts.chunks(of: 200).map { chunk in
            """
            INSERT INTO consent_events (app_id, sequence, event_id, subject_hash, collected_at_ms, received_at_ms, credential,
                outcome, request_sha256, record, response, record_hash, chain_hash, subject_information,
                gpp_section_id, gpp_sale_opt_out, gpp_sharing_opt_out, gpp_targeted_advertising_opt_out, gpp_gpc, analytics_region) VALUES
            """ + chunk.joined(separator: ", ")
        }
        for chunk in upserts.chunks(of: 200) {
            // The WHERE clause repeats last-writer-wins in SQL (per kind), so the table can never move backwards.
            writes.append("""
                INSERT INTO subjects (app_id, subject_hash, kind, event_id, event_sequence, collected_at_ms, received_at_ms, consent) VALUES
                """ + chunk.joined(separator: ", ") + """
                 ON CONFLICT (subject_hash, kind) DO UPDATE SET event_id = excluded.event_id,
                    event_sequence = excluded.event_sequence, collected_at_ms = excluded.collected_at_ms,
                    received_at_ms = excluded.received_at_ms, consent = excluded.consent
                WHERE excluded.collected_at_ms > subjects.collected_at_ms
                   OR (excluded.collected_at_ms = subjects.collected_at_ms AND excluded.event_id > subjects.event_id)
                """)
        }
        let moveHead: SQLQueryString = """
            UPDATE app_chains SET last_sequence = \(bind: plan.head.sequence), last_hash = \(bind: plan.head.hash) WHERE app_id = \(bind: appId)
            """
        switch engine {
        case .sqlite:
            // In-process: a statement costs no round trip.
            for write in writes + [moveHead] { try await db.raw(write).run() }
        case .postgresql:
            // One round trip: the writes touch different tables, so they can run as one
            // statement's data-modifying WITH clauses.
            let clauses = writes.enumerated().map { index, write -> SQLQueryString in
                "write\(unsafeRaw: String(index)) AS (" + write + ")"
            }
            try await db.raw((clauses.isEmpty ? "" : "WITH " + clauses.joined(separator: ", ") + " ") + moveHead).run()
        }
        // The analytics rollups, in the same transaction: the appended events' tallies summed, so
        // each rollup row is written once. Statements of their own (not WITH clauses on
        // PostgreSQL): a batch's vendor counts could pass the bind limit of one statement.
        var tally = AnalyticsTally()
        for row in plan.rows { tally.add(row.event.tally) }
        for statement in tally.upserts(appId: appId) { try await db.raw(statement).run() }
    }

    /// The answer to a retry: the first answer when the content matches, a conflict otherwise.
    /// The winner's content comes from `appended` (this batch) or the winner's stored record.
    private static func replay(
        _ event: PendingAppend, fingerprint: String?, answer: String?, appId: String, appended: [String: String], in db: any SQLDatabase
    ) async -> Result<AppendAnswer, any Error> {
        guard let fingerprint, let answer else {
            return .failure(StoreError.eventIdConflict(event.eventId, erased: true))
        }
        guard fingerprint == event.fingerprint else {
            return .failure(StoreError.eventIdConflict(event.eventId, erased: false))
        }
        do {
            let stored = try JSONDecoder().decode(StoredAnswer.self, from: Data(answer.utf8))
            let consentJSON: String
            if let consent = stored.consent {
                consentJSON = consent.canonicalJSON
            } else if let batched = appended[stored.eventId] {
                consentJSON = batched
            } else {
                guard let record = try await db.raw("""
                    SELECT record FROM consent_events WHERE app_id = \(bind: appId) AND event_id = \(bind: stored.eventId)
                    """).first()?.decode(column: "record", as: String?.self) else {
                    return .failure(StoreError.eventIdConflict(event.eventId, erased: true))
                }
                consentJSON = try JSONDecoder().decode(EventRecord.self, from: Data(record.utf8)).consent.canonicalJSON
            }
            // The first answer's winner of the event's kind (not the other kinds' states as they
            // were then: the first answer stored only its own).
            let winner = CurrentRow(kind: event.kind, eventId: stored.eventId, sequence: 0, collectedAt: stored.collectedAt,
                                    receivedAt: stored.receivedAt, consentJSON: consentJSON)
            return .success(AppendAnswer(
                json: responseJSON(eventId: event.eventId, subjectId: stored.generatedSubjectId ?? event.subjectId,
                                   outcome: stored.outcome, kinds: [winner]),
                created: false,
                creation: stored.generatedSubjectId == nil ? nil : AppendAnswer.Creation(keyId: stored.creatingKeyId, firstAnsweredAt: stored.receivedAt)))
        } catch {
            return .failure(error)
        }
    }

    /// The stored record of an event (an `EventRecord` in JSON): what its record hash covers.
    private static func recordJSON(_ event: PendingAppend) -> String {
        var json = JSONWriter(capacity: 512, escaping: .standard)
        json.beginObject()
        json.key("collectedAt"); json.integer(event.collectedAt)
        json.key("consent"); json.raw(event.consentJSON)
        json.key("credential"); json.string(event.credential.rawValue)
        json.key("eventId"); json.string(event.eventId)
        json.key("receivedAt"); json.integer(event.receivedAt)
        json.key("subjectHash"); json.string(event.subjectHash)
        if let information = event.subjectInformation { json.key("subjectInformationHash"); json.string(information.hash) }
        json.endObject()
        return json.text
    }

    /// The first answer as stored for retries (a `StoredAnswer` in JSON).
    private static func answerJSON(outcome: AppendOutcome, generatedSubjectId: String?, creatingKeyId: String?, winner: CurrentRow) -> String {
        var json = JSONWriter(capacity: 512, escaping: .standard)
        json.beginObject()
        json.key("collectedAt"); json.integer(winner.collectedAt)
        if generatedSubjectId != nil, let creatingKeyId { json.key("creatingKeyId"); json.string(creatingKeyId) }
        json.key("eventId"); json.string(winner.eventId)
        if let generatedSubjectId { json.key("generatedSubjectId"); json.string(generatedSubjectId) }
        json.key("outcome"); json.string(outcome.rawValue)
        json.key("receivedAt"); json.integer(winner.receivedAt)
        json.endObject()
        return json.text
    }

    /// The answer the client gets (an `AppendResult` in JSON); `kinds` are the subject's current
    /// rows, one per kind, the event's kind's among them.
    private static func responseJSON(eventId: String, subjectId: String, outcome: AppendOutcome, kinds: [CurrentRow]) -> String {
        var json = JSONWriter(capacity: 512, escaping: .standard)
        json.beginObject()
        json.key("current")
        SubjectState.write(subjectId: subjectId, rows: kinds, to: &json)
        json.key("eventId"); json.string(eventId)
        json.key("outcome"); json.string(outcome.rawValue)
        json.key("subjectId"); json.string(subjectId)
        json.endObject()
        return json.text
    }

    // MARK: - Reading

    static func currentStateJSON(_ db: any SQLDatabase, subjectHash: String, subjectId: String) async throws -> String? {
        let rows = try await db.raw("""
            SELECT event_id, collected_at_ms, received_at_ms, consent, kind FROM subjects WHERE subject_hash = \(bind: subjectHash)
            """).all().map { row in
            try CurrentRow((
                row.decode(column: "event_id", as: String.self), row.decode(column: "collected_at_ms", as: Int64.self),
                row.decode(column: "received_at_ms", as: Int64.self), row.decode(column: "consent", as: String.self),
                row.decode(column: "kind", as: String.self)))
        }
        return subjectStateJSON(subjectId: subjectId, rows)
    }

    /// The same read as `currentStateJSON`, as a PostgreSQL prepared statement.
    struct CurrentStateQuery: PostgresPreparedStatement {
        static let sql = "SELECT event_id, collected_at_ms, received_at_ms, consent, kind FROM subjects WHERE subject_hash = $1"
        typealias Row = CurrentStateRow
        var subjectHash: String

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 1)
            bindings.append(subjectHash)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> Row {
            try row.decode(Row.self)
        }
    }

    /// A subject's stored state of one kind: event id, collected and received times (ms), consent JSON, kind.
    typealias CurrentStateRow = (String, Int64, Int64, String, String)

    /// The state of a subject with `rows` (one per kind); nil for none.
    private static func subjectStateJSON(subjectId: String, _ rows: [CurrentRow]) -> String? {
        guard !rows.isEmpty else { return nil }
        var json = JSONWriter(capacity: 512, escaping: .standard)
        SubjectState.write(subjectId: subjectId, rows: rows, to: &json)
        return json.text
    }

    static func storedEvents(
        _ db: any SQLDatabase, subjectHash: String, after: Int64, limit: Int?, secret: ServerSecret
    ) async throws -> [StoredEvent] {
        let limitClause: SQLQueryString = limit.map { " LIMIT \(literal: $0)" } ?? ""
        return try await db.raw("""
            SELECT app_id, sequence, outcome, record, subject_information FROM consent_events
            WHERE subject_hash = \(bind: subjectHash) AND sequence > \(bind: after)
            ORDER BY sequence
            """ + limitClause).all().map { row in
            let record = try JSONDecoder().decode(EventRecord.self, from: Data(row.decode(column: "record", as: String.self).utf8))
            let subject = try row.decode(column: "subject_information", as: String?.self).map {
                try SealedSubjectInformation.open($0, appId: row.decode(column: "app_id", as: String.self), eventId: record.eventId, secret: secret)
            }
            return try StoredEvent(
                eventId: record.eventId, sequence: row.decode(column: "sequence", as: Int64.self),
                collectedAt: ISO8601.format(milliseconds: record.collectedAt),
                receivedAt: ISO8601.format(milliseconds: record.receivedAt),
                outcome: AppendOutcome(rawValue: row.decode(column: "outcome", as: String.self)) ?? .history,
                credential: record.credential, subject: subject, consent: record.consent)
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
    /// An event's subject information does not decrypt (another server secret, or a damaged row).
    case subjectInformationUnreadable(String)

    /// A sentence saying what happened.
    public var description: String {
        switch self {
        case .eventIdConflict(let id, let erased):
            erased
                ? "event \(id) was appended before and its subject has since been erased; use a new event id"
                : "event \(id) was appended before with different content; a retry must send the same body, a new event needs a new id"
        case .badCursor(let cursor): "cursor \(cursor) is not one this server handed out"
        case .chainHeadMissing(let app): "the hash chain head of app \(app) is missing"
        case .subjectInformationUnreadable(let id): "the subject information of event \(id) does not decrypt with this server's secret"
        }
    }
}

extension ConsentStore.CurrentRow {
    /// A row as the current-state reads select it (its sequence is not read).
    init(_ row: ConsentStore.CurrentStateRow) {
        self.init(kind: row.4, eventId: row.0, sequence: 0, collectedAt: row.1, receivedAt: row.2, consentJSON: row.3)
    }
}
