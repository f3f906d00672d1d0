import ConsentdAPI
import Foundation

/// The device's side of the sync: the decision the keys hold, with its place in consentd's order
/// (its ``SyncMark``), and the one way sync changes it. The manager is the only ledger.
///
/// One direction: the manager publishes each decision it commits to the sync
/// (``ConsentSync/enqueue(_:)``, then ``ConsentSync/committed(_:triggering:)``), and sync comes
/// back through this and nothing else: it reads the mark, moves it to a copy it queued, and
/// hands back remote decisions. What sync has to tell (failures, a pass that reached consentd)
/// it publishes as ``SyncReport``s. Each call runs under the ledger's write lock, so a decision
/// being committed is wholly before or after it.
protocol SyncLedger: AnyObject, Sendable {
    /// The mark of the held record of `kind` (the TCF decision, the US choice): its consent
    /// event's, or, for one that has none (made before sync, taken over from another CMP,
    /// committed while the outbox could not be written), its time with no event id; nil without
    /// one.
    func heldMark(of kind: ConsentRecord.Kind) -> SyncMark?

    /// Queues the held record of `kind` for `subject` through `enqueue` as a copy (a new event
    /// id, the record's own time and method, ``OutboxEntry/copyOf`` its mark's event) and makes
    /// the copy's event the keys' mark of `kind`, so that its echo from consentd is recognised as
    /// this record: seed 002's "local is newer". Does nothing without one, or when `enqueue`
    /// returns false (it did not queue the copy: `subject` is no longer the one in force).
    ///
    /// - Throws: what `enqueue` throws; the mark then stays.
    func copyHeld(_ kind: ConsentRecord.Kind, to subject: String, through enqueue: (OutboxEntry) throws(SyncError) -> Bool) throws(SyncError)

    /// Applies `remote`, a subject state from consentd, kind by kind: each of its records when it
    /// is newer than what is held of its kind by consentd's order (`collectedAt`, then event id).
    /// The kinds it applied.
    @discardableResult
    func apply(_ remote: SubjectState) -> Set<ConsentRecord.Kind>
}
