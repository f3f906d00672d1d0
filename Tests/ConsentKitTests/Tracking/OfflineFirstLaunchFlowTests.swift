import Foundation
import Testing
import TCF
@testable import ConsentKit

/// Issue 26 §1 and finding N7 (seed 000 "an offline experience"): a first launch offline with
/// the default configuration (consentd names the vendors; the vendor list is consentd's).
@Suite("000-22: a first launch offline, and the ATT prompt")
struct OfflineFirstLaunchFlowTests {
    /// consentd's trimmed list for a publisher using vendors 8, 755 and 793, as an app bundles it
    /// (`vendorListSnapshot`), written into `folder`.
    static func trimmedSnapshot(in folder: TestFolder) throws -> URL {
        var json = try #require(try JSONSerialization.jsonObject(with: Fixtures.data("gvl/gvl-v3_vendor-list-v45_2024-03-21.json")) as? [String: Any])
        let vendors = try #require(json["vendors"] as? [String: Any])
        json["vendors"] = vendors.filter { ["8", "755", "793"].contains($0.key) }
        let file = folder.url.appendingPathComponent("vendor-list.json")
        try JSONSerialization.data(withJSONObject: json).write(to: file)
        return file
    }

    /// A manager configured as the README shows, offline: nothing answers, no consentd answer is
    /// kept, and the vendor list comes from `snapshot` alone.
    static func offlineManager(folder: TestFolder, snapshot: URL?, store: any KeyValueStore = InMemoryKeyValueStore()) -> ConsentManager {
        ConsentManager(configuration: ConsentConfiguration(
            consentd: endpoint, cmp: testCMP, store: store, transport: ScriptedTransport.offline(), vendorListSnapshot: snapshot,
            cacheDirectory: folder.cacheDirectory, log: .silent, now: { testDate }, sync: .disabled))
    }

    @Test("000-22: offline on a first launch, the bundled snapshot of consentd's list lets the notice open, covering its vendors")
    func snapshotOpensTheNotice() async throws {
        let folder = try TestFolder()
        let manager = Self.offlineManager(folder: folder, snapshot: try Self.trimmedSnapshot(in: folder))
        await manager.refreshed()
        #expect(manager.appConfig == nil)
        #expect(manager.shouldAsk)
        #expect(try manager.scope().vendorIds == [8, 755, 793])
        try manager.agreeToAll()
        #expect(manager.consent?.disclosedVendors == [8, 755, 793])
    }

    @Test("000-22: offline on a first launch with the snapshot, the notice comes first and ATT follows it")
    func snapshotThenTracking() async throws {
        let folder = try TestFolder()
        let manager = Self.offlineManager(folder: folder, snapshot: try Self.trimmedSnapshot(in: folder))
        let tracking = SimulatedTrackingAuthorization(answer: .authorized)
        let notice = ScriptedNotice(manager: manager, tracking: tracking, action: .agreeToAll)
        let result = await ConsentFlow(manager: manager, policy: .noticeFirst(tracking: .always), tracking: tracking, notice: notice).run()
        #expect(notice.presentations.map(\.promptsBefore) == [0])
        #expect(result.decisionRecorded && result.problem == nil)
        #expect(tracking.promptCount == 1)
    }

    @Test("000-22 (N7): with no list at all the notice cannot open; the flow says so and does not hold ATT back")
    func noListDoesNotHoldTrackingBack() async throws {
        let manager = Self.offlineManager(folder: try TestFolder(), snapshot: nil)
        let tracking = SimulatedTrackingAuthorization(answer: .authorized)
        let notice = ScriptedNotice(manager: manager, tracking: tracking, action: .agreeToAll)
        let result = await ConsentFlow(manager: manager, policy: .noticeFirst(tracking: .always), tracking: tracking, notice: notice).run()
        #expect(manager.shouldAsk)
        #expect(notice.presentations.isEmpty)
        #expect(result.problem == .noticeUnavailable(.noVendorList))
        #expect(result.steps == [.trackingRequested(answer: .authorized)])
    }

    @Test("000-22 (N7): with no list under ifAnyPurposeConsented, ATT waits for a consent, as the policy says")
    func noListWaitsForConsentUnderIfAnyPurpose() async throws {
        let manager = Self.offlineManager(folder: try TestFolder(), snapshot: nil)
        let tracking = SimulatedTrackingAuthorization(answer: .authorized)
        let notice = ScriptedNotice(manager: manager, tracking: tracking, action: .agreeToAll)
        let result = await ConsentFlow(
            manager: manager, policy: .noticeFirst(tracking: .ifAnyPurposeConsented), tracking: tracking, notice: notice).run()
        #expect(result.problem == .noticeUnavailable(.noVendorList))
        #expect(tracking.requestCount == 0)
    }
}
