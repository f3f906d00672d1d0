/// A decoded TCF v2.x TC string: the core segment and the optional segments that came with it.
///
/// Field names follow the spec ("Consent string and vendor list formats v2", core segment).
/// The value holds what the string means, not how it was written: whether a section was a
/// bitfield or a range list, and the order of the segments, are the encoder's business, so
/// `TCString(decoding: s).encoded()` may differ from `s` in bits yet decodes to an equal value.
///
/// ```swift
/// let tc = try TCString(decoding: "CQSbk4AQSbk4ANwAAAENAwCgAAAAAAAAAAYgACPAAAAA.IDKQA4AAgAKAGQAygAAA")
/// tc.cmpId                        // 880
/// tc.vendorConsents.contains(2)   // true
/// tc.disclosedVendors?.contains(404) // true
/// ```
public struct TCString: Sendable, Equatable {
    /// `Version`: 2 for every TCF v2.x string.
    public let version: Int
    /// `Created`: when the string was first created (day resolution in TCF 2.2 practice).
    public let created: TCFTimestamp
    /// `LastUpdated`: when the string was last changed.
    public let lastUpdated: TCFTimestamp
    /// `CmpId`: the registered id of the CMP that last updated the string.
    public let cmpId: Int
    /// `CmpVersion`: the CMP's version.
    public let cmpVersion: Int
    /// `ConsentScreen`: the CMP-specific screen where consent was last given.
    public let consentScreen: Int
    /// `ConsentLanguage`: the ISO 639-1 language of the notice, upper-case (`EN`).
    public let consentLanguage: String
    /// `VendorListVersion`: the Global Vendor List version the string was made with.
    public let vendorListVersion: Int
    /// `TcfPolicyVersion`: the TCF policy version (4 for TCF 2.2, 5 in current lists).
    public let tcfPolicyVersion: Int
    /// `IsServiceSpecific`: the string applies to this service only (must be true since 2021).
    public let isServiceSpecific: Bool
    /// `UseNonStandardTexts`: the publisher customised the standard purpose texts.
    public let useNonStandardTexts: Bool
    /// `SpecialFeatureOptIns`: the special features (1-12) the user opted in to.
    public let specialFeatureOptIns: IDSet
    /// `PurposesConsent`: the purposes (1-24) the user consented to.
    public let purposesConsent: IDSet
    /// `PurposesLITransparency`: the purposes (1-24) whose legitimate interest was disclosed
    /// and not objected to.
    public let purposesLITransparency: IDSet
    /// `PurposeOneTreatment`: purpose 1 was not disclosed (some countries' laws).
    public let purposeOneTreatment: Bool
    /// `PublisherCC`: the publisher's ISO 3166-1 alpha-2 country, upper-case (`AA` = unknown).
    public let publisherCC: String
    /// The vendor consent section: vendors the user consented to.
    public let vendorConsents: IDSet
    /// The vendor legitimate-interest section: vendors whose legitimate interest was disclosed
    /// and not objected to.
    public let vendorLegitimateInterests: IDSet
    /// The publisher restrictions, in the order they were written.
    public let publisherRestrictions: [PublisherRestriction]
    // The three optional segments are spelled `Optional<…>`, not `…?`: a `var` of type `T?`
    // starts as nil before the initializer runs, so the initializer's store was an assignment,
    // and the decoder paid a retain and a release of the whole value (every stored reference)
    // and a copy of it at the end of each decode. Same type, same API.
    /// The DisclosedVendors segment (type 1): vendors disclosed to the user; nil if absent.
    public internal(set) var disclosedVendors: Optional<IDSet>
    /// The AllowedVendors segment (type 2, TCF v2.0 only, retired in 2021): vendors the
    /// publisher allowed; nil if absent. Kept so that old strings decode and re-encode whole.
    public internal(set) var allowedVendors: Optional<IDSet>
    /// The PublisherTC segment (type 3): the publisher's own purposes; nil if absent.
    public internal(set) var publisherTC: Optional<PublisherTC>

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
