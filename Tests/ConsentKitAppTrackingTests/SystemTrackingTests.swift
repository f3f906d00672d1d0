import Foundation
import Testing
import ConsentKit
import ConsentKitAppTracking

/// The system adapters, as far as a platform without ATT shows them, and the one-line
/// conveniences an app gets by linking `ConsentKitAppTracking`.
@Suite("App Tracking Transparency: the system's adapters")
struct SystemTrackingTests {
    /// A manager that needs nothing: no consentd, keys in memory.
    static func manager() -> ConsentManager {
        ConsentManager(configuration: ConsentConfiguration(consentd: nil, cmp: CMPIdentity(cmpId: 300, cmpVersion: 1), store: InMemoryKeyValueStore()))
    }

    /// A notice that must not be shown.
    struct NoNotice: NoticePresenting {
        @MainActor func present(_ request: NoticeRequest) async -> NoticeOutcome {
            Issue.record("the notice was shown")
            return .dismissed
        }
    }

    @Test("the flow made without tracking: asks the system's ATT")
    func flowUsesTheSystemsATT() {
        let flow = ConsentFlow(manager: Self.manager(), policy: .trackingFirst, notice: NoNotice())
        #expect(flow.tracking is SystemTrackingAuthorization)
    }

    #if !canImport(AppTrackingTransparency)
    @Test("on a platform without AppTrackingTransparency the system's ATT is unavailable and never asks")
    func systemWithoutATT() async {
        let system = SystemTrackingAuthorization()
        #expect(!system.isAvailable)
        #expect(system.status == .notDetermined)
        #expect(await system.requestAuthorization() == .notDetermined)
    }
    #endif

    #if !canImport(AdSupport) && !canImport(UIKit)
    @Test("on a platform without AdSupport and UIKit the system reports no advertising or vendor identifier")
    func identifiersWithoutFrameworks() async {
        let device = SystemDeviceIdentifiers()
        #expect(await device.advertisingIdentifier == nil)
        #expect(await device.vendorIdentifier == nil)
    }
    #endif

    @Test("the identifiers from the system: no advertising identifier unless ATT authorized, the installation id from the store")
    func currentIdentifiersFromTheSystem() async {
        let store = InMemoryKeyValueStore()
        let ids = await TrackingIdentifiers.current(store: store)
        let system = SystemTrackingAuthorization()
        if !system.isAvailable || system.status != .authorized { #expect(ids.advertisingIdentifier == nil) }
        #expect(await TrackingIdentifiers.current(store: store).installationId == ids.installationId)
    }
}
