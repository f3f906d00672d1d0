import Foundation
import Testing
import TCF
@testable import ConsentKit

/// Counts a store's changes (each `write` is one).
final class ChangeCounter: Sendable {
    private let count = Locked(0)
    let token: ObservationToken

    init(_ store: any KeyValueStore) {
        let count = self.count
        token = store.observe { count.withLock { $0 += 1 } }
    }

    var changes: Int { count.withLock { $0 } }
}

@Suite("Under the age of consent no consent stands")
struct UnderAgeOfConsentTests {
    /// A manager with consentd's answer (GDPR applies, providers 1 and 35), every key generation,
    /// and "accept all" recorded.
    func acceptedAll(store: InMemoryKeyValueStore = InMemoryKeyValueStore()) async throws -> (ConsentManager, GoogleAdsConsent) {
        let http = ScriptedTransport.always(TransportResponse(
            status: 200, body: configJSON(gdprApplies: true, providers: [(1, "One"), (35, "Thirty-five")])))
        let manager = makeManager(store: store, http: http, generations: .all)
        await manager.refreshed()
        try manager.agreeToAll()
        let google = GoogleAdsConsent(manager: manager)
        try #require(google.status == .personalized)
        return (manager, google)
    }

    @Test("001-26: tagging withdraws every vendor's consent, the personalised-advertising purposes and special features, keeping the other purpose consents")
    func decisionUnderAge() async throws {
        let (manager, _) = try await acceptedAll()
        let before = try #require(manager.consent)
        manager.setTagForUnderAgeOfConsent(true)
        let after = try #require(manager.consent)
        #expect(after.vendorConsents.isEmpty)
        #expect(after.adTechProviderConsents.isEmpty)
        #expect(after.specialFeatureOptIns.isEmpty)
        #expect(after.purposeConsents == before.purposeConsents.subtracting([3, 4]))
        #expect(after.disclosedVendors == before.disclosedVendors)
        #expect(after.created == before.created)
        #expect(after.underAgeOfConsent(at: testDate.addingTimeInterval(60)) == after)
    }

    @Test("the IAB v2 keys agree: the TC string and its parsed keys carry no vendor consent and no purposes 3 and 4")
    func version2KeysUnderAge() async throws {
        let store = InMemoryKeyValueStore()
        let (manager, _) = try await acceptedAll(store: store)
        manager.setTagForUnderAgeOfConsent(true)
        let string = try TCString(decoding: try #require(store.value(forKey: IABKey.tcString)?.string))
        #expect(string.vendorConsents.isEmpty)
        #expect(!string.purposesConsent.contains(3) && !string.purposesConsent.contains(4))
        #expect(string.specialFeatureOptIns.isEmpty)
        #expect(store.value(forKey: IABKey.vendorConsents)?.string?.contains("1") == false)
        let purposes = try #require(store.value(forKey: IABKey.purposeConsents)?.string)
        #expect(Array(purposes)[2] == "0" && Array(purposes)[3] == "0")
        #expect(store.value(forKey: IABKey.specialFeaturesOptIns)?.string?.contains("1") == false)
    }

    @Test("the v1 keys agree: the v1.1 string and ParsedVendorConsents carry no vendor consent, v1 purposes 2 and 3 refused")
    func version1KeysUnderAge() async throws {
        let store = InMemoryKeyValueStore()
        let (manager, _) = try await acceptedAll(store: store)
        manager.setTagForUnderAgeOfConsent(true)
        let string = try ConsentStringV1(decoding: try #require(store.value(forKey: IABKey.consentString)?.string))
        #expect(string.vendorConsents.isEmpty)
        #expect(string.purposesAllowed == [1, 4, 5])
        #expect(store.value(forKey: IABKey.parsedVendorConsents)?.string?.contains("1") == false)
        #expect(store.value(forKey: IABKey.parsedPurposeConsents)?.string == "10011")
    }

    @Test("the AC string agrees: providers stay disclosed, none consented")
    func additionalConsentUnderAge() async throws {
        let store = InMemoryKeyValueStore()
        let (manager, google) = try await acceptedAll(store: store)
        #expect(store.value(forKey: IABKey.addtlConsent) == .string("2~1.35~dv."))
        manager.setTagForUnderAgeOfConsent(true)
        #expect(store.value(forKey: IABKey.addtlConsent) == .string("2~~dv.1.35"))
        #expect(google.additionalConsentString == "2~~dv.1.35")
    }

    @Test("001-26: tagging objects to every legitimate interest: vendors', purposes', the publisher's, in the decision and the TC string")
    func legitimateInterestsUnderAge() async throws {
        let store = InMemoryKeyValueStore()
        let (manager, _) = try await acceptedAll(store: store)
        try #require(!(manager.consent?.vendorLegitimateInterests.isEmpty ?? true))
        try #require(!(manager.consent?.purposeLegitimateInterests.isEmpty ?? true))
        manager.setTagForUnderAgeOfConsent(true)
        let after = try #require(manager.consent)
        #expect(after.vendorLegitimateInterests.isEmpty && after.purposeLegitimateInterests.isEmpty)
        #expect(after.publisherLegitimateInterests.isEmpty && after.customPurposeLegitimateInterests.isEmpty)
        let string = try TCString(decoding: try #require(store.value(forKey: IABKey.tcString)?.string))
        #expect(string.vendorLegitimateInterests.isEmpty && string.purposesLITransparency.isEmpty)
        #expect(store.value(forKey: IABKey.vendorLegitimateInterests)?.string?.contains("1") == false)
    }

    @Test("001-26: a decision recorded while tagged keeps no legitimate interest either")
    func legitimateInterestsWhileTagged() async throws {
        let http = ScriptedTransport.always(TransportResponse(status: 200, body: configJSON(gdprApplies: true)))
        let manager = makeManager(http: http)
        await manager.refreshed()
        manager.setTagForUnderAgeOfConsent(true)
        try manager.agreeToAll()
        #expect(manager.consent?.vendorLegitimateInterests.isEmpty == true)
        #expect(manager.consent?.purposeLegitimateInterests.isEmpty == true)
    }

    @Test("001-24: every ad request of a tagged user carries TFUA (tag_for_under_age_of_consent=1, tfua=1) with npa=1; untagged, none")
    func tfuaUnderAge() async throws {
        let (manager, google) = try await acceptedAll()
        #expect(google.adRequestParameters == [:])
        manager.setTagForUnderAgeOfConsent(true)
        #expect(google.adRequestParameters == ["npa": "1", "tag_for_under_age_of_consent": "1", "tfua": "1"])
        manager.setTagForUnderAgeOfConsent(false)
        #expect(google.adRequestParameters["tag_for_under_age_of_consent"] == nil && google.adRequestParameters["tfua"] == nil)
    }

    @Test("Google's signals agree: non-personalized, npa=1, Consent Mode denies ad_storage, ad_user_data and ad_personalization")
    func googleSignalsUnderAge() async throws {
        let (manager, google) = try await acceptedAll()
        manager.setTagForUnderAgeOfConsent(true)
        #expect(google.status == .nonPersonalized)
        #expect(google.adRequestParameters["npa"] == "1")
        let signals = google.consentMode()
        #expect(signals.adStorage == .denied)
        #expect(signals.adUserData == .denied)
        #expect(signals.adPersonalization == .denied)
        #expect(signals.analyticsStorage == .granted)
    }

    @Test("outside the EEA with no decision, Consent Mode's defaults still deny the advertising signals for a user under age")
    func consentModeOutsideEEAUnderAge() async throws {
        let (_, outside) = googleManager(gdpr: false)
        _ = try await outside.requestConsentInfoUpdate()
        outside.setTagForUnderAgeOfConsent(true)
        #expect(outside.consentMode() == ConsentModeSignals(adStorage: .denied, analyticsStorage: .granted, adUserData: .denied, adPersonalization: .denied))
        #expect(ConsentModeSignals.from(ConsentState.agreeToAll(scope: testScope(vendorIds: [755]), at: testDate), underAgeOfConsent: true)
            == ConsentModeSignals(adStorage: .denied, analyticsStorage: .granted, adUserData: .denied, adPersonalization: .denied))
    }

    @Test("the tag and every key of what stands are written in one store change; the events say the decision changed, then the tag")
    func oneTransactionAndEvents() async throws {
        let store = InMemoryKeyValueStore()
        let (manager, _) = try await acceptedAll(store: store)
        let counter = ChangeCounter(store)
        let events = EventLog(manager)
        manager.setTagForUnderAgeOfConsent(true)
        #expect(counter.changes == 1)
        #expect(store.value(forKey: ConsentStorage.underAgeKey) == .bool(true))
        let held = try #require(manager.consent)
        #expect(events.all == [.consentChanged(held), .underAgeOfConsentChanged(true)])
        let record = try #require(store.value(forKey: ConsentStorage.decisionKey)?.string)
        #expect(try ConsentStorage.state(fromRecord: record) == held)
    }

    @Test("a decision recorded while tagged is recorded without consent")
    func decisionWhileTagged() async throws {
        let http = ScriptedTransport.always(TransportResponse(status: 200, body: configJSON(gdprApplies: true)))
        let manager = makeManager(http: http)
        await manager.refreshed()
        manager.setTagForUnderAgeOfConsent(true)
        try manager.agreeToAll()
        #expect(manager.consent?.vendorConsents.isEmpty == true)
        let remote = try ConsentState.agreeToAll(scope: testScope(vendorIds: [755]), at: testDate).tcString(cmp: testCMP).encoded()
        try manager.setConsent(tcString: remote, collectedAt: testDate)
        #expect(manager.consent?.vendorConsents.isEmpty == true)
        #expect(manager.consent?.purposeConsents.contains(3) == false)
    }

    @Test("a stored decision under a tag set by an earlier version is withdrawn at start")
    func startWithdrawsUnderTag() throws {
        let store = InMemoryKeyValueStore()
        let stored = ConsentState.agreeToAll(scope: testScope(count: 30), at: testDate)
        try ConsentStorage(store: store, cmp: testCMP, generations: .version2).write(stored, gdprApplies: .applies)
        store.write([ConsentStorage.underAgeKey: .bool(true)])
        let manager = makeManager(store: store, consentd: nil)
        manager.start(refreshing: false)
        #expect(manager.consent?.vendorConsents.isEmpty == true)
        let string = try TCString(decoding: try #require(store.value(forKey: IABKey.tcString)?.string))
        #expect(string.vendorConsents.isEmpty)
    }

    @Test("lifting the tag does not bring the old consent back: the decision is forgotten and the user asked afresh")
    func liftingTheTagResurrectsNothing() async throws {
        let store = InMemoryKeyValueStore()
        let (manager, google) = try await acceptedAll(store: store)
        manager.setTagForUnderAgeOfConsent(true)
        let events = EventLog(manager)
        manager.setTagForUnderAgeOfConsent(false)
        #expect(manager.consent == nil)
        #expect(store.value(forKey: IABKey.tcString) == nil)
        #expect(store.value(forKey: IABKey.consentString) == nil)
        #expect(store.value(forKey: IABKey.addtlConsent) == nil)
        #expect(store.value(forKey: ConsentStorage.underAgeKey) == nil)
        #expect(events.all == [.consentChanged(nil), .underAgeOfConsentChanged(false)])
        #expect(manager.askVerdict() == .noDecision)
        #expect(google.status == .unknown)
        let relaunched = makeManager(store: store, generations: .all)
        relaunched.start(refreshing: false)
        #expect(relaunched.consent == nil)
    }
}
