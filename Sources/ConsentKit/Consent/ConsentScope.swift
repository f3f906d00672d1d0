import TCF

/// What a consent notice covers: the vendor list it shows, the publisher's vendors and own
/// purposes, and the notice's settings. ``ConsentState/agreeToAll(scope:at:)`` and
/// ``ConsentState/disagreeToAll(scope:at:)`` turn it into a decision.
public struct ConsentScope: Sendable {
    /// The vendor list shown (the per-app trimmed list or the whole GVL).
    public let vendorList: VendorList
    /// The vendors disclosed: the publisher's selection that the list holds and has not
    /// deleted, or every vendor of the list when the publisher made no selection.
    public let vendorIds: IDSet
    /// The publisher's own purposes asked on consent.
    public let publisherPurposes: IDSet
    /// The publisher's own purposes on legitimate interest (those TCF allows on it).
    public let publisherLegitimateInterestPurposes: IDSet
    /// How many custom purposes the publisher defined (0-63).
    public let numCustomPurposes: Int
    /// Custom purposes on legitimate interest rather than consent.
    public let customLegitimateInterestPurposes: IDSet
    /// The publisher's country (`AA` unknown).
    public let publisherCC: String
    /// Purpose 1 is not disclosed (where a country's law allows it).
    public let purposeOneTreatment: Bool
    /// The notice uses non-standard texts.
    public let useNonStandardTexts: Bool
    /// The publisher's restrictions on vendors' purposes.
    public let publisherRestrictions: [PublisherRestriction]
    /// The notice screen (0-63) recorded as `ConsentScreen`.
    public let consentScreen: Int
    /// The notice's language, recorded upper-case as `ConsentLanguage`.
    public let consentLanguage: String
    /// The publisher's version of the notice text.
    public let noticeVersion: Int
    /// The Google ad-tech providers the notice discloses (Additional Consent).
    public let adTechProviderIds: IDSet
    /// A publisher of the app serves only non-personalized ads.
    public let nonPersonalizedOnly: Bool

    /// Describes a notice. Vendor ids the list does not hold, or holds as deleted, are left out.
    public init(
        vendorList: VendorList, vendorIds: IDSet? = nil, publisherPurposes: IDSet = [],
        publisherLegitimateInterestPurposes: IDSet = [], numCustomPurposes: Int = 0,
        customLegitimateInterestPurposes: IDSet = [], publisherCC: String = "AA", purposeOneTreatment: Bool = false,
        useNonStandardTexts: Bool = false, publisherRestrictions: [PublisherRestriction] = [],
        consentScreen: Int = 0, consentLanguage: String = "EN", noticeVersion: Int = 0, adTechProviderIds: IDSet = [],
        nonPersonalizedOnly: Bool = false
    ) {
        self.vendorList = vendorList
        let listed = vendorList.activeVendorIds()
        self.vendorIds = vendorIds.map { $0.intersection(listed) } ?? listed
        self.publisherPurposes = publisherPurposes
        self.publisherLegitimateInterestPurposes = publisherLegitimateInterestPurposes.subtracting(TCString.consentOnlyPurposes)
        self.numCustomPurposes = numCustomPurposes
        self.customLegitimateInterestPurposes = customLegitimateInterestPurposes
        self.publisherCC = publisherCC.uppercased()
        self.purposeOneTreatment = purposeOneTreatment
        self.useNonStandardTexts = useNonStandardTexts
        self.publisherRestrictions = publisherRestrictions
        self.consentScreen = consentScreen
        self.consentLanguage = consentLanguage.uppercased()
        self.noticeVersion = noticeVersion
        self.adTechProviderIds = adTechProviderIds
        self.nonPersonalizedOnly = nonPersonalizedOnly
    }

    /// The disclosed vendors, as the list describes them.
    var vendors: [Vendor] {
        vendorIds.compactMap { vendorList.vendors[$0] }
    }
}
