/// Whether the app must offer a way to re-open the consent choices (a "Privacy settings" entry),
/// as Google's UMP calls it: required wherever GDPR applies, since withdrawing consent must be as
/// easy as giving it.
public enum PrivacyOptionsRequirement: Sendable, Equatable {
    /// GDPR applies: show the entry point and call ``ConsentManager/presentPrivacyOptions(with:)``
    /// from it.
    case required
    /// GDPR does not apply.
    case notRequired
    /// The region is not known yet (before the first refresh, or consentd could not tell).
    case unknown

    /// The requirement for a region decision.
    public init(_ gdprApplies: GDPRApplicability) {
        switch gdprApplies {
        case .applies: self = .required
        case .doesNotApply: self = .notRequired
        case .undetermined: self = .unknown
        }
    }
}
