/// What a user chose, as one consent event carries it: the consent strings, the Google ads
/// choice, the purpose and vendor choices, and the proof of how the choice was made.
///
/// Id lists hold the ids the user granted (TCF style: an id that is absent was not granted). Every
/// field but ``proof`` is optional; an event needs at least one of them. Absent fields are left
/// out of the JSON.
public struct ConsentRecord: Sendable, Equatable, Codable {
    /// The TCF v2.x TC string.
    public var tcString: String?
    /// The TCF v1.1 consent string.
    public var consentStringV1: String?
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
    /// How the choice was made.
    public var proof: ConsentProof

    /// Creates a record; give at least one of the consent fields.
    public init(
        tcString: String? = nil, consentStringV1: String? = nil, googleAdsChoice: GoogleAdsChoice? = nil,
        additionalConsent: String? = nil, purposeConsents: [Int]? = nil, purposeLegitimateInterests: [Int]? = nil,
        specialFeatureOptins: [Int]? = nil, vendorConsents: [Int]? = nil, vendorLegitimateInterests: [Int]? = nil,
        proof: ConsentProof
    ) {
        self.tcString = tcString
        self.consentStringV1 = consentStringV1
        self.googleAdsChoice = googleAdsChoice
        self.additionalConsent = additionalConsent
        self.purposeConsents = purposeConsents
        self.purposeLegitimateInterests = purposeLegitimateInterests
        self.specialFeatureOptins = specialFeatureOptins
        self.vendorConsents = vendorConsents
        self.vendorLegitimateInterests = vendorLegitimateInterests
        self.proof = proof
    }

    /// The JSON field names, as the API spells them.
    public enum CodingKeys: String, CodingKey, CaseIterable, Sendable {
        /// `tcString`.
        case tcString
        /// `consentStringV1`.
        case consentStringV1
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
