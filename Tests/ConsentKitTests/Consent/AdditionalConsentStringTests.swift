import Foundation
import Testing
import TCF
@testable import ConsentKit

/// The one rule for the Additional Consent string of a decision
/// (``ConsentState/additionalConsentString``) and the places that read it.
@Suite("Additional Consent string of a decision")
struct AdditionalConsentStringTests {
    static func scope(providers: IDSet) -> ConsentScope {
        let base = testScope(vendorIds: [8, 755])
        return ConsentScope(vendorList: base.vendorList, vendorIds: base.vendorIds, adTechProviderIds: providers)
    }

    @Test("a decision whose notice disclosed no ad-tech provider has no Additional Consent string")
    func noProviderNoString() {
        #expect(ConsentState.agreeToAll(scope: Self.scope(providers: []), at: testDate).additionalConsentString == nil)
        #expect(ConsentState.disagreeToAll(scope: Self.scope(providers: []), at: testDate).additionalConsentString == nil)
    }

    @Test("a decision with disclosed providers lists the consented ones, then the refused ones after ~dv.")
    func disclosedProvidersMakeTheString() throws {
        let all = ConsentState.agreeToAll(scope: Self.scope(providers: [35, 89]), at: testDate)
        #expect(all.additionalConsentString == "2~35.89~dv.")
        let some = try all.changing(at: testDate) { try $0.setAdTechProvider(35, consent: false) }
        #expect(some.additionalConsentString == "2~89~dv.35")
        #expect(ConsentState.disagreeToAll(scope: Self.scope(providers: [35, 89]), at: testDate).additionalConsentString == "2~~dv.35.89")
    }

    @Test("GoogleAdsConsent gives no Additional Consent string when no provider was disclosed, as IABTCF_AddtlConsent is absent")
    func googleAgreesWithTheStoredKey() async throws {
        let store = InMemoryKeyValueStore()
        let (manager, google) = googleManager(store: store, providers: [])
        _ = try await google.requestConsentInfoUpdate()
        try manager.agreeToAll()
        #expect(manager.consent != nil)
        #expect(google.additionalConsentString == nil)
        #expect(store.value(forKey: "IABTCF_AddtlConsent") == nil)
    }
}
