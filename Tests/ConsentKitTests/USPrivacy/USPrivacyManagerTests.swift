import Foundation
import GPP
import IABConsentReader
import Testing
@testable import ConsentKit

/// The app in a US region decision (decision record 0032): the user's US choice, GPC and a known
/// child become the US GPP sections in the `IABGPP_*` keys (read back as an SDK reads them),
/// `gad_rdp` and Consent Mode; the notice at collection is asked for without holding ads back.
@Suite("US privacy in the app")
struct USPrivacyManagerTests {
    /// consentd's `/v1/config` answer for a US visitor in `state` with the sections `sections` in force.
    static func usConfig(state: String?, sections: [Int], covered: Bool = false, mode: String? = nil) -> Data {
        let subdivision = state.map { "\"\($0)\"" } ?? "null"
        let mspaMode = mode.map { "\"\($0)\"" } ?? "null"
        return Data("""
            {"appId":"com.example.app","gdprApplies":false,"region":"us","country":"US","subdivision":\(subdivision),"geoSource":"header",
             "publishers":[{"id":"pub-1","name":"Example","vendorIds":[8,755],"adTechProviders":[],"nonPersonalizedOnly":false}],
             "vendorIds":[8,755],"adTechProviders":[],"vendorListVersion":45,"tcfPolicyVersion":4,"gvlSpecificationVersion":3,
             "gpp":{"applicableSections":\(sections),"mspaCoveredTransaction":\(covered),"mspaMode":\(mspaMode)}}
            """.utf8)
    }

    static func manager(
        _ config: Data, store: any KeyValueStore = InMemoryKeyValueStore(), gpc: Bool = false, askRules: AskRules = AskRules()
    ) -> ConsentManager {
        ConsentManager(configuration: ConsentConfiguration(
            consentd: endpoint, cmp: testCMP, generations: .standard, store: store,
            transport: ScriptedTransport.always(TransportResponse(status: 200, body: config)), askRules: askRules,
            noticeVersion: 2, vendorLists: FixedVendorLists(local: Fixtures.vendorList), log: .silent, now: { testDate },
            sync: .disabled, globalPrivacyControl: gpc))
    }

    static func choice(sale: Bool = false, sharing: Bool = false, targeted: Bool = false, notice: Int = 2) -> USPrivacyChoice {
        USPrivacyChoice(saleOptOut: sale, sharingOptOut: sharing, targetedAdvertisingOptOut: targeted, noticeVersion: notice,
                        language: "en", decided: testDate)
    }

    /// The GPP string of the keys, decoded.
    static func stored(_ store: any KeyValueStore) throws -> GPPString {
        try GPPString(decoding: try #require(store.value(forKey: "IABGPP_HDR_GppString")?.string))
    }

    @Test("us-ca: a choice writes IABGPP keys whose usca section decodes to it, and IABConsentReader reads them back")
    func californiaChoice() async throws {
        let store = InMemoryKeyValueStore()
        let manager = Self.manager(Self.usConfig(state: "CA", sections: [8]), store: store)
        await manager.refreshed()
        try manager.recordUSChoice(Self.choice(sale: true, sharing: true))
        let usca = try #require(try Self.stored(store).us(.usca))
        #expect(usca.saleOptOutNotice == .provided && usca.sharingOptOutNotice == .provided)
        #expect(usca.saleOptOut == .optedOut && usca.sharingOptOut == .optedOut)
        #expect(usca.gpc == false)
        #expect(store.value(forKey: "IABGPP_GppSID")?.string == "8")
        #expect(store.value(forKey: "IABGPP_HDR_Sections")?.string == "8")
        #expect(store.value(forKey: "IABGPP_8_String")?.string == (try usca.encoded()))
        let snapshot = IABConsentReader(store: store).snapshot()
        #expect(snapshot.gppString?.us(.usca) == usca)
        #expect(snapshot.gppApplicableSections == [8])
        #expect(manager.usPrivacyChoice == Self.choice(sale: true, sharing: true))
    }

    @Test("a usnat state: the national section in force, the targeted-advertising opt-out in it")
    func nationalChoice() async throws {
        let store = InMemoryKeyValueStore()
        let manager = Self.manager(Self.usConfig(state: "WA", sections: [7]), store: store)
        await manager.refreshed()
        try manager.recordUSChoice(Self.choice(targeted: true))
        let gpp = try Self.stored(store)
        #expect(gpp.sectionIds == [7])
        #expect(gpp.usnat?.targetedAdvertisingOptOut == .optedOut && gpp.usnat?.saleOptOut == .didNotOptOut)
        #expect(IABConsentReader(store: store).snapshot().gppApplicableSections == [7])
    }

    @Test("before any choice the section says the notice was not given and nothing is opted out; the notice is asked for, ads are not held back")
    func beforeTheChoice() async throws {
        let store = InMemoryKeyValueStore()
        let manager = Self.manager(Self.usConfig(state: "CA", sections: [8]), store: store)
        await manager.refreshed()
        let usca = try #require(try Self.stored(store).us(.usca))
        #expect(usca.saleOptOutNotice == .notProvided && usca.saleOptOut == .didNotOptOut)
        #expect(manager.askVerdict() == .noDecision)
        #expect(manager.canRequestAds)
        #expect(manager.privacyOptionsRequirement == .required)
        #expect(store.value(forKey: "gad_rdp") == nil)
        #expect(store.value(forKey: IABKey.tcString) == nil)
    }

    @Test("after the choice the notice is not asked for again, until a material notice change")
    func askOnceAndOnMaterialChange() async throws {
        let manager = Self.manager(Self.usConfig(state: "CA", sections: [8]), askRules: AskRules(materialNoticeVersion: 3))
        await manager.refreshed()
        try manager.recordUSChoice(Self.choice(notice: 3))
        #expect(manager.askVerdict() == .decisionHolds)
        try manager.recordUSChoice(Self.choice(notice: 2))
        #expect(manager.askVerdict() == .materialNoticeChange(decidedOn: 2, current: 3))
        #expect(manager.canRequestAds)
    }

    @Test("an opt-out sets gad_rdp, the rdp extra and denies ad_user_data and ad_personalization; no opt-out removes them")
    func restrictedDataProcessing() async throws {
        let store = InMemoryKeyValueStore()
        let manager = Self.manager(Self.usConfig(state: "CA", sections: [8]), store: store)
        await manager.refreshed()
        let google = GoogleAdsConsent(manager: manager)
        try manager.recordUSChoice(Self.choice(sale: true))
        #expect(store.value(forKey: "gad_rdp") == .bool(true))
        #expect(manager.restrictsDataProcessing)
        #expect(google.adRequestParameters == ["rdp": "1"])
        #expect(google.consentMode().adPersonalization == .denied && google.consentMode().adUserData == .denied)
        #expect(google.consentMode().adStorage == .granted)
        try manager.recordUSChoice(Self.choice())
        #expect(store.value(forKey: "gad_rdp") == nil)
        #expect(google.adRequestParameters.isEmpty)
        #expect(google.consentMode() == .allGranted)
    }

    @Test("GPC set by the app opts a US user out without a choice and is recorded in the GPC sub-section")
    func globalPrivacyControl() async throws {
        let store = InMemoryKeyValueStore()
        let manager = Self.manager(Self.usConfig(state: "CO", sections: [10]), store: store, gpc: true)
        await manager.refreshed()
        let usco = try #require(try Self.stored(store).us(.usco))
        #expect(usco.gpc == true)
        #expect(usco.saleOptOut == .optedOut && usco.targetedAdvertisingOptOut == .optedOut)
        #expect(store.value(forKey: "gad_rdp") == .bool(true))
    }

    @Test("GPC turned on and off while the app runs: the keys follow at once, the user's own choice comes back",
          timeLimitWhereAvailable(minutes: 1))
    func globalPrivacyControlAtRuntime() async throws {
        let store = InMemoryKeyValueStore()
        let manager = Self.manager(Self.usConfig(state: "CA", sections: [8]), store: store)
        await manager.refreshed()
        try manager.recordUSChoice(Self.choice(sharing: true))
        var usca = try #require(try Self.stored(store).us(.usca))
        #expect(usca.gpc == false && usca.saleOptOut == .didNotOptOut && usca.sharingOptOut == .optedOut)
        let events = manager.events()
        manager.setGlobalPrivacyControl(true)
        #expect(manager.globalPrivacyControl)
        usca = try #require(try Self.stored(store).us(.usca))
        #expect(usca.gpc == true && usca.saleOptOut == .optedOut && usca.sharingOptOut == .optedOut)
        #expect(store.value(forKey: "gad_rdp") == .bool(true))
        #expect(IABConsentReader(store: store).snapshot().gppString?.us(.usca) == usca)
        // The stream delivers in order; a missing consentChanged fails by the time limit.
        for await event in events { if case .consentChanged = event { break } }
        #expect(manager.usPrivacyChoice == Self.choice(sharing: true), "GPC does not rewrite the user's own answer")
        manager.setGlobalPrivacyControl(false)
        usca = try #require(try Self.stored(store).us(.usca))
        #expect(usca.gpc == false && usca.saleOptOut == .didNotOptOut && usca.sharingOptOut == .optedOut)
        // A restart takes the configuration's value again (the app keeps its setting).
        let next = Self.manager(Self.usConfig(state: "CA", sections: [8]), store: store, gpc: true)
        await next.refreshed()
        #expect(next.globalPrivacyControl)
        #expect(try Self.stored(store).us(.usca)?.gpc == true)
        // What GPC forced is not read back as the user's answer: a later launch without GPC has
        // their own choice (sharing only) again, not the forced sale opt-out.
        #expect(next.usPrivacyChoice == Self.choice(sharing: true))
        let without = Self.manager(Self.usConfig(state: "CA", sections: [8]), store: store, gpc: false)
        await without.refreshed()
        usca = try #require(try Self.stored(store).us(.usca))
        #expect(usca.gpc == false && usca.saleOptOut == .didNotOptOut && usca.sharingOptOut == .optedOut)
    }

    @Test("a user tagged under age is a known child: opted out, known-child entries 'no consent', in the same write as the tag")
    func knownChild() async throws {
        let store = InMemoryKeyValueStore()
        let manager = Self.manager(Self.usConfig(state: "CT", sections: [12]), store: store)
        await manager.refreshed()
        manager.setTagForUnderAgeOfConsent(true)
        let usct = try #require(try Self.stored(store).us(.usct))
        #expect(usct.knownChildSensitiveDataConsents == [.noConsent, .noConsent, .noConsent])
        #expect(usct.saleOptOut == .optedOut && usct.targetedAdvertisingOptOut == .optedOut)
        #expect(store.value(forKey: "gad_rdp") == .bool(true))
    }

    @Test("the choice is kept across launches and its keys written again")
    func keptAcrossLaunches() async throws {
        let store = InMemoryKeyValueStore()
        let first = Self.manager(Self.usConfig(state: "CA", sections: [8]), store: store)
        await first.refreshed()
        try first.recordUSChoice(Self.choice(sharing: true))
        let next = Self.manager(Self.usConfig(state: "CA", sections: [8]), store: store)
        await next.refreshed()
        #expect(next.usPrivacyChoice == Self.choice(sharing: true))
        #expect(try Self.stored(store).us(.usca)?.sharingOptOut == .optedOut)
    }

    @Test("removing everything clears every IABGPP key, gad_rdp and the choice")
    func removeAll() async throws {
        let store = InMemoryKeyValueStore()
        let manager = Self.manager(Self.usConfig(state: "CA", sections: [8]), store: store)
        await manager.refreshed()
        try manager.recordUSChoice(Self.choice(sale: true))
        manager.removeAll()
        for key in IABKey.gpp { #expect(store.value(forKey: key) == nil, "\(key)") }
        #expect(store.value(forKey: "gad_rdp") == nil)
        #expect(store.value(forKey: "ConsentKit_USPrivacyChoice") == nil)
        #expect(manager.usPrivacyChoice == nil)
    }

    @Test("outside the US nothing US is written, and a choice held stays out of the keys")
    func outsideTheUS() async throws {
        let store = InMemoryKeyValueStore()
        let manager = Self.manager(configJSON(gdprApplies: false), store: store)
        await manager.refreshed()
        try manager.recordUSChoice(Self.choice(sale: true))
        #expect(store.value(forKey: "IABGPP_HDR_GppString") == nil)
        #expect(store.value(forKey: "gad_rdp") == nil)
        #expect(manager.usApplicability == .notApplicable)
        #expect(manager.askVerdict() == .gdprDoesNotApply)
    }

    @Test("a TCF decision's consent event carries the GPP string of the sections in force: the US section in the US")
    func eventInTheUS() async throws {
        let manager = Self.manager(Self.usConfig(state: "CA", sections: [8]))
        await manager.refreshed()
        try manager.recordUSChoice(Self.choice(sale: true))
        let decision = ConsentState.disagreeToAll(scope: try manager.scope(), at: testDate)
        let entry = try manager.outboxEntry(for: decision, method: .rejectAll, subject: "sub_test")
        let gpp = try GPPString(decoding: try #require(entry.event.consent.gppString))
        #expect(gpp.sectionIds == [8])
        #expect(gpp.us(.usca)?.saleOptOut == .optedOut)
    }

    @Test("in the EEA a decision's consent event carries the GPP string of its tcfeuv2 section")
    func eventInTheEEA() async throws {
        let manager = Self.manager(configJSON(gdprApplies: true))
        await manager.refreshed()
        let decision = ConsentState.agreeToAll(scope: try manager.scope(), at: testDate)
        let entry = try manager.outboxEntry(for: decision, method: .acceptAll, subject: "sub_test")
        let gpp = try GPPString(decoding: try #require(entry.event.consent.gppString))
        #expect(gpp.sectionIds == [2])
        #expect(try gpp.tcfeuv2?.encoded() == entry.event.consent.tcString)
    }

    @Test("where no section is in force the event has no GPP string")
    func eventWithoutSections() async throws {
        let manager = Self.manager(configJSON(gdprApplies: false))
        await manager.refreshed()
        let decision = ConsentState.agreeToAll(scope: try manager.scope(), at: testDate)
        #expect(try manager.outboxEntry(for: decision, method: .acceptAll, subject: "sub_test").event.consent.gppString == nil)
    }
}
