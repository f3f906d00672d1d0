/// Why a vendor may not process: the first TCF rule, in the order the Implementation
/// Guidelines evaluate them, that the signals did not satisfy.
public enum RefusalReason: Sendable, Hashable, CustomStringConvertible {
    /// The CMP has not decided whether the GDPR applies (`gdprApplies` unset or unreadable).
    /// Wait for a change (``IABConsentReader/observe(_:)``) before processing.
    case gdprApplicabilityUndetermined
    /// The vendor id is outside 1-65535.
    case invalidVendorId
    /// A publisher restriction of type 0 forbids the purpose to this vendor.
    case notAllowedByPublisher
    /// The vendor did not declare the purpose (or special feature), so no signal can allow it,
    /// and a legal-basis restriction on an undeclared purpose forbids it.
    case notDeclared
    /// A restriction of type 1 requires consent, and the vendor registered the purpose on
    /// legitimate interest without declaring it flexible.
    case publisherRequiresConsent
    /// A restriction of type 2 requires legitimate interest, and the vendor registered the
    /// purpose on consent without declaring it flexible.
    case publisherRequiresLegitimateInterest
    /// The legal basis would be legitimate interest, which TCF 2.2 does not allow for
    /// purposes 1, 3, 4, 5 and 6.
    case legitimateInterestNotPermitted
    /// The user did not consent to the purpose.
    case noPurposeConsent
    /// Purpose 1 was not disclosed (`PurposeOneTreatment` is 1) so it carries no consent;
    /// whether the vendor needs that consent depends on the law of `publisherCC`, a call the
    /// vendor must make itself.
    case purposeOneNotDisclosed(publisherCC: String?)
    /// The user did not consent to the vendor.
    case noVendorConsent
    /// No legitimate interest was established for the purpose (not disclosed, or objected to).
    case noPurposeLegitimateInterest
    /// No legitimate interest was established for the vendor (not disclosed, or objected to).
    case noVendorLegitimateInterest
    /// The user did not opt in to the special feature.
    case noSpecialFeatureOptIn
    /// The key the rule needed holds a value that cannot be read (see
    /// ``IABConsentSnapshot/malformedKeys``); fix the CMP that wrote it.
    case malformedSignal(key: String)

    /// The reason, for a person.
    public var description: String {
        switch self {
        case .gdprApplicabilityUndetermined: "whether the GDPR applies is undetermined"
        case .invalidVendorId: "the vendor id is outside 1-65535"
        case .notAllowedByPublisher: "a publisher restriction does not allow this purpose"
        case .notDeclared: "the vendor did not declare it"
        case .publisherRequiresConsent: "the publisher requires consent, which the vendor did not declare for this purpose"
        case .publisherRequiresLegitimateInterest:
            "the publisher requires legitimate interest, which the vendor did not declare for this purpose"
        case .legitimateInterestNotPermitted: "TCF 2.2 allows only consent for purposes 1, 3, 4, 5 and 6"
        case .noPurposeConsent: "no consent for the purpose"
        case .purposeOneNotDisclosed(let country):
            "purpose 1 was not disclosed (publisher country \(country ?? "unknown")); no consent signal"
        case .noVendorConsent: "no consent for the vendor"
        case .noPurposeLegitimateInterest: "no legitimate interest established for the purpose"
        case .noVendorLegitimateInterest: "no legitimate interest established for the vendor"
        case .noSpecialFeatureOptIn: "no opt-in for the special feature"
        case .malformedSignal(let key): "\(key) holds a value that cannot be read"
        }
    }
}
