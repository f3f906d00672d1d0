import ConsentKit
import ConsentKitUI
import Foundation
import TCF
import Testing

/// Issue 26 §4: every part is policy-agnostic. Proven with a synthetic GVL v3 of TCF policy
/// version 5 carrying `standardTexts`, built from the published #45 (`Fixtures/gvl/`,
/// `gvl-v3_vendor-list-v46-policy5_synthetic.json`): decoded, written into TC strings, asked
/// again on a policy change, and shown in the notice.
@Suite("000-20: a vendor list of TCF policy version 5")
struct PolicyVersionFiveTests {
    static let policy5: VendorList = try! Fixtures.list("gvl/gvl-v3_vendor-list-v46-policy5_synthetic.json")

    @Test("000-20: a v3 list of policy version 5 with standardTexts decodes whole, every section as in the list it was built from")
    func decodes() throws {
        let list = Self.policy5
        #expect(list.gvlSpecificationVersion == 3 && list.vendorListVersion == 46 && list.tcfPolicyVersion == 5)
        #expect(list.standardTexts.keys.sorted() == ["features"])
        #expect(list.standardTexts["features"]?.hasPrefix("(Synthetic text") == true)
        let published = Fixtures.v3v45
        #expect(list.purposes == published.purposes && list.specialPurposes == published.specialPurposes)
        #expect(list.features == published.features && list.specialFeatures == published.specialFeatures)
        #expect(list.stacks == published.stacks && list.dataCategories == published.dataCategories)
        #expect(list.vendors == published.vendors)
        #expect(published.standardTexts.isEmpty)
    }

    @Test("000-20: a translation without the list's standard texts does not cover it; one with them replaces them")
    func translationCoversStandardTexts() throws {
        let list = Self.policy5
        let texts = VendorListTranslation(
            vendorListVersion: 46, purposes: list.purposes, specialPurposes: list.specialPurposes, features: list.features,
            specialFeatures: list.specialFeatures, dataCategories: list.dataCategories)
        #expect(list.untranslated(by: texts) == ["standard text features"])
        let withStandardTexts = VendorListTranslation(
            vendorListVersion: 46, purposes: list.purposes, specialPurposes: list.specialPurposes, features: list.features,
            specialFeatures: list.specialFeatures, dataCategories: list.dataCategories, standardTexts: ["features": "Funktionen …"])
        #expect(list.untranslated(by: withStandardTexts).isEmpty)
        #expect(list.translated(by: withStandardTexts, language: "de").standardTexts == ["features": "Funktionen …"])
    }

    @Test("000-20: TC strings are written with the list's policy version, 5 here and 4 with the published list")
    func stringsCarryTheListsPolicy() async throws {
        for (list, policy) in [(Self.policy5, 5), (Fixtures.v3v45, 4)] {
            let manager = await noticeManager(list: list)
            try manager.agreeToAll()
            let written = try #require(manager.consent).tcString(cmp: noticeCMP)
            let decoded = try TCString(decoding: try written.encoded())
            #expect(decoded.tcfPolicyVersion == policy)
            #expect(decoded.vendorListVersion == list.vendorListVersion)
        }
    }

    @Test("000-20: a decision under policy 4 is asked again once the list is of policy 5, and one under 5 under a list of 4")
    func policyChangeAsksAgain() async throws {
        let store = InMemoryKeyValueStore()
        let underFour = await noticeManager(list: Fixtures.v3v45, store: store)
        try underFour.agreeToAll()
        #expect(underFour.askVerdict() == .decisionHolds)
        let underFive = await noticeManager(list: Self.policy5, store: store)
        #expect(underFive.askVerdict() == .policyVersionChanged(decided: 4, current: 5))
        #expect(underFive.shouldAsk)
        try underFive.agreeToAll()
        #expect(underFive.askVerdict() == .decisionHolds)
        // Policy versions are compared for difference, as the spec says, not for order.
        let decidedUnderFive = try #require(underFive.consent)
        let verdict = AskRules().evaluate(AskRules.Situation(
            gdprApplies: .applies, decision: decidedUnderFive, tcfPolicyVersion: 4, publisherVendorIds: nil, now: noticeDate))
        #expect(verdict == .policyVersionChanged(decided: 5, current: 4))
    }

    @Test("000-20: a decision stands under a list of its own policy version or one naming none, and under no other: one test for the ask rules, the notice and a remote decision")
    func oneTestOfPolicy() async throws {
        let manager = await noticeManager(list: Self.policy5)
        try manager.agreeToAll()
        let decision = try #require(manager.consent)
        #expect(decision.tcfPolicyVersion == 5)
        #expect(decision.isUnderPolicy(5) && decision.isUnderPolicy(nil))
        #expect(!decision.isUnderPolicy(4) && !decision.isUnderPolicy(6))
    }

    @Test("000-20: the notice shows the list's standardTexts in place of its own; the publisher's custom text still wins")
    func noticeUsesStandardTexts() async throws {
        let request = NoticeRequest(reason: .noDecision, allowsDismissal: false)
        let five = await noticeManager(list: Self.policy5)
        let document = try NoticeDocument.build(scope: five.scope(), settings: publisherSettings, cmp: noticeCMP, current: nil, request: request)
        #expect(document.texts["featuresIntro"] == Self.policy5.standardTexts["features"])
        #expect(document.tcfPolicyVersion == 5)

        let four = await noticeManager(list: Fixtures.v3v45)
        let own = try NoticeDocument.build(scope: four.scope(), settings: publisherSettings, cmp: noticeCMP, current: nil, request: request)
        #expect(own.texts["featuresIntro"] == (try NoticeTexts.load("en"))?.texts["featuresIntro"])
        #expect(own.texts["featuresIntro"] != document.texts["featuresIntro"])

        var custom = publisherSettings
        custom.customTexts = ["featuresIntro": "Our own words."]
        let customized = try NoticeDocument.build(scope: five.scope(), settings: custom, cmp: noticeCMP, current: nil, request: request)
        #expect(customized.texts["featuresIntro"] == "Our own words.")
    }

    @Test("000-33: DisclosedVendors is always written (mandatory since TCF 2.3), also when no vendor is disclosed")
    func disclosedVendorsAlwaysWritten() async throws {
        let manager = await noticeManager(list: Self.policy5)
        try manager.disagreeToAll()
        let rejected = try TCString(decoding: try #require(manager.consent).tcString(cmp: noticeCMP).encoded())
        #expect(rejected.disclosedVendors == (try manager.scope()).vendorIds)

        let none = ConsentState(vendorListVersion: 46, tcfPolicyVersion: 5, created: noticeDate, updated: noticeDate)
        let encoded = try none.tcString(cmp: noticeCMP).encoded()
        #expect(encoded.split(separator: ".").count == 2)
        #expect(try TCString(decoding: encoded).disclosedVendors == IDSet())
    }
}
