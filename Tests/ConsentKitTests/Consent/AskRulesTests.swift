import Foundation
import Testing
import TCF
@testable import ConsentKit

@Suite("Ask rules")
struct AskRulesTests {
    let rules = AskRules(maximumAge: 13, materialNoticeVersion: 0)
    let decision = ConsentState.agreeToAll(scope: testScope(vendorIds: [8, 755, 793]), at: testDate)

    func situation(
        gdpr: GDPRApplicability = .applies, decision: ConsentState?, policy: Int? = nil, vendors: IDSet = [8, 755, 793],
        now: Date = testDate.addingTimeInterval(86_400)
    ) -> AskRules.Situation {
        AskRules.Situation(gdprApplies: gdpr, decision: decision, tcfPolicyVersion: policy ?? decision?.tcfPolicyVersion,
                           publisherVendorIds: vendors, now: now)
    }

    @Test("GDPR not applying never asks")
    func regionFirst() {
        #expect(rules.evaluate(situation(gdpr: .doesNotApply, decision: nil)) == .gdprDoesNotApply)
        #expect(rules.evaluate(situation(gdpr: .doesNotApply, decision: decision)) == .gdprDoesNotApply)
    }

    @Test("an unknown region asks by default, as where GDPR applies (seed 001: EEA or unknown)")
    func unknownRegionAsksByDefault() {
        #expect(AskRules().whenRegionUnknown == .ask)
        #expect(rules.evaluate(situation(gdpr: .undetermined, decision: nil)) == .noDecision)
        #expect(rules.evaluate(situation(gdpr: .undetermined, decision: decision)) == .decisionHolds)
        #expect(rules.evaluate(situation(gdpr: .undetermined, decision: decision, vendors: [8, 755, 793, 1000])) == .vendorsAdded([1000]))
    }

    @Test("an unknown region does not ask under the doNotAsk policy")
    func unknownRegionWaitsWhenConfigured() {
        let waiting = AskRules(whenRegionUnknown: .doNotAsk)
        #expect(waiting.evaluate(situation(gdpr: .undetermined, decision: nil)) == .regionUnknown)
        #expect(!waiting.evaluate(situation(gdpr: .undetermined, decision: nil)).shouldAsk)
        #expect(waiting.evaluate(situation(gdpr: .applies, decision: nil)) == .noDecision)
    }

    @Test("no stored decision asks; a fresh one holds")
    func noDecisionAsks() {
        #expect(rules.evaluate(situation(decision: nil)) == .noDecision)
        #expect(rules.evaluate(situation(decision: decision)) == .decisionHolds)
    }

    @Test("a newer TCF policy version asks")
    func policyVersion() {
        let verdict = rules.evaluate(situation(decision: decision, policy: decision.tcfPolicyVersion + 1))
        #expect(verdict == .policyVersionChanged(decided: decision.tcfPolicyVersion, current: decision.tcfPolicyVersion + 1))
    }

    @Test("an added vendor asks, naming it; a removed vendor does not")
    func vendorAdditionsOnly() {
        #expect(rules.evaluate(situation(decision: decision, vendors: [8, 755, 793, 1000])) == .vendorsAdded([1000]))
        #expect(rules.evaluate(situation(decision: decision, vendors: [8, 755])) == .decisionHolds)
    }

    @Test("while the publisher's vendors are unknown, additions are not judged")
    func unknownVendorsDoNotAsk() {
        let unknown = AskRules.Situation(gdprApplies: .applies, decision: decision, tcfPolicyVersion: decision.tcfPolicyVersion,
                                         publisherVendorIds: nil, now: testDate)
        #expect(rules.evaluate(unknown) == .decisionHolds)
    }

    @Test("a decision older than the maximum age asks; one a day younger holds")
    func maximumAge() {
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = TimeZone(identifier: "UTC")!
        let expiry = utc.date(byAdding: .month, value: 13, to: decision.updated)!
        #expect(rules.evaluate(situation(decision: decision, now: expiry)) == .expired(decidedAt: decision.updated))
        #expect(rules.evaluate(situation(decision: decision, now: expiry.addingTimeInterval(-86_400))) == .decisionHolds)
        #expect(AskRules(maximumAge: 6).evaluate(situation(decision: decision, now: testDate.addingTimeInterval(200 * 86_400))).shouldAsk)
    }

    @Test("a notice version the publisher marks as material asks decisions made on older notices")
    func materialNoticeChange() {
        // testScope records notice version 3.
        #expect(AskRules(materialNoticeVersion: 4).evaluate(situation(decision: decision)) == .materialNoticeChange(decidedOn: 3, current: 4))
        #expect(AskRules(materialNoticeVersion: 3).evaluate(situation(decision: decision)) == .decisionHolds)
    }
}
