import ConsentdAPI
import Foundation
import Testing
@testable import ConsentKit

/// A ledger holding one TCF decision made before sync (a mark with no event id) that copies it as
/// the manager does. The first time a pass asks for its mark, `interject` runs: the test signs a
/// user in there, between the pass reading its subject and the copy being queued, the order a
/// real device meets when `identify` comes while the first pass after launch is running.
private final class InterjectingLedger: SyncLedger {
    private let mark = Locked(SyncMark(collectedAt: 1_760_000_000_250, eventId: "", method: ""))
    private let interject: Locked<(@Sendable () -> Void)?>
    /// The subjects `copyHeld` was asked to copy to, with whether the sync queued the copy.
    let copies = Locked<[(subject: String, queued: Bool)]>([])

    init(interject: @escaping @Sendable () -> Void) {
        self.interject = Locked(interject)
    }

    func heldMark(of kind: ConsentRecord.Kind) -> SyncMark? {
        guard kind == .tcf else { return nil }
        let once = interject.withLock { action in defer { action = nil }; return action }
        once?()
        return mark.withLock { $0 }
    }

    func copyHeld(_ kind: ConsentRecord.Kind, to subject: String, through enqueue: (OutboxEntry) throws(SyncError) -> Bool) throws(SyncError) {
        guard kind == .tcf else { return }
        var entry = sampleEntry(1, subject: subject)
        entry.copyOf = mark.withLock { $0.eventId }
        let queued = try enqueue(entry)
        copies.withLock { $0.append((subject, queued)) }
        if queued { mark.withLock { $0.eventId = entry.eventId } }
    }

    func apply(_ remote: SubjectState) -> Set<ConsentRecord.Kind> { [] }
}

@Suite("The sync when the subject changes during a pass")
struct SyncSubjectChangeTests {
    @Test("a decision from before sync, read by a pass for the installation while a user signs in, is queued once: for the user, at their merge")
    func signInDuringFirstPass() async throws {
        let folder = try TestFolder()
        let clock = TestClock(testDate)
        // No subject holds anything on consentd; events are answered 500 so that they stay queued.
        let transport = ScriptedTransport([], otherwise: .answer { request in
            TransportResponse(status: request.url.path.hasPrefix("/v1/subjects/") ? 404 : 500, body: Data())
        })
        var settings = ConsentSyncSettings(directory: folder.url.appendingPathComponent("sync", isDirectory: true),
                                           initialBackoff: 600, maximumBackoff: 600)
        settings.credentialStore = InMemoryCredentialStore()
        let sync = ConsentSync(settings: settings, client: ConsentdClient(endpoint: endpoint, transport: transport, now: clock.now),
                               now: clock.now, sleeper: clock, installationId: { "8d3c2a7e-0000-4000-8000-000000000001" }, report: { _ in })
        let ledger = InterjectingLedger { [sync] in _ = try? sync.identify(userId: "user-1", token: "ckt_test", provider: nil) }
        sync.attach(ledger)

        // The first pass: it reads the installation as its subject, then the user signs in.
        await sync.trigger(merge: true, force: true).value
        #expect(sync.currentSubject == OutboxEntry.user("user-1"))
        #expect(ledger.copies.withLock { $0.map(\.subject) } == [OutboxEntry.installation])
        #expect(ledger.copies.withLock { $0.map(\.queued) } == [false])

        // The merge `identify` asks for: the user's subject has nothing, so the held decision goes to them.
        await sync.trigger(merge: true, force: true).value
        let outbox = try Outbox(directory: settings.directory, capacity: 1_000)
        _ = try outbox.load(now: clock.now())
        #expect(outbox.pending.map(\.subject) == [OutboxEntry.user("user-1")])
        #expect(ledger.copies.withLock { $0.map(\.queued) } == [false, true])
    }
}
