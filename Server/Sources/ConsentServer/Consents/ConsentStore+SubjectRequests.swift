import ConsentKitFormats
import ConsentdAPI
import Foundation
import SQLKit

/// What the console shows of a subject it looked up (decision 0042): its current state, how many
/// events it has, and its last erasure. Found by the subject's stored id, the keyed hash.
public struct SubjectSummary: Encodable, Sendable, Equatable {
    /// The app the subject belongs to.
    public var appId: String
    /// The subject's stored id: HMAC-SHA256 of the app and subject ids under the server secret.
    public var subjectHash: String
    /// The subject's id when the lookup gave it; nil for a lookup by hash.
    public var subjectId: String?
    /// The current state, nil when none (never any, or erased).
    public var current: SubjectState?
    /// How many events of the subject hold its data (an erased subject's are 0).
    public var events: Int64
    /// When the first and the last of those events were received; nil without events.
    public var firstReceivedAt: String?
    /// When the last of those events was received.
    public var lastReceivedAt: String?
    /// The subject's last erasure, nil when it was never erased.
    public var erasure: Erasure?

    /// An erasure, and whether the subject was started anew since.
    public struct Erasure: Encodable, Sendable, Equatable {
        /// When it was erased.
        public var erasedAt: String
        /// When it was started anew; nil while it stays erased.
        public var restartedAt: String?

        private enum CodingKeys: String, CodingKey { case erasedAt, restartedAt }

        /// Writes `restartedAt` as null rather than leaving it out.
        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(erasedAt, forKey: .erasedAt)
            try c.encode(restartedAt, forKey: .restartedAt)
        }
    }

    private enum CodingKeys: String, CodingKey {
        case appId, subjectHash, subjectId, current, events, firstReceivedAt, lastReceivedAt, erasure
    }

    /// Writes every absent field as null rather than leaving it out.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(appId, forKey: .appId)
        try c.encode(subjectHash, forKey: .subjectHash)
        try c.encode(subjectId, forKey: .subjectId)
        try c.encode(current, forKey: .current)
        try c.encode(events, forKey: .events)
        try c.encode(firstReceivedAt, forKey: .firstReceivedAt)
        try c.encode(lastReceivedAt, forKey: .lastReceivedAt)
        try c.encode(erasure, forKey: .erasure)
    }
}

/// One event of a subject's history with its proof: the event as the history and the export show
/// it, and its link in the app's hash chain, checked.
public struct ProvenEvent: Encodable, Sendable, Equatable {
    /// The event.
    public var event: StoredEvent
    /// Its link in the hash chain.
    public var chain: ChainLink

    /// An event's place in its app's hash chain: the exact stored record, its SHA-256, the
    /// previous event's chain hash and its own, and whether each holds.
    public struct ChainLink: Encodable, Sendable, Equatable {
        /// The event's position in the app's chain.
        public var sequence: Int64
        /// The stored record, exactly as hashed (it names the subject by its hash only).
        public var record: String
        /// SHA-256 of `record`, as stored when the event was appended.
        public var recordHash: String
        /// The chain hash of the event before (64 zeros for the app's first event).
        public var previousChainHash: String
        /// SHA-256 of `previousChainHash:sequence:recordHash`, as stored.
        public var chainHash: String
        /// Whether `record` hashes to `recordHash` now.
        public var recordHolds: Bool
        /// Whether `chainHash` follows from `previousChainHash`, `sequence` and `recordHash`.
        public var linkHolds: Bool
    }
}

/// A page of a subject's history with proofs, oldest first.
public struct ProvenEventPage: Encodable, Sendable, Equatable {
    /// The events of this page.
    public var events: [ProvenEvent]
    /// Pass as `cursor` for the next page; nil on the last page.
    public var nextCursor: String?

    private enum CodingKeys: String, CodingKey { case events, nextCursor }

    /// Writes `nextCursor` as null on the last page rather than leaving it out.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(events, forKey: .events)
        try c.encode(nextCursor, forKey: .nextCursor)
    }
}

extension ConsentStore {
    /// Whether the database knows `appId`: it has a hash chain (an event) or a key.
    public func knowsApp(_ appId: String) async throws -> Bool {
        try await database.read { db in
            if try await db.raw("SELECT app_id FROM app_chains WHERE app_id = \(bind: appId)").first() != nil { return true }
            return try await db.raw("SELECT key_id FROM api_keys WHERE app_id = \(bind: appId) LIMIT 1").first() != nil
        }
    }

    /// The subject of `appId` whose stored id is `subjectHash`, nil when the app holds nothing of
    /// it and never erased it (a hash of another app's subject is not found: every read here
    /// names the app). `subjectId`, when the caller has it, names the subject in the answer.
    public func summary(appId: String, subjectHash: String, subjectId: String?) async throws -> SubjectSummary? {
        let named = subjectId ?? subjectHash
        let (current, counts) = try await database.read { db in
            let owned = try await db.raw("""
                SELECT app_id FROM subjects WHERE subject_hash = \(bind: subjectHash) AND app_id = \(bind: appId) LIMIT 1
                """).first() != nil
            var current: String? = nil
            if owned { current = try await Self.currentStateJSON(db, subjectHash: subjectHash, subjectId: named) }
            let row = try await db.raw("""
                SELECT COUNT(*) AS n, MIN(received_at_ms) AS first, MAX(received_at_ms) AS last FROM consent_events
                WHERE subject_hash = \(bind: subjectHash) AND app_id = \(bind: appId)
                """).first()
            let counts = try row.map {
                try ($0.decode(column: "n", as: Int64.self), $0.decode(column: "first", as: Int64?.self), $0.decode(column: "last", as: Int64?.self))
            } ?? (0, nil, nil)
            return (current, counts)
        }
        let erasure = try await erasures(appId: appId, subjectHashes: [subjectHash])[subjectHash]
        if current == nil, counts.0 == 0, erasure == nil { return nil }
        return SubjectSummary(
            appId: appId, subjectHash: subjectHash, subjectId: subjectId,
            current: try current.map { try JSONDecoder().decode(SubjectState.self, from: Data($0.utf8)) },
            events: counts.0, firstReceivedAt: counts.1.map { ISO8601.format(milliseconds: $0) },
            lastReceivedAt: counts.2.map { ISO8601.format(milliseconds: $0) },
            erasure: erasure.map { .init(erasedAt: ISO8601.format(milliseconds: $0.erasedAt),
                                         restartedAt: $0.restartedAt.map { ISO8601.format(milliseconds: $0) }) })
    }

    /// A page of the history of the subject of `appId` whose stored id is `subjectHash`, oldest
    /// first after `cursor`, each event with its chain link checked (its record against its
    /// record hash, its chain hash against the previous event's).
    public func provenEvents(appId: String, subjectHash: String, limit: Int, cursor: String?) async throws -> ProvenEventPage {
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
        let (events, links) = try await database.read { db in
            let events = try await Self.storedEvents(db, subjectHash: subjectHash, after: after, limit: limit + 1, secret: secret)
            var links: [Int64: ProvenEvent.ChainLink] = [:]
            for row in try await db.raw("""
                SELECT e.sequence, e.record, e.record_hash, e.chain_hash,
                    (SELECT p.chain_hash FROM consent_events p WHERE p.app_id = e.app_id AND p.sequence = e.sequence - 1) AS previous
                FROM consent_events e
                WHERE e.subject_hash = \(bind: subjectHash) AND e.app_id = \(bind: appId) AND e.sequence > \(bind: after)
                ORDER BY e.sequence LIMIT \(literal: limit + 1)
                """).all() {
                let sequence = try row.decode(column: "sequence", as: Int64.self)
                let record = try row.decode(column: "record", as: String.self)
                let recordHash = try row.decode(column: "record_hash", as: String.self)
                let chainHash = try row.decode(column: "chain_hash", as: String.self)
                let previous = try row.decode(column: "previous", as: String?.self) ?? (sequence == 1 ? HashChain.genesis : "")
                links[sequence] = ProvenEvent.ChainLink(
                    sequence: sequence, record: record, recordHash: recordHash, previousChainHash: previous, chainHash: chainHash,
                    recordHolds: HashChain.recordHash(record) == recordHash,
                    linkHolds: HashChain.link(previous: previous, sequence: sequence, recordHash: recordHash) == chainHash)
            }
            return (events, links)
        }
        // Both reads name the subject by its hash; the second also by the app: an event the app
        // does not own has no link and is left out.
        let proven = events.compactMap { event in links[event.sequence].map { ProvenEvent(event: event, chain: $0) } }
        let page = Array(proven.prefix(limit))
        return ProvenEventPage(events: page, nextCursor: proven.count > limit ? page.last.map { String($0.event.sequence) } : nil)
    }
}
