import Testing
@testable import ConsentKit

/// A US debug geography is outside the TCF, as `not_eea` is: GDPR does not apply, no TCF notice;
/// the US notice at collection is asked for instead (decision record 0032).
@Suite("US debug geography")
struct USDebugRegionTests {
    @Test("without consentd a US debug geography, with or without a state, decides that GDPR does not apply and asks the US notice",
          arguments: [(DebugRegion.us, 7), (.us(state: "CA")!, 8), (.us(state: "dc")!, 7)])
    func usIsOutsideTheTCF(geography: DebugRegion, section: Int) async {
        let manager = makeManager(consentd: nil, debug: RegionDebugSettings(geography: geography),
                                  device: DeviceInfo(debugIdentifier: nil, isSimulator: true))
        await manager.refreshed()
        #expect(manager.gdprApplies == .doesNotApply)
        #expect(manager.usApplicability.applicableSections == [section])
        #expect(manager.askVerdict() == .noDecision)
        #expect(manager.canRequestAds)
    }
}
