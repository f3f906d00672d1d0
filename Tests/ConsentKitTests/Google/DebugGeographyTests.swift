import Foundation
import Testing
import TCF
@testable import ConsentKit

/// Seed 001 (Google's Consent SDK, "Testing"): the developer finds the device's identifier in
/// the log and lists it in `debugIdentifiers`; the debug geography then applies on that device.
@Suite("001-27: the debug identifier is logged at start, for the developer to list")
struct DebugGeographyTests {
    private func manager(device: DeviceInfo, debug: RegionDebugSettings = RegionDebugSettings(), log: LogLines) -> ConsentManager {
        makeManager(consentd: nil, debug: debug, device: device, log: log.log)
    }

    #if DEBUG
    @Test("001-27: in a debug build start logs this device's debug identifier once, with how to list it")
    func identifierLoggedOnce() {
        let log = LogLines()
        let manager = manager(device: DeviceInfo(debugIdentifier: "8D3C5E2A-41F0-4B7E-9C1D-2A6B3F4E5D60", isSimulator: false), log: log)
        manager.start(refreshing: false)
        manager.start(refreshing: false)
        let lines = log.infos.filter { $0.contains("debug identifier") }
        #expect(lines == [
            #"this device's debug identifier: 8D3C5E2A-41F0-4B7E-9C1D-2A6B3F4E5D60 (RegionDebugSettings(geography: .eea, deviceIdentifiers: ["8D3C5E2A-41F0-4B7E-9C1D-2A6B3F4E5D60"]) makes it a debug device)"#
        ])
    }

    @Test("001-27: once listed, the log says the debug geography applies on this device")
    func listedDeviceIsTold() {
        let log = LogLines()
        let debug = RegionDebugSettings(geography: .notEEA, deviceIdentifiers: ["device-A"])
        manager(device: DeviceInfo(debugIdentifier: "device-A", isSimulator: false), debug: debug, log: log).start(refreshing: false)
        #expect(log.infos.contains { $0.hasPrefix("this device's debug identifier: device-A") && $0.hasSuffix("; debug geography not_eea applies") })
    }

    @Test("001-27: a device without a debug identifier is told how to give it one (ConsentKitAppTracking's IDFV)")
    func missingIdentifierExplained() {
        let log = LogLines()
        manager(device: DeviceInfo(debugIdentifier: nil, isSimulator: false), log: log).start(refreshing: false)
        #expect(log.infos.contains { $0.contains("DeviceInfo.current(identifiers: SystemDeviceIdentifiers())") })
    }

    @Test("001-27: on the simulator the log says no identifier is needed")
    func simulatorNeedsNone() {
        let log = LogLines()
        let debug = RegionDebugSettings(geography: .eea)
        manager(device: DeviceInfo(debugIdentifier: nil, isSimulator: true), debug: debug, log: log).start(refreshing: false)
        #expect(log.infos.filter { $0.contains("simulator") } == [
            "this is the simulator: a debug geography needs no debug identifier; debug geography eea applies"
        ])
    }
    #endif

    @Test("001-27: the debug geography decides the region only on a listed device or the simulator, never on another device")
    func onlyOnDebugDevices() async {
        for (device, expected) in [
            (DeviceInfo(debugIdentifier: "device-A", isSimulator: false), GDPRApplicability.doesNotApply),
            (DeviceInfo(debugIdentifier: "device-B", isSimulator: false), .undetermined),
            (DeviceInfo(debugIdentifier: nil, isSimulator: false), .undetermined),
            (DeviceInfo(debugIdentifier: nil, isSimulator: true), .doesNotApply),
        ] {
            let manager = makeManager(consentd: nil, debug: RegionDebugSettings(geography: .notEEA, deviceIdentifiers: ["device-A"]), device: device)
            await manager.refreshed()
            #expect(manager.gdprApplies == expected, "\(device)")
        }
    }
}
