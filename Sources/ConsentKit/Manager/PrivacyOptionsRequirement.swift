/// Whether the app must offer a way to re-open the consent choices (a "Privacy settings" entry),
/// as Google's UMP calls it: required wherever the user may be asked or has decided while GDPR
/// is not known not to apply, since withdrawing consent must be as easy as giving it.
public enum PrivacyOptionsRequirement: Sendable, Equatable {
    /// GDPR applies, or may (the user may be asked, or has decided, while the region is
    /// unknown): show the entry point and call ``ConsentManager/presentPrivacyOptions(with:)``
    /// from it.
    case required
    /// GDPR does not apply.
    case notRequired
    /// The region is not known, the user has not decided, and the rules wait for the region
    /// (``AskRules/RegionUnknownPolicy/doNotAsk``).
    case unknown

    /// The requirement for a region decision, under `rules`, with or without a decision held:
    /// required where GDPR applies (``AskRules/gdprApplies(region:hasDecision:)``), where the
    /// region is unknown and the rules ask there, where a decision is held while the region
    /// is unknown, and where a US section is in force (`usPrivacyApplies`: the "Your Privacy
    /// Choices" entry, through which a US user opts out at any time); not required where GDPR
    /// does not apply otherwise.
    public init(region: GDPRApplicability, hasDecision: Bool, rules: AskRules, usPrivacyApplies: Bool = false) {
        if usPrivacyApplies {
            self = .required
            return
        }
        switch rules.gdprApplies(region: region, hasDecision: hasDecision) {
        case .applies: self = .required
        case .doesNotApply: self = .notRequired
        case .undetermined: self = rules.whenRegionUnknown == .ask || hasDecision ? .required : .unknown
        }
    }
}
