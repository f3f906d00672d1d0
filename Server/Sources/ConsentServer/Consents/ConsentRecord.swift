import Foundation

/// What a user chose, as one consent event carries it: the consent strings, the Google ads choice,
/// the purpose and vendor choices, and the proof of how the choice was made.
///
/// Id lists hold the ids the user granted (TCF style: an id that is absent was not granted).
public struct ConsentRecord: Codable, Sendable, Equatable {
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

    /// Creates a record.
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
}

/// The ads a user chose in Google's terms.
public enum GoogleAdsChoice: String, Codable, Sendable, CaseIterable {
    /// Personalized ads.
    case personalized
    /// Non-personalized ads only (`npa=1`).
    case nonPersonalized
    /// The paid, ad-free version.
    case adFree
}

/// The proof of a consent: which notice the user saw, in which language, through which SDK, and
/// how the choice was made.
public struct ConsentProof: Codable, Sendable, Equatable {
    /// The publisher's identifier of the notice shown.
    public var noticeId: String
    /// The version of that notice.
    public var noticeVersion: String
    /// The language the notice was shown in (BCP 47).
    public var language: String
    /// The version of the SDK that collected the choice.
    public var sdkVersion: String
    /// The platform the choice was made on.
    public var platform: Platform
    /// How the choice was made.
    public var method: Method

    /// Creates a proof.
    public init(noticeId: String, noticeVersion: String, language: String, sdkVersion: String, platform: Platform, method: Method) {
        self.noticeId = noticeId
        self.noticeVersion = noticeVersion
        self.language = language
        self.sdkVersion = sdkVersion
        self.platform = platform
        self.method = method
    }

    /// The platform a choice was made on.
    public enum Platform: String, Codable, Sendable, CaseIterable {
        /// An iOS app.
        case ios
        /// An Android app.
        case android
        /// A website.
        case web
        /// Anything else.
        case other
    }

    /// How a choice was made.
    public enum Method: String, Codable, Sendable, CaseIterable {
        /// The user accepted everything.
        case acceptAll
        /// The user refused everything.
        case rejectAll
        /// The user chose purpose by purpose or vendor by vendor.
        case custom
        /// The choice came from another of the user's devices.
        case sync
        /// The app set it through the API (for example from its own UI).
        case programmatic
    }
}
