import Foundation
import Testing
import TCF
@testable import ConsentKit

/// Ask rule 0: the US notice at collection (decision record 0032).
@Suite("Ask rules in the US")
struct USAskRulesTests {
    let rules = AskRules(materialNoticeVersion: 3)

    func situation(gdpr: GDPRApplicability = .doesNotApply, choice: USPrivacyChoice?, underAge: Bool = false) -> AskRules.Situation {
        var situation = AskRules.Situation(gdprApplies: gdpr, decision: nil, tcfPolicyVersion: 4, publisherVendorIds: [8],
                                           underAgeOfConsent: underAge, now: testDate)
        situation.usPrivacyApplies = true
        situation.usChoice = choice
        return situation
    }

    func choice(notice: Int) -> USPrivacyChoice {
        USPrivacyChoice(saleOptOut: false, sharingOptOut: false, targetedAdvertisingOptOut: false, noticeVersion: notice,
                        language: "en", decided: testDate)
    }

    @Test("no US choice yet: ask (the notice at collection), and ads may be requested all the same")
    func askOnce() {
        #expect(rules.evaluate(situation(choice: nil)) == .noDecision)
        #expect(rules.canRequestAds(situation(choice: nil)))
    }

    @Test("a US choice on the current notice holds; one on a notice before a material change asks again, ads still allowed")
    func materialChange() {
        #expect(rules.evaluate(situation(choice: choice(notice: 3))) == .decisionHolds)
        #expect(rules.evaluate(situation(choice: choice(notice: 2))) == .materialNoticeChange(decidedOn: 2, current: 3))
        #expect(rules.canRequestAds(situation(choice: choice(notice: 2))))
    }

    @Test("a known child is still shown the US notice, which says why the opt-outs are on")
    func knownChildIsShownTheNotice() {
        #expect(rules.evaluate(situation(choice: nil, underAge: true)) == .noDecision)
    }

    @Test("where GDPR applies the TCF rules decide, and hold ads back while they ask")
    func gdprWins() {
        #expect(rules.evaluate(situation(gdpr: .applies, choice: choice(notice: 3))) == .noDecision)
        #expect(!rules.canRequestAds(situation(gdpr: .applies, choice: choice(notice: 3))))
    }

    @Test("without a US section the rules are the TCF's: GDPR not applying never asks")
    func outsideTheUS() {
        var outside = situation(choice: nil)
        outside.usPrivacyApplies = false
        #expect(rules.evaluate(outside) == .gdprDoesNotApply)
    }

    @Test("the privacy-options entry is required in the US, where GDPR does not apply")
    func privacyOptionsRequired() {
        #expect(PrivacyOptionsRequirement(region: .doesNotApply, hasDecision: false, rules: rules, usPrivacyApplies: true) == .required)
        #expect(PrivacyOptionsRequirement(region: .doesNotApply, hasDecision: false, rules: rules) == .notRequired)
    }
}
