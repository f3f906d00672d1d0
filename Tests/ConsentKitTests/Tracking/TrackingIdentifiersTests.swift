import Foundation
import Testing
@testable import ConsentKit

private let idfa = UUID(uuidString: "6D92078A-8246-4BA4-AE5B-76104861E7DC")!
private let idfv = UUID(uuidString: "3F2504E0-4F89-11D3-9A0C-0305E82C3301")!
private let installation = UUID(uuidString: "0B5E2A51-5B0A-4E3C-9C1F-2D9E0B7A1C44")!

@Suite("Identifiers by tracking status")
struct TrackingIdentifiersTests {
    @Test("authorized: the advertising identifier is given")
    func authorizedGivesIDFA() {
        let ids = TrackingIdentifiers(trackingStatus: .authorized, advertisingIdentifier: idfa, vendorIdentifier: idfv, installationId: installation)
        #expect(ids.advertisingIdentifier == idfa)
    }

    @Test("not authorized: no advertising identifier, even if the system gave one", arguments: [TrackingAuthorizationStatus.notDetermined, .denied, .restricted])
    func otherwiseNoIDFA(status: TrackingAuthorizationStatus) {
        let ids = TrackingIdentifiers(trackingStatus: status, advertisingIdentifier: idfa, vendorIdentifier: idfv, installationId: installation)
        #expect(ids.advertisingIdentifier == nil)
    }

    @Test("ATT unavailable: no advertising identifier")
    func unavailableNoIDFA() {
        let ids = TrackingIdentifiers(trackingStatus: nil, advertisingIdentifier: idfa, vendorIdentifier: idfv, installationId: installation)
        #expect(ids.advertisingIdentifier == nil)
    }

    @Test("an all-zero advertising identifier counts as none, even when authorized")
    func zerosAreNil() {
        let ids = TrackingIdentifiers(
            trackingStatus: .authorized, advertisingIdentifier: TrackingIdentifiers.zeroAdvertisingIdentifier, vendorIdentifier: idfv,
            installationId: installation)
        #expect(ids.advertisingIdentifier == nil)
        #expect(TrackingIdentifiers.zeroAdvertisingIdentifier.uuidString == "00000000-0000-0000-0000-000000000000")
    }

    @Test("the vendor identifier and installation id are given whatever the status", arguments: [TrackingAuthorizationStatus?.none, .notDetermined, .authorized, .denied, .restricted])
    func vendorAndInstallationAlways(status: TrackingAuthorizationStatus?) {
        let ids = TrackingIdentifiers(trackingStatus: status, advertisingIdentifier: idfa, vendorIdentifier: idfv, installationId: installation)
        #expect(ids.vendorIdentifier == idfv)
        #expect(ids.installationId == installation)
    }

    @Test("current() reads the status, the device's identifiers and the stored installation id")
    func currentCombines() async {
        let store = InMemoryKeyValueStore()
        let ids = await TrackingIdentifiers.current(
            tracking: SimulatedTrackingAuthorization(status: .authorized), device: SimulatedDeviceIdentifiers(advertisingIdentifier: idfa, vendorIdentifier: idfv),
            store: store)
        #expect(ids.advertisingIdentifier == idfa)
        #expect(ids.vendorIdentifier == idfv)
        #expect(ids.installationId == InstallationIdentifier.id(in: store))
    }

    @Test("current() does not read the advertising identifier unless tracking is authorized")
    func currentDoesNotReadIDFA() async {
        let device = CountingDeviceIdentifiers(advertising: idfa, vendor: idfv)
        let ids = await TrackingIdentifiers.current(tracking: SimulatedTrackingAuthorization(status: .denied), device: device, store: InMemoryKeyValueStore())
        #expect(ids.advertisingIdentifier == nil)
        #expect(device.advertisingReads == 0)
    }

    @Test("current() on a device without ATT gives no advertising identifier")
    func currentUnavailable() async {
        let ids = await TrackingIdentifiers.current(
            tracking: SimulatedTrackingAuthorization(status: .authorized, isAvailable: false),
            device: SimulatedDeviceIdentifiers(advertisingIdentifier: idfa, vendorIdentifier: idfv), store: InMemoryKeyValueStore())
        #expect(ids.advertisingIdentifier == nil)
    }
}
