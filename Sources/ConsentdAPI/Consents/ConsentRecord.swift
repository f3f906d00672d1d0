/// What a user chose, as one consent event carries it: the consent strings, the Google ads
/// choice, the purpose and vendor choices, and the proof of how the choice was made.
///
/// Id lists hold the ids the user granted (TCF style: an id that is absent was not granted). Every
/// field but ``proof`` is optional; an event needs at least one of them. Absent fields are left
/// out of the JSON.
///
/// Beside the TCF fields, the record holds what iubenda's consent database keeps: free-form
/// ``preferences`` and the ``legalNotices`` shown with their versions.
///
/// A record is of one ``Kind``: a TCF decision (``Kind/tcf``, also every record without
/// ``kind``, as older clients send them) or a US privacy choice (``Kind/us``, with ``usChoice``
/// and ``gppString``). consentd keeps the newest record of each kind as the subject's state, so
/// a choice of one kind never replaces a decision of the other (decision record 0035).
public struct ConsentRecord: Sendable, Equatable, Codable {
    /// What a record decides; the raw values are the API's.
    public enum Kind: String, Sendable, Equatable, Codable, CaseIterable {
        /// A TCF decision (and what rides with it: the Google choice, preferences, legal notices).
        case tcf
        /// An answer to the US notice at collection: ``ConsentRecord/usChoice`` and the GPP
        /// string of the US sections in force.
        case us
    }

    /// What the record decides; absent (nil) reads as ``Kind/tcf``, as every record of a client
    /// older than the kinds is one. ``recordKind`` reads it with that default.
    public var kind: Kind?
    /// A US choice's values (``Kind/us`` only).
    public var usChoice: USChoiceRecord?
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
        preferences: [String: PreferenceValue]? = nil, legalNotices: [LegalNotice]? = nil, kind: Kind? = nil,
        usChoice: USChoiceRecord? = nil, proof: ConsentProof
    ) {
        self.kind = kind
        self.usChoice = usChoice
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
        /// `kind`.
        case kind
        /// `usChoice`.
        case usChoice
        /// `proof`.
        case proof
    }

    /// What the record decides: ``kind``, ``Kind/tcf`` when absent.
    public var recordKind: Kind { kind ?? .tcf }
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
