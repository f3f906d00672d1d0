import Foundation
import Testing
import TCF
@testable import ConsentKit

/// The one rule for "does GDPR apply?" (issue 26 §1, decision record 0005) and the privacy
/// options requirement derived from it, over every region, policy and decision.
@Suite("000-3, 001-9, 001-10: the unknown-region rule")
struct RegionUnknownRuleTests {
    static let ask = AskRules()
    static let doNotAsk = AskRules(whenRegionUnknown: .doNotAsk)

    @Test("000-3: a known region is passed on as it is, with or without a decision, under either policy",
          arguments: [GDPRApplicability.applies, .doesNotApply], [true, false])
    func knownRegionPassedOn(region: GDPRApplicability, decided: Bool) {
        #expect(Self.ask.gdprApplies(region: region, hasDecision: decided) == region)
        #expect(Self.doNotAsk.gdprApplies(region: region, hasDecision: decided) == region)
    }

    @Test("001-9: an unknown region with a decision under ask: GDPR applies")
    func unknownRegionDecidedUnderAskApplies() {
        #expect(Self.ask.gdprApplies(region: .undetermined, hasDecision: true) == .applies)
    }

    @Test("000-10: an unknown region stays undetermined without a decision, and under doNotAsk")
    func unknownRegionOtherwiseUndetermined() {
        #expect(Self.ask.gdprApplies(region: .undetermined, hasDecision: false) == .undetermined)
        #expect(Self.doNotAsk.gdprApplies(region: .undetermined, hasDecision: true) == .undetermined)
        #expect(Self.doNotAsk.gdprApplies(region: .undetermined, hasDecision: false) == .undetermined)
    }

    @Test("001-10, 000-29: privacy options are required wherever the user may be asked or has decided while GDPR is not known not to apply")
    func privacyOptionsRequirement() {
        for decided in [true, false] {
            #expect(PrivacyOptionsRequirement(region: .applies, hasDecision: decided, rules: Self.ask) == .required)
            #expect(PrivacyOptionsRequirement(region: .doesNotApply, hasDecision: decided, rules: Self.ask) == .notRequired)
            #expect(PrivacyOptionsRequirement(region: .undetermined, hasDecision: decided, rules: Self.ask) == .required)
        }
        #expect(PrivacyOptionsRequirement(region: .undetermined, hasDecision: true, rules: Self.doNotAsk) == .required)
        #expect(PrivacyOptionsRequirement(region: .undetermined, hasDecision: false, rules: Self.doNotAsk) == .unknown)
    }
}
