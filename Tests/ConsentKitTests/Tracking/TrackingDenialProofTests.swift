import Foundation
import Testing
import TCF
@testable import ConsentKit

/// Finding N4 (seed 003 "ATT → CMP: denied → disagree to all"; seed 002's proof of each
/// choice): a refusal recorded because ATT was denied says so in its proof.
@Suite("003-3: an ATT-first denial in consentd's proof")
struct TrackingDenialProofTests {
    @Test("003-3, 002-10: the refusal after an ATT denial is recorded with method trackingDenied and names no notice")
    func denialIsRecordedAsTrackingDenied() async throws {
        let folder = try TestFolder()
        let store = InMemoryKeyValueStore()
        let manager = frontDoorManager(FakeConsentd(gdprApplies: true), store: store, folder: folder, cmp: testCMP)
        let tracking = SimulatedTrackingAuthorization(answer: .denied)
        let notice = ScriptedNotice(manager: manager, tracking: tracking, action: .agreeToAll)
        let result = await ConsentFlow(manager: manager, policy: .trackingFirst, tracking: tracking, notice: notice).run()
        #expect(result.steps == [.trackingRequested(answer: .denied), .noticeWithheld, .disagreedToAll])
        let outbox = try Outbox(directory: folder.cacheDirectory.appendingPathComponent("sync"), capacity: 1_000)
        _ = try outbox.load(now: Date())
        let entry = try #require(outbox.pending.last)
        #expect(entry.event.consent.proof.method == .trackingDenied)
        #expect(entry.event.consent.proof.noticeId == ConsentSyncSettings.trackingPromptNoticeId)
        #expect(entry.event.consent.proof.noticeId != ConsentSyncSettings().noticeId)
        #expect(entry.event.consent.purposeConsents == [] && entry.event.consent.vendorConsents == [])
        #expect(store.value(forKey: SyncMark.key)?.string.flatMap(SyncMark.init(stored:))?.method == "trackingDenied")
    }

    @Test("003-3: a notice's own rejectAll keeps the notice's id")
    func noticeRejectionKeepsNoticeId() async throws {
        let folder = try TestFolder()
        let manager = frontDoorManager(FakeConsentd(gdprApplies: true), folder: folder, cmp: testCMP)
        await manager.refreshed()
        try manager.disagreeToAll()
        let outbox = try Outbox(directory: folder.cacheDirectory.appendingPathComponent("sync"), capacity: 1_000)
        _ = try outbox.load(now: Date())
        let entry = try #require(outbox.pending.last)
        #expect(entry.event.consent.proof.method == .rejectAll)
        #expect(entry.event.consent.proof.noticeId == ConsentSyncSettings().noticeId)
    }
}
