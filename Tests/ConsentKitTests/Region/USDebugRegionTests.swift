import Testing
@testable import ConsentKit

/// A US debug geography is outside the TCF, as `not_eea` is: GDPR does not apply, no TCF notice.
@Suite("US debug geography")
struct USDebugRegionTests {
    @Test("without consentd a US debug geography, with or without a state, decides that GDPR does not apply",
          arguments: [DebugRegion.us, .us(state: "CA")!, .us(state: "dc")!])
    func usIsOutsideTheTCF(geography: DebugRegion) async {
        let manager = makeManager(consentd: nil, debug: RegionDebugSettings(geography: geography),
                                  device: DeviceInfo(debugIdentifier: nil, isSimulator: true))
        await manager.refreshed()
        #expect(manager.gdprApplies == .doesNotApply)
        #expect(manager.askVerdict() == .gdprDoesNotApply)
    }
}
