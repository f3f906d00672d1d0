import Crypto
import Foundation
import SQLKit

/// The tamper-evidence of an app's events: each event's chain hash covers the previous event's
/// chain hash, its own sequence number and the hash of its stored record.
///
/// The chain is built over record hashes, not records, so erasing a subject's records (which
/// keeps their hashes) leaves every link verifiable.
public enum HashChain {
    /// The chain hash before the first event.
    static let genesis = String(repeating: "0", count: 64)

    /// SHA-256 of a stored record's exact text.
    static func recordHash(_ record: String) -> String {
        SHA256.hash(data: Data(record.utf8)).hexString
    }

    /// The chain hash of the event at `sequence`, given the previous chain hash.
    static func link(previous: String, sequence: Int64, recordHash: String) -> String {
        SHA256.hash(data: Data("\(previous):\(sequence):\(recordHash)".utf8)).hexString
    }

    /// Walks the app's chain from the first event and reports the first link that does not hold:
    /// a missing sequence number, a record whose hash differs from the one stored, a chain hash
    /// that does not follow from the previous one, or a chain head that does not match the last event.
    public static func verify(appId: String, in database: Database, pageSize: Int = 2000) async throws -> ChainVerification {
        var previous = genesis
        var expected: Int64 = 1
        var checked: Int64 = 0
        func broken(_ sequence: Int64, _ eventId: String?, _ reason: String) -> ChainVerification {
            ChainVerification(appId: appId, eventsChecked: checked, valid: false,
                              firstBrokenLink: .init(sequence: sequence, eventId: eventId, reason: reason))
        }
        while true {
            let after = expected - 1
            let rows = try await database.read { db in
                try await db.raw("""
                    SELECT sequence, event_id, record, record_hash, chain_hash FROM consent_events
                    WHERE app_id = \(bind: appId) AND sequence > \(bind: after) ORDER BY sequence LIMIT \(literal: pageSize)
                    """).all().map { row in
                    try ChainRow(
                        sequence: row.decode(column: "sequence", as: Int64.self),
                        eventId: row.decode(column: "event_id", as: String.self),
                        record: row.decode(column: "record", as: String?.self),
                        recordHash: row.decode(column: "record_hash", as: String.self),
                        chainHash: row.decode(column: "chain_hash", as: String.self))
                }
            }
            for row in rows {
                if row.sequence != expected {
                    return broken(expected, nil, "event \(expected) is missing: the next stored event is \(row.sequence)")
                }
                if let record = row.record, recordHash(record) != row.recordHash {
                    return broken(row.sequence, row.eventId, "the stored record does not match its record hash")
                }
                let link = link(previous: previous, sequence: row.sequence, recordHash: row.recordHash)
                if link != row.chainHash {
                    return broken(row.sequence, row.eventId, "the chain hash does not follow from the previous event's")
                }
                previous = link
                expected += 1
                checked += 1
            }
            if rows.count < pageSize { break }
        }
        let head = try await database.read { db in
            try await db.raw("SELECT last_sequence, last_hash FROM app_chains WHERE app_id = \(bind: appId)").first().map {
                try ($0.decode(column: "last_sequence", as: Int64.self), $0.decode(column: "last_hash", as: String.self))
            }
        }
        let lastSequence = expected - 1
        if let head, head.0 != lastSequence || head.1 != previous {
            return broken(head.0, nil, "the chain head (event \(head.0)) does not match the last stored event (\(lastSequence))")
        }
        return ChainVerification(appId: appId, eventsChecked: checked, valid: true, firstBrokenLink: nil)
    }

    private struct ChainRow {
        var sequence: Int64
        var eventId: String
        var record: String?
        var recordHash: String
        var chainHash: String
    }
}
