import TCF

/// Google Consent Mode v2: the four signals Google's SDKs (Firebase, Google Mobile Ads) take.
public struct ConsentModeSignals: Sendable, Equatable {
    /// One signal's value.
    public enum Value: String, Sendable, Equatable {
        /// Allowed.
        case granted
        /// Not allowed.
        case denied
    }

    /// Storage (cookies, device identifiers) for advertising.
    public var adStorage: Value
    /// Storage for analytics.
    public var analyticsStorage: Value
    /// Sending user data to Google for advertising.
    public var adUserData: Value
    /// Personalized advertising (remarketing).
    public var adPersonalization: Value

    /// Signals with each value given.
    public init(adStorage: Value, analyticsStorage: Value, adUserData: Value, adPersonalization: Value) {
        self.adStorage = adStorage
        self.analyticsStorage = analyticsStorage
        self.adUserData = adUserData
        self.adPersonalization = adPersonalization
    }

    /// Every signal granted: the default where GDPR does not apply.
    public static let allGranted = ConsentModeSignals(adStorage: .granted, analyticsStorage: .granted, adUserData: .granted, adPersonalization: .granted)
    /// Every signal denied.
    public static let allDenied = ConsentModeSignals(adStorage: .denied, analyticsStorage: .denied, adUserData: .denied, adPersonalization: .denied)

    /// The signals by their Consent Mode names (`ad_storage`, `analytics_storage`,
    /// `ad_user_data`, `ad_personalization`), as Firebase's `setConsent` takes them.
    public var byName: [String: String] {
        ["ad_storage": adStorage.rawValue, "analytics_storage": analyticsStorage.rawValue,
         "ad_user_data": adUserData.rawValue, "ad_personalization": adPersonalization.rawValue]
    }

    /// The signals a decision gives where GDPR applies (or is undetermined). ConsentKit's
    /// mapping, with Google as IAB vendor 755, which must have consent for any ad signal:
    ///
    /// | signal | granted when the user consented to |
    /// |---|---|
    /// | `ad_storage` | purpose 1 (store and access information) |
    /// | `ad_user_data` | purposes 1 and 7 (measure advertising performance) |
    /// | `ad_personalization` | purposes 1, 3 and 4 (store, create and use an ads profile), and no publisher non-personalized-only |
    /// | `analytics_storage` | purposes 1 and 9 (understand audiences), Google not needed |
    ///
    /// No decision denies every signal. A user under the age of consent gets `ad_storage`,
    /// `ad_user_data` and `ad_personalization` denied whatever the decision says (their stored
    /// decision has no vendor consent anyway: ``ConsentState/underAgeOfConsent(at:)``);
    /// `analytics_storage` follows the decision.
    public static func from(_ decision: ConsentState?, underAgeOfConsent: Bool = false) -> ConsentModeSignals {
        guard let decision else { return .allDenied }
        let google = !underAgeOfConsent && decision.vendorConsents.contains(GoogleConsentStatus.googleVendorId)
        func consented(_ purposes: IDSet) -> Value { purposes.isSubset(of: decision.purposeConsents) ? .granted : .denied }
        return ConsentModeSignals(
            adStorage: google ? consented([1]) : .denied,
            analyticsStorage: consented([1, 9]),
            adUserData: google ? consented([1, 7]) : .denied,
            adPersonalization: google && !decision.nonPersonalizedOnly ? consented([1, 3, 4]) : .denied)
    }
}
