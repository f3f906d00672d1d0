import ConsentKit
import Foundation
import IABConsentReader
import TCF
import Testing
import ConsentKitUI

/// Issue 26 §1 (seed 000 "CMP present / gdprApplies", seed 001 "status unknown"): once the CMP
/// asked because it could not rule GDPR out, every output treats GDPR as applying, until a known
/// region says otherwise. The outputs are read as their readers read them: the keys of both
/// generations, `IABConsentReader`'s decision, the `{gdpr}` macros and the web views' payload.
@Suite struct UnknownRegionOutputsTests {
    /// A started manager with no consentd, so nothing decides the region: it stays unknown,
    /// unless `gdprOverride` decides it.
    static func manager(
        store: any KeyValueStore, rules: AskRules = AskRules(), gdprOverride: GDPRApplicability? = nil
    ) async -> ConsentManager {
        let manager = ConsentManager(configuration: ConsentConfiguration(
            consentd: nil, cmp: noticeCMP, generations: .all, store: store, gdprOverride: gdprOverride, askRules: rules,
            vendorLists: FixedList(list: Fixtures.v3v45), log: .silent, now: { noticeDate }, sync: .disabled))
        manager.start(refreshing: false)
        await manager.refresh()
        return manager
    }

    /// A user in an unknown region who was asked and agreed to all.
    static func agreed(rules: AskRules = AskRules()) async throws -> (ConsentManager, InMemoryKeyValueStore) {
        let store = InMemoryKeyValueStore()
        let manager = await manager(store: store, rules: rules)
        #expect(manager.shouldAsk == (rules.whenRegionUnknown == .ask))
        try manager.agreeToAll()
        return (manager, store)
    }

    /// Google (755) as the GVL declares it.
    static let google = VendorDeclaration(Fixtures.v3v45.vendors[755]!)

    @Test("000-10: before the user decides where the region is unknown, both gdprApplies keys stay absent")
    func undecidedKeepsKeysAbsent() async throws {
        let store = InMemoryKeyValueStore()
        let manager = await Self.manager(store: store)
        #expect(manager.shouldAsk)
        #expect(manager.gdprApplies == .undetermined)
        #expect(store.value(forKey: IABKey.gdprApplies) == nil)
        #expect(store.value(forKey: IABKey.subjectToGDPR) == nil)
    }

    @Test("000-3, 000-10: once the user decided where the region is unknown, gdprApplies is 1 in both key generations")
    func decidedWritesGDPRAppliesInBothGenerations() async throws {
        let (manager, store) = try await Self.agreed()
        #expect(store.value(forKey: IABKey.gdprApplies) == .integer(1))
        #expect(store.value(forKey: IABKey.subjectToGDPR) == .string("1"))
        #expect(manager.gdprApplies == .applies)
    }

    @Test("000-14, 001-9: IABConsentReader allows what the user consented to where the region is unknown")
    func readerFollowsTheDecision() async throws {
        let (_, store) = try await Self.agreed()
        let snapshot = IABConsentReader(store: store).snapshot()
        #expect(snapshot.gdprApplies == .applies)
        #expect(snapshot.mayProcess(vendor: Self.google, purpose: 1))
    }

    @Test("000-18: {gdpr} expands to 1 once the user decided where the region is unknown")
    func gdprMacroIsOne() async throws {
        let (_, store) = try await Self.agreed()
        let macros = ConsentMacros(IABConsentReader(store: store).snapshot())
        #expect(macros.expand("https://ads.example/ad?gdpr={gdpr}") == "https://ads.example/ad?gdpr=1")
    }

    @Test("000-17: the web views get gdprApplies true, the TCData and gdpr=1 once the user decided where the region is unknown")
    func webViewsGetTheDecision() async throws {
        let (_, store) = try await Self.agreed()
        let consent = WebViewConsent(keys: store, vendorList: Fixtures.v3v45)
        #expect(consent.gdprApplies == .applies)
        let data = try #require(consent.tcData)
        #expect(data.gdprApplies)
        #expect(consent.queryItems.contains(URLQueryItem(name: "gdpr", value: "1")))
    }

    @Test("000-3: a known region says otherwise: GDPR not applying is written over the decision collected where it was unknown")
    func knownRegionSaysOtherwise() async throws {
        let (_, store) = try await Self.agreed()
        let outside = await Self.manager(store: store, gdprOverride: .doesNotApply)
        #expect(outside.consent != nil)
        #expect(outside.gdprApplies == .doesNotApply)
        #expect(store.value(forKey: IABKey.gdprApplies) == .integer(0))
        #expect(store.value(forKey: IABKey.subjectToGDPR) == .string("0"))
        #expect(outside.privacyOptionsRequirement == .notRequired)
    }

    @Test("000-7: the next launch, the region still unknown, keeps treating GDPR as applying")
    func nextLaunchKeepsApplying() async throws {
        let (_, store) = try await Self.agreed()
        let next = await Self.manager(store: store)
        #expect(next.gdprApplies == .applies)
        #expect(store.value(forKey: IABKey.gdprApplies) == .integer(1))
        #expect(!next.shouldAsk)
    }

    @Test("001-9: under doNotAsk nobody was asked, so a decision held where the region is unknown leaves it undetermined")
    func doNotAskLeavesItUndetermined() async throws {
        let (manager, store) = try await Self.agreed(rules: AskRules(whenRegionUnknown: .doNotAsk))
        #expect(manager.gdprApplies == .undetermined)
        #expect(store.value(forKey: IABKey.gdprApplies) == nil)
        #expect(manager.privacyOptionsRequirement == .required)
    }

    @Test("000-29, 001-10: the privacy options entry is required where the user may be asked and after the choice")
    func privacyOptionsRequired() async throws {
        let store = InMemoryKeyValueStore()
        let manager = await Self.manager(store: store)
        #expect(manager.privacyOptionsRequirement == .required)
        try manager.agreeToAll()
        #expect(manager.privacyOptionsRequirement == .required)
        let waiting = await Self.manager(store: InMemoryKeyValueStore(), rules: AskRules(whenRegionUnknown: .doNotAsk))
        #expect(waiting.privacyOptionsRequirement == .unknown)
    }
}
