/// What a user chose, as one consent event carries it: the consent strings, the Google ads
/// choice, the purpose and vendor choices, and the proof of how the choice was made.
///
/// Id lists hold the ids the user granted (TCF style: an id that is absent was not granted). Every
/// field but ``proof`` is optional; an event needs at least one of them. Absent fields are left
/// out of the JSON.
///
/// Beside the TCF fields, the record holds what iubenda's consent database keeps: free-form
/// ``preferences`` and the ``legalNotices`` shown with their versions.
public struct ConsentRecord: Sendable, Equatable, Codable {
    /// The TCF v2.x TC string.
    public var tcString: String?
    /// The TCF v1.1 consent string.
    public var consentStringV1: String?
    /// The IAB Global Privacy Platform string of the sections in force when the choice was made
    /// (a US choice's state or national section, and tcfeuv2 where the TCF applies too). Absent in
    /// events of clients older than GPP support.
    public var gppString: String?
    /// The choice Google's ads stack acts on.
    public var googleAdsChoice: GoogleAdsChoice?
    /// Google's Additional Consent string (`2~1.35~dv.9`).
    public var additionalConsent: String?
    /// Purposes consented to.
    public var purposeConsents: [Int]?
    /// Purposes whose legitimate interest the user did not object to.
    public var purposeLegitimateInterests: [Int]?
    /// Special features opted in to.
    public var specialFeatureOptins: [Int]?
    /// Vendors consented to.
    public var vendorConsents: [Int]?
    /// Vendors whose legitimate interest the user did not object to.
    public var vendorLegitimateInterests: [Int]?
    /// Free-form choices outside the TCF (a newsletter, profiling), by the publisher's own keys
    /// (1-100 bytes each, at most ``maximumPreferenceCount``): iubenda's `preferences`.
    public var preferences: [String: PreferenceValue]?
    /// The legal documents shown with the choice, by identifier and version (at most
    /// ``maximumLegalNoticeCount``, each identifier once): iubenda's `legal_notices`.
    public var legalNotices: [LegalNotice]?
    /// How the choice was made.
    public var proof: ConsentProof

    /// The most entries ``preferences`` may hold.
    public static let maximumPreferenceCount = 64
    /// The longest string value of ``preferences``, in UTF-8 bytes.
    public static let maximumPreferenceStringLength = 1024
    /// The most bytes ``preferences`` may take as canonical JSON (keys sorted, no spaces).
    public static let maximumPreferencesSize = 8192
    /// The most entries ``legalNotices`` may hold.
    public static let maximumLegalNoticeCount = 32

    /// Creates a record; give at least one of the consent fields.
    public init(
        tcString: String? = nil, consentStringV1: String? = nil, gppString: String? = nil, googleAdsChoice: GoogleAdsChoice? = nil,
        additionalConsent: String? = nil, purposeConsents: [Int]? = nil, purposeLegitimateInterests: [Int]? = nil,
        specialFeatureOptins: [Int]? = nil, vendorConsents: [Int]? = nil, vendorLegitimateInterests: [Int]? = nil,
        preferences: [String: PreferenceValue]? = nil, legalNotices: [LegalNotice]? = nil, proof: ConsentProof
    ) {
        self.tcString = tcString
        self.consentStringV1 = consentStringV1
        self.gppString = gppString
        self.googleAdsChoice = googleAdsChoice
        self.additionalConsent = additionalConsent
        self.purposeConsents = purposeConsents
        self.purposeLegitimateInterests = purposeLegitimateInterests
        self.specialFeatureOptins = specialFeatureOptins
        self.vendorConsents = vendorConsents
        self.vendorLegitimateInterests = vendorLegitimateInterests
        self.preferences = preferences
        self.legalNotices = legalNotices
        self.proof = proof
    }

    /// The JSON field names, as the API spells them.
    public enum CodingKeys: String, CodingKey, CaseIterable, Sendable {
        /// `tcString`.
        case tcString
        /// `consentStringV1`.
        case consentStringV1
        /// `gppString`.
        case gppString
        /// `googleAdsChoice`.
        case googleAdsChoice
        /// `additionalConsent`.
        case additionalConsent
        /// `purposeConsents`.
        case purposeConsents
        /// `purposeLegitimateInterests`.
        case purposeLegitimateInterests
        /// `specialFeatureOptins`.
        case specialFeatureOptins
        /// `vendorConsents`.
        case vendorConsents
        /// `vendorLegitimateInterests`.
        case vendorLegitimateInterests
        /// `preferences`.
        case preferences
        /// `legalNotices`.
        case legalNotices
        /// `proof`.
        case proof
    }
}

/// The ads a user chose in Google's terms; the raw values are the API's.
public enum GoogleAdsChoice: String, Sendable, Equatable, Codable, CaseIterable {
    /// Personalized ads.
    case personalized
    /// Non-personalized ads only (`npa=1`).
    case nonPersonalized
    /// The paid, ad-free version.
    case adFree
}
