import Foundation
import TCF

/// When to ask the user (again): one function, ``AskRules/evaluate(_:)``, with these rules in
/// this order:
///
/// 0. A US section is in force and GDPR does not apply (US state privacy, an opt-out regime;
///    decision record 0032): ask once, the notice at collection, while there is no
///    ``USPrivacyChoice``; ask again when the choice was made on a notice older than the
///    publisher's last material change; otherwise the choice holds. Nothing else applies, and
///    asking never blocks ads (``canRequestAds(_:)``).
/// 1. GDPR does not apply → never. Not known (consentd could not tell, or gave no answer and
///    none is kept) → as if it applied, the default, or not yet, as ``whenRegionUnknown`` says.
///    A user tagged as under the age of consent → never (no consent can be collected from them).
/// 2. No stored decision → ask.
/// 3. The decision's TCF policy version differs from the vendor list's → ask.
/// 4. Vendors the publisher uses were added since the decision (in the list now, not among the
///    decision's disclosed vendors) → ask. Only additions count: a renamed vendor keeps its id
///    and a removed one is no longer used, so neither re-prompts. Not applied while the
///    publisher's vendors are unknown.
/// 5. Google ad-tech providers the user has not seen were added, or whether a publisher serves
///    only non-personalized ads changed (Google's Consent SDK rule: by provider id, additions
///    only) → ask. Not applied while consentd's answer is unknown.
/// 6. The decision is older than ``maximumAge`` months (13 by default) → ask.
/// 7. The decision was made on a notice older than the publisher's last material change → ask.
public struct AskRules: Sendable, Equatable {
    /// Months after which a decision is asked again (13 by default, the TCF policy's ceiling).
    public var maximumAge: Int
    /// The notice version of the publisher's last material change: decisions made on an older
    /// notice are asked again. 0 means none.
    public var materialNoticeVersion: Int

    /// What to do while it is not known whether GDPR applies.
    public var whenRegionUnknown: RegionUnknownPolicy

    /// Rules with the defaults: 13 months, no material notice change, ask where the region is
    /// unknown.
    public init(maximumAge: Int = 13, materialNoticeVersion: Int = 0, whenRegionUnknown: RegionUnknownPolicy = .ask) {
        self.maximumAge = maximumAge
        self.materialNoticeVersion = materialNoticeVersion
        self.whenRegionUnknown = whenRegionUnknown
    }

    /// What every output says about GDPR, given the region decision and whether a decision is
    /// held: the one rule for the IAB keys of both generations (and so for the vendor-side
    /// reader, the `{gdpr}` macros and the web views' `TCData`), ``ConsentManager/gdprApplies``
    /// and the web CMP. A known region is passed on as it is. Where the region is unknown under
    /// ``RegionUnknownPolicy/ask``, a decision was collected because GDPR could not be ruled
    /// out, so GDPR applies to it (`gdprApplies` 1) until a known region says otherwise;
    /// without a decision, or under ``RegionUnknownPolicy/doNotAsk``, it stays undetermined.
    public func gdprApplies(region: GDPRApplicability, hasDecision: Bool) -> GDPRApplicability {
        region == .undetermined && hasDecision && whenRegionUnknown == .ask ? .applies : region
    }

    /// Whether to ask a user whose region is not known.
    public enum RegionUnknownPolicy: Sendable, Equatable {
        /// Ask, as if GDPR applied (the default): consent is collected in the EEA *and where the
        /// location is unknown*, as Google's Consent SDK does. With consentd's defaults (no
        /// country header, no CIDR table) the region is always unknown, so everyone is asked.
        /// Once the user has decided, every output treats GDPR as applying
        /// (``AskRules/gdprApplies(region:hasDecision:)``) until a known region says otherwise.
        case ask
        /// Do not ask until the region is known (``Verdict/regionUnknown``): for publishers whose
        /// consentd always knows the country, who prefer no notice to a needless one.
        case doNotAsk
    }

    /// What the rules look at.
    public struct Situation: Sendable {
        /// The region decision.
        public var gdprApplies: GDPRApplicability
        /// The stored decision, if any.
        public var decision: ConsentState?
        /// The TCF policy version of the vendor list held now (nil: no list yet).
        public var tcfPolicyVersion: Int?
        /// The vendors the publisher uses that the list held now contains; nil while they are
        /// not known (rule 4 is then not applied).
        public var publisherVendorIds: IDSet?
        /// The Google ad-tech providers the publishers use now; nil while not known.
        public var adTechProviderIds: IDSet?
        /// Whether a publisher serves only non-personalized ads now; nil while not known.
        public var nonPersonalizedOnly: Bool?
        /// Whether the user is tagged as under the age of consent.
        public var underAgeOfConsent: Bool
        /// Now.
        public var now: Date
        /// Whether a US section is in force (``ConsentManager/usApplicability``): rule 0.
        public var usPrivacyApplies: Bool = false
        /// The user's answer to the US notice, if any.
        public var usChoice: USPrivacyChoice? = nil

        /// Describes a situation.
        public init(
            gdprApplies: GDPRApplicability, decision: ConsentState?, tcfPolicyVersion: Int?, publisherVendorIds: IDSet?,
            adTechProviderIds: IDSet? = nil, nonPersonalizedOnly: Bool? = nil, underAgeOfConsent: Bool = false, now: Date
        ) {
            self.gdprApplies = gdprApplies
            self.decision = decision
            self.tcfPolicyVersion = tcfPolicyVersion
            self.publisherVendorIds = publisherVendorIds
            self.adTechProviderIds = adTechProviderIds
            self.nonPersonalizedOnly = nonPersonalizedOnly
            self.underAgeOfConsent = underAgeOfConsent
            self.now = now
        }
    }

    /// The rules' answer and the rule that gave it.
    public enum Verdict: Sendable, Equatable {
        /// Do not ask: GDPR does not apply.
        case gdprDoesNotApply
        /// Do not ask yet: the region is not known and ``whenRegionUnknown`` is
        /// ``RegionUnknownPolicy/doNotAsk``.
        case regionUnknown
        /// Do not ask: the user is tagged as under the age of consent.
        case underAgeOfConsent
        /// Do not ask: the stored decision still holds.
        case decisionHolds
        /// Ask: there is no decision.
        case noDecision
        /// Ask: the decision was made under another TCF policy version than the vendor list's.
        case policyVersionChanged(decided: Int, current: Int)
        /// Ask: these vendors were added since the decision.
        case vendorsAdded(IDSet)
        /// Ask: these Google ad-tech providers were added since the decision.
        case adTechProvidersAdded(IDSet)
        /// Ask: a publisher started or stopped serving only non-personalized ads.
        case nonPersonalizedOnlyChanged(now: Bool)
        /// Ask: the decision is older than the maximum age.
        case expired(decidedAt: Date)
        /// Ask: the notice changed materially since the decision.
        case materialNoticeChange(decidedOn: Int, current: Int)

        /// Whether the user should be asked.
        public var shouldAsk: Bool {
            switch self {
            case .gdprDoesNotApply, .regionUnknown, .underAgeOfConsent, .decisionHolds: false
            case .noDecision, .policyVersionChanged, .vendorsAdded, .adTechProvidersAdded, .nonPersonalizedOnlyChanged, .expired,
                 .materialNoticeChange: true
            }
        }
    }

    /// Whether the app may request ads in `situation`: in the US always (the notice at collection
    /// is shown beside the ads, never before them), elsewhere when the rules do not ask.
    public func canRequestAds(_ situation: Situation) -> Bool {
        isUSPrivacy(situation) || !evaluate(situation).shouldAsk
    }

    /// Rule 0 decides: a US section is in force and GDPR does not apply.
    private func isUSPrivacy(_ situation: Situation) -> Bool {
        situation.usPrivacyApplies && situation.gdprApplies != .applies
    }

    /// Applies the rules to `situation`.
    public func evaluate(_ situation: Situation) -> Verdict {
        if isUSPrivacy(situation) {
            guard let choice = situation.usChoice else { return .noDecision }
            if choice.noticeVersion < materialNoticeVersion {
                return .materialNoticeChange(decidedOn: choice.noticeVersion, current: materialNoticeVersion)
            }
            return .decisionHolds
        }
        switch situation.gdprApplies {
        case .doesNotApply: return .gdprDoesNotApply
        case .undetermined: if whenRegionUnknown == .doNotAsk { return .regionUnknown }
        case .applies: break
        }
        if situation.underAgeOfConsent { return .underAgeOfConsent }
        guard let decision = situation.decision else { return .noDecision }
        if let current = situation.tcfPolicyVersion, !decision.isUnderPolicy(current) {
            return .policyVersionChanged(decided: decision.tcfPolicyVersion, current: current)
        }
        if let added = situation.publisherVendorIds?.subtracting(decision.disclosedVendors), !added.isEmpty {
            return .vendorsAdded(added)
        }
        if let added = situation.adTechProviderIds?.subtracting(decision.disclosedAdTechProviders), !added.isEmpty {
            return .adTechProvidersAdded(added)
        }
        if let current = situation.nonPersonalizedOnly, current != decision.nonPersonalizedOnly {
            return .nonPersonalizedOnlyChanged(now: current)
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        if let expiry = calendar.date(byAdding: .month, value: maximumAge, to: decision.updated), situation.now >= expiry {
            return .expired(decidedAt: decision.updated)
        }
        if decision.noticeVersion < materialNoticeVersion {
            return .materialNoticeChange(decidedOn: decision.noticeVersion, current: materialNoticeVersion)
        }
        return .decisionHolds
    }
}
