/// The PublisherTC segment (type 3): the publisher's own purposes; nil if absent.
    public internal(set) var publisherTC: PublisherTC?

    /// Creates a TC string value; see each property for its meaning.
    ///
    /// Encoding checks the value fits the format (``TCFEncodingError``); constructing does not.
    public init(
        version: Int = 2,
        created: TCFTimestamp,
        lastUpdated: TCFTimestamp,
        cmpId: Int,
        cmpVersion: Int,
        consentScreen: Int,
        consentLanguage: String,
        vendorListVersion: Int,
        tcfPolicyVersion: Int,
        isServiceSpecific: Bool = true,
        useNonStandardTexts: Bool = false,
        specialFeatureOptIns: IDSet = [],
        purposesConsent: IDSet = [],
        purposesLITransparency: IDSet = [],
        purposeOneTreatment: Bool = false,
        publisherCC: String = "AA",
        vendorConsents: IDSet = [],
        vendorLegitimateInterests: IDSet = [],
        publisherRestrictions: [PublisherRestriction] = [],
        disclosedVendors: IDSet? = nil,
        allowedVendors: IDSet? = nil,
        publisherTC: PublisherTC? = nil
    ) {
        self.version = version
        self.created = created
        self.lastUpdated = lastUpdated
        self.cmpId = cmpId
        self.cmpVersion = cmpVersion
        self.consentScreen = consentScreen
        self.consentLanguage = consentLanguage
        self.vendorListVersion = vendorListVersion
        self.tcfPolicyVersion = tcfPolicyVersion
        self.isServiceSpecific = isServiceSpecific
        self.useNonStandardTexts = useNonStandardTexts
        self.specialFeatureOptIns = specialFeatureOptIns
        self.purposesConsent = purposesConsent
        self.purposesLITransparency = purposesLITransparency
        self.purposeOneTreatment = purposeOneTreatment
        self.publisherCC = publisherCC
        self.vendorConsents = vendorConsents
        self.vendorLegitimateInterests = vendorLegitimateInterests
        self.publisherRestrictions = publisherRestrictions
        self.disclosedVendors = disclosedVendors
        self.allowedVendors = allowedVendors
        self.publisherTC = publisherTC
    }

    /// The restriction the publisher placed on `vendorId` for `purposeId`, if any (the last
    /// entry wins when a vendor is listed more than once for the same purpose).
    public func restrictionType(vendorId: Int, purposeId: Int) -> PublisherRestriction.RestrictionType? {
        publisherRestrictions.last { $0.purposeId == purposeId && $0.vendorIds.contains(vendorId) }?.restrictionType
    }
}

/// One publisher restriction entry: for `purposeId`, the listed vendors must follow
/// `restrictionType`.
public struct PublisherRestriction: Sendable, Equatable {
    /// `RestrictionType`: what the publisher requires (2 bits).
    public enum RestrictionType: Int, Sendable, CaseIterable {
        /// 0: the purpose is not allowed for the listed vendors.
        case notAllowed = 0
        /// 1: the vendors must use consent as legal basis (they are flexible).
        case requireConsent = 1
        /// 2: the vendors must use legitimate interest as legal basis.
        case requireLegitimateInterest = 2
        /// 3: reserved by the spec; decodes, and is reported by validation.
        case undefined = 3
    }

    /// `PurposeId`: the purpose restricted (6 bits).
    public let purposeId: Int
    /// `RestrictionType`: what the publisher requires.
    public let restrictionType: RestrictionType
    /// The vendors the restriction applies to; may name ids not (or no longer) on the list.
    public let vendorIds: IDSet

    /// A restriction of `purposeId` for `vendorIds`.
    public init(purposeId: Int, restrictionType: RestrictionType, vendorIds: IDSet) {
        self.purposeId = purposeId
        self.restrictionType = restrictionType
        self.vendorIds = vendorIds
    }
}

/// The PublisherTC segment: the publisher's own transparency and consent signals.
public struct PublisherTC: Sendable, Equatable {
    /// `PubPurposesConsent`: standard purposes (1-24) the user consented to for the publisher.
    public let pubPurposesConsent: IDSet
    /// `PubPurposesLITransparency`: standard purposes (1-24) under the publisher's legitimate
    /// interest, disclosed and not objected to.
    public let pubPurposesLITransparency: IDSet
    /// `NumCustomPurposes`: how many custom purposes the publisher defined (0-63).
    public let numCustomPurposes: Int
    /// `CustomPurposesConsent`: custom purposes (1-`numCustomPurposes`) consented to.
    public let customPurposesConsent: IDSet
    /// `CustomPurposesLITransparency`: custom purposes under legitimate interest, not objected to.
    public let customPurposesLITransparency: IDSet

    /// A PublisherTC segment; custom purpose ids must lie in `1...numCustomPurposes`.
    public init(
        pubPurposesConsent: IDSet = [], pubPurposesLITransparency: IDSet = [], numCustomPurposes: Int = 0,
        customPurposesConsent: IDSet = [], customPurposesLITransparency: IDSet = []
    ) {
        self.pubPurposesConsent = pubPurposesConsent
        self.pubPurposesLITransparency = pubPurposesLITransparency
        self.numCustomPurposes = numCustomPurposes
        self.customPurposesConsent = customPurposesConsent
        self.customPurposesLITransparency = customPurposesLITransparency
    }
}
