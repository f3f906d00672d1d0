import TCF

/// The Google Consent SDK's status: whether ads may be personalized.
public enum GoogleConsentStatus: String, Sendable, Equatable, Codable {
    /// No decision, or one Google's re-consent rule set aside: ask the user.
    case unknown
    /// The user agreed to personalized ads.
    case personalized
    /// The user chose non-personalized ads (or the publisher serves only those).
    case nonPersonalized = "non_personalized"

    /// Google's IAB vendor id ("Google Advertising Products").
    public static let googleVendorId = 755

    /// The purposes Google needs consent for to personalize ads: 1 (store and access), 3 and 4
    /// (create and use an ads profile).
    public static let personalizationPurposes: IDSet = [1, 3, 4]

    /// The status a decision gives, judged against consentd's current answer by Google's rule:
    /// unknown when there is no decision, when an ad-tech provider the user has not seen was
    /// added, or when a publisher started or stopped serving only non-personalized ads (the rule
    /// applies only where GDPR applies or is undetermined; never for a rename or a removal);
    /// personalized when Google (vendor 755) has consent for purposes 1, 3 and 4 and no
    /// publisher serves only non-personalized ads; non-personalized otherwise.
    public static func of(_ decision: ConsentState?, config: AppConfig?, gdprApplies: GDPRApplicability) -> GoogleConsentStatus {
        guard let decision else { return .unknown }
        if gdprApplies != .doesNotApply, let config {
            if !config.adTechProviderIds.isSubset(of: decision.disclosedAdTechProviders) { return .unknown }
            if config.nonPersonalizedOnly != decision.nonPersonalizedOnly { return .unknown }
        }
        let personalized = !decision.nonPersonalizedOnly && decision.vendorConsents.contains(googleVendorId)
            && personalizationPurposes.isSubset(of: decision.purposeConsents)
        return personalized ? .personalized : .nonPersonalized
    }
}
