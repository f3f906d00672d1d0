import ConsentdAPI
import Foundation

/// What the keys reflect, for last-writer-wins: the time and event id of the decision held
/// (the manager writes it with every decision's keys), or of a removal. Each kind of record
/// (`ConsentRecord.Kind`: the TCF decision, the US choice) has its own mark, under its own key
/// (``key(of:)``), as consentd keeps the newest record of each kind.
struct SyncMark: Sendable, Equatable, Comparable {
    /// Milliseconds since 1970 (the event's `collectedAt`).
    var collectedAt: Int64
    /// The event id; empty for a removal or a decision made before sync.
    var eventId: String
    /// How the decision was made (a proof method's raw value; empty when unknown).
    var method: String

    /// The store key of the TCF decision's mark.
    static let key = "ConsentKit_SyncMark"

    /// The store key of `kind`'s mark: ``key`` for the TCF decision (as before the kinds),
    /// `ConsentKit_SyncMark_us` for the US choice.
    static func key(of kind: ConsentRecord.Kind) -> String {
        kind == .tcf ? key : "\(key)_\(kind.rawValue)"
    }

    /// `ms|eventId|method`.
    var stored: String { "\(collectedAt)|\(eventId)|\(method)" }

    init(collectedAt: Int64, eventId: String, method: String) {
        self.collectedAt = collectedAt
        self.eventId = eventId
        self.method = method
    }

    init(date: Date, eventId: String, method: String) {
        // Rounded, as decisions' times are: a time read back from `…T10:15:30.250Z` may be a
        // hair under .250 as a Double, and must still be that millisecond.
        self.init(collectedAt: Int64((date.timeIntervalSince1970 * 1000).rounded()), eventId: eventId, method: method)
    }

    init?(stored: String) {
        let parts = stored.split(separator: "|", omittingEmptySubsequences: false)
        guard parts.count == 3, let time = Int64(parts[0]) else { return nil }
        self.init(collectedAt: time, eventId: String(parts[1]), method: String(parts[2]))
    }

    /// consentd's order: `collectedAt`, then event id.
    static func < (lhs: SyncMark, rhs: SyncMark) -> Bool {
        (lhs.collectedAt, lhs.eventId) < (rhs.collectedAt, rhs.eventId)
    }
}

extension SyncMark {
    /// The mark of `kind` kept in `store` beside the keys; nil when none is (or it does not read).
    static func kept(in store: any KeyValueStore, of kind: ConsentRecord.Kind = .tcf) -> SyncMark? {
        store.value(forKey: key(of: kind))?.string.flatMap(SyncMark.init(stored:))
    }

    /// The place of a decision that has no event (made before sync, taken over from another CMP,
    /// or committed while the outbox could not be written): its own time, no event id.
    init(timeOf decision: ConsentState) {
        self.init(date: decision.updated, eventId: "", method: "")
    }

    /// The store write that keeps this mark beside the keys, as the TCF decision's.
    var keyValue: [String: StoredValue?] { keyValue(of: .tcf) }

    /// The store write that keeps this mark beside the keys, as `kind`'s.
    func keyValue(of kind: ConsentRecord.Kind) -> [String: StoredValue?] { [Self.key(of: kind): .string(stored)] }

    /// A remote state's place in consentd's order; nil when its time does not parse.
    init?(_ remote: SubjectState) {
        guard let date = RemoteDecision.parseTimestamp(remote.collectedAt) else { return nil }
        self.init(date: date, eventId: remote.eventId, method: remote.consent.proof.method.rawValue)
    }
}
