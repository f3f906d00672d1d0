import Foundation
import Testing
import TCF
@testable import ConsentKit

/// A manager answered by a scripted consentd with `providers` and the EEA decision `gdpr`.
func googleManager(
    store: any KeyValueStore = InMemoryKeyValueStore(), gdpr: Bool? = true, providers: [(Int, String)] = [(1, "One"), (35, "Thirty-five")],
    nonPersonalizedOnly: Bool = false
) -> (ConsentManager, GoogleAdsConsent) {
    let http = ScriptedTransport.always(TransportResponse(
        status: 200, body: configJSON(gdprApplies: gdpr, providers: providers, nonPersonalizedOnly: nonPersonalizedOnly)))
    let manager = makeManager(store: store, http: http)
    manager.start(refreshing: false)
    return (manager, GoogleAdsConsent(manager: manager))
}

@Suite("Google ads consent")
struct GoogleAdsConsentTests {
    @Test("the status is unknown without a decision, personalized after accept all, non-personalized after reject all")
    func statusFollowsTheDecision() async throws {
        let (manager, google) = googleManager()
        #expect(try await google.requestConsentInfoUpdate() == .unknown)
        try manager.agreeToAll()
        #expect(google.status == .personalized)
        try manager.disagreeToAll()
        #expect(google.status == .nonPersonalized)
        #expect(google.adProviders.map(\.id) == [1, 35])
        #expect(google.isRequestLocationInEEAOrUnknown)
    }

    @Test("001-6 (known departure, GoogleAds.md): a provider renamed keeps the status; one removed keeps it; one added makes it unknown")
    func reconsentOnlyOnAdditions() async throws {
        let store = InMemoryKeyValueStore()
        let (first, google) = googleManager(store: store, providers: [(540, "Yieldr"), (1170, "Other")])
        await first.refresh()
        try first.agreeToAll()
        #expect(google.status == .personalized)

        let (_, renamed) = googleManager(store: store, providers: [(540, "Travel Data Collective"), (1170, "Other")])
        #expect(try await renamed.requestConsentInfoUpdate() == .personalized)
        let (_, removed) = googleManager(store: store, providers: [(540, "Travel Data Collective")])
        #expect(try await removed.requestConsentInfoUpdate() == .personalized)
        let (addedManager, added) = googleManager(store: store, providers: [(540, "Travel Data Collective"), (1170, "Other"), (89, "New")])
        #expect(try await added.requestConsentInfoUpdate() == .unknown)
        #expect(addedManager.askVerdict() == .adTechProvidersAdded([89]))
    }

    @Test("a publisher switching to non-personalized-only ads makes the status unknown; outside the EEA nothing resets")
    func nonPersonalizedOnlyChange() async throws {
        let store = InMemoryKeyValueStore()
        let (first, _) = googleManager(store: store)
        await first.refresh()
        try first.agreeToAll()
        let (_, switched) = googleManager(store: store, nonPersonalizedOnly: true)
        #expect(try await switched.requestConsentInfoUpdate() == .unknown)
        let (_, outside) = googleManager(store: store, gdpr: false, providers: [(1, "One"), (35, "Thirty-five"), (89, "New")])
        #expect(try await outside.requestConsentInfoUpdate() == .personalized)
    }

    @Test("npa=1 for non-personalized, for a user under age, and for an unknown status where GDPR may apply; not otherwise")
    func npaInEachState() async throws {
        let (manager, google) = googleManager()
        _ = try await google.requestConsentInfoUpdate()
        #expect(google.adRequestParameters == ["npa": "1"])  // unknown, EEA
        try google.setStatus(.personalized)
        #expect(google.adRequestParameters == [:])
        google.setTagForUnderAgeOfConsent(true)
        #expect(google.adRequestParameters["npa"] == "1")
        google.setTagForUnderAgeOfConsent(false)
        try google.setStatus(.nonPersonalized)
        #expect(google.adRequestParameters == ["npa": "1"])

        let (outsideManager, outside) = googleManager(gdpr: false)
        _ = try await outside.requestConsentInfoUpdate()
        #expect(outside.status == .unknown)
        #expect(outside.adRequestParameters == [:])
        _ = (manager, outsideManager)
    }

    @Test("the Additional Consent string lists consented providers, then the refused ones after ~dv., and is stored as IABTCF_AddtlConsent")
    func additionalConsentString() async throws {
        let store = InMemoryKeyValueStore()
        let (manager, google) = googleManager(store: store, providers: [(101, "A"), (35, "B"), (9, "C"), (1, "D")])
        _ = try await google.requestConsentInfoUpdate()
        try manager.agreeToAll()
        try manager.update { try $0.setAdTechProvider(9, consent: false) }
        #expect(google.additionalConsentString == "2~1.35.101~dv.9")
        #expect(store.value(forKey: "IABTCF_AddtlConsent") == .string("2~1.35.101~dv.9"))
        try manager.disagreeToAll()
        #expect(store.value(forKey: "IABTCF_AddtlConsent") == .string("2~~dv.1.9.35.101"))
        #expect(AdditionalConsent.parse("2~1.35.101~dv.9")?.consented == [1, 35, 101])
        #expect(AdditionalConsent.parse("2~1.x~dv.") == nil)
        for bad in ["2~0~dv.", "2~70000~dv.", "2~+5~dv.", "2~1..2~dv.", "2~1~dv", "2~1~dv.-3"] {
            #expect(AdditionalConsent.parse(bad) == nil, "\(bad)")
        }
        #expect(AdditionalConsent.parse("1~1.35") == nil)
    }

    @Test("Consent Mode follows the documented mapping, denies without a decision, and uses the configured defaults outside the EEA")
    func consentModeMapping() async throws {
        let (manager, google) = googleManager()
        _ = try await google.requestConsentInfoUpdate()
        #expect(google.consentMode() == .allDenied)
        try manager.agreeToAll()
        #expect(google.consentMode() == .allGranted)
        try manager.update { try $0.setPurpose(7, consent: false) }
        #expect(google.consentMode() == ConsentModeSignals(adStorage: .granted, analyticsStorage: .granted, adUserData: .denied, adPersonalization: .granted))
        try manager.update { try $0.setPurpose(3, consent: false); try $0.setPurpose(9, consent: false) }
        #expect(google.consentMode() == ConsentModeSignals(adStorage: .granted, analyticsStorage: .denied, adUserData: .denied, adPersonalization: .denied))
        try manager.update { try $0.setVendor(755, consent: false); try $0.setPurpose(9, consent: true) }
        #expect(google.consentMode() == ConsentModeSignals(adStorage: .denied, analyticsStorage: .granted, adUserData: .denied, adPersonalization: .denied))
        #expect(google.consentMode().byName["analytics_storage"] == "granted")

        let (_, outside) = googleManager(gdpr: false)
        _ = try await outside.requestConsentInfoUpdate()
        #expect(outside.consentMode() == .allGranted)
        let configured = ConsentModeSignals(adStorage: .granted, analyticsStorage: .denied, adUserData: .granted, adPersonalization: .denied)
        #expect(outside.consentMode(outsideEEA: configured) == configured)
        outside.setTagForUnderAgeOfConsent(true)
        #expect(outside.consentMode().adPersonalization == .denied)
    }

    @Test("publisher-managed consent: the status the app sets, with the ad-free preference, survives a relaunch; unknown forgets it")
    func publisherManagedStatus() async throws {
        let store = InMemoryKeyValueStore()
        let (_, google) = googleManager(store: store)
        _ = try await google.requestConsentInfoUpdate()
        try google.setStatus(.nonPersonalized, prefersAdFree: true)
        #expect(google.status == .nonPersonalized)
        let (relaunched, again) = googleManager(store: store)
        #expect(again.prefersAdFree)
        #expect(relaunched.consent?.purposeConsents.contains(3) == false)
        #expect(relaunched.consent?.adTechProviderConsents == [1, 35])
        _ = try await again.requestConsentInfoUpdate()
        #expect(again.status == .nonPersonalized)
        try again.setStatus(.unknown)
        #expect(again.status == .unknown)
        #expect(relaunched.consent == nil)
    }

    @Test("a user under the age of consent: the form refuses to load, the tag survives a relaunch, reset clears it")
    func underAgeOfConsent() async throws {
        let store = InMemoryKeyValueStore()
        let (_, google) = googleManager(store: store)
        try google.checkConsentFormCanLoad()
        google.setTagForUnderAgeOfConsent(true)
        #expect(throws: GoogleConsentError.taggedUnderAgeOfConsent) { try google.checkConsentFormCanLoad() }
        let (againManager, again) = googleManager(store: store)
        #expect(again.isTaggedForUnderAgeOfConsent)
        _ = try await again.requestConsentInfoUpdate()
        #expect(againManager.askVerdict() == .underAgeOfConsent)
        #expect(again.adRequestParameters == ["npa": "1", "tag_for_under_age_of_consent": "1", "tfua": "1"])
        try againManager.agreeToAll()
        again.reset()
        #expect(!google.isTaggedForUnderAgeOfConsent)
        #expect(againManager.consent == nil)
        #expect(again.adProviders.isEmpty)
        #expect(store.value(forKey: "ConsentKit_AppConfig") == nil)
    }

    @Test("a notice recording through update after a provider was added answers the re-consent rule")
    func updateAnswersReconsent() async throws {
        let store = InMemoryKeyValueStore()
        let (first, _) = googleManager(store: store, providers: [(1, "One")])
        await first.refresh()
        try first.agreeToAll()
        let (manager, google) = googleManager(store: store, providers: [(1, "One"), (89, "New")], nonPersonalizedOnly: true)
        _ = try await google.requestConsentInfoUpdate()
        #expect(manager.askVerdict() == .adTechProvidersAdded([89]))
        try manager.update { try $0.setAdTechProvider(89, consent: false) }
        #expect(manager.askVerdict() == .decisionHolds)
        #expect(google.status == .nonPersonalized)
        #expect(google.additionalConsentString == "2~1~dv.89")
    }

    @Test("Consent Mode agrees with the status: an unknown status in the EEA denies all, a non-personalized choice denies personalization anywhere")
    func consentModeAgreesWithStatus() async throws {
        let store = InMemoryKeyValueStore()
        let (first, _) = googleManager(store: store, providers: [(1, "One")])
        await first.refresh()
        try first.agreeToAll()
        let (_, added) = googleManager(store: store, providers: [(1, "One"), (89, "New")])
        _ = try await added.requestConsentInfoUpdate()
        #expect(added.status == .unknown)
        #expect(added.consentMode() == .allDenied)
        #expect(added.adRequestParameters == ["npa": "1"])

        let (_, outside) = googleManager(gdpr: false)
        _ = try await outside.requestConsentInfoUpdate()
        try outside.setStatus(.nonPersonalized)
        #expect(outside.adRequestParameters == ["npa": "1"])
        #expect(outside.consentMode().adPersonalization == .denied)
    }

    @Test("with the region undetermined and no decision, ads are non-personalized")
    func undeterminedRegionMeansNpa() async throws {
        let (_, google) = googleManager(gdpr: nil)
        _ = try await google.requestConsentInfoUpdate()
        #expect(google.isRequestLocationInEEAOrUnknown)
        #expect(google.adRequestParameters == ["npa": "1"])
    }

    @Test("a personalized status the publisher's vendors cannot give is refused and nothing is written")
    func unreachableStatusRefused() async throws {
        let http = ScriptedTransport.always(TransportResponse(status: 200, body: configJSON(gdprApplies: true, vendorIds: [8, 793])))
        let manager = makeManager(http: http)
        let google = GoogleAdsConsent(manager: manager)
        await manager.refreshed()
        #expect(throws: ConsentKitError.googleStatusUnreachable(requested: "personalized", reached: "non_personalized")) {
            try google.setStatus(.personalized)
        }
        #expect(manager.consent == nil)
        try google.setStatus(.nonPersonalized)
        #expect(google.status == .nonPersonalized)
    }

    @Test("clearing the status needs no vendor list")
    func unknownNeedsNoScope() throws {
        let manager = makeManager(consentd: nil, vendorLists: nil)
        manager.start(refreshing: false)
        try GoogleAdsConsent(manager: manager).setStatus(.unknown)
        #expect(manager.consent == nil)
    }

    @Test("a consentd error is thrown by the update and handed to the completion handler")
    func updateErrors() async throws {
        let manager = makeManager(http: ScriptedTransport.always(TransportResponse(status: 503)))
        let google = GoogleAdsConsent(manager: manager)
        await #expect(throws: ConsentKitError.self) { try await google.requestConsentInfoUpdate() }
        let result: Result<GoogleConsentStatus, ConsentKitError> = await withCheckedContinuation { continuation in
            google.requestConsentInfoUpdate { continuation.resume(returning: $0) }
        }
        let (_, working) = googleManager()
        let success: Result<GoogleConsentStatus, ConsentKitError> = await withCheckedContinuation { continuation in
            working.requestConsentInfoUpdate { continuation.resume(returning: $0) }
        }
        #expect(success == .success(.unknown))
        guard case .failure(.server(.status(_, 503, _, _))) = result else {
            Issue.record("expected the 503, got \(result)")
            return
        }
    }
}
