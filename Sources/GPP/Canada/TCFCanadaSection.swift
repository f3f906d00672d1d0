import TCF

/// Section 5, `tcfcav1`: IAB Canada's TCF, field names as its GPP section spec spells them.
///
/// Canada's TCF speaks of express and implied consent where the EU's speaks of consent and
/// legitimate interest; the publisher restriction types read accordingly (1 require express
/// consent, 2 require implied consent).
public struct TCFCanadaSection: Sendable, Equatable {
    /// How the vendor lists, publisher restrictions and disclosed vendors are written.
    public enum RangeEncoding: Sendable, Equatable, CaseIterable {
        /// The spec's OptimizedRange: a bitfield or a Range(Fibonacci); restrictions as
        /// N-ArrayOfRanges(6, 2) of OptimizedRanges. What this module writes for new values.
        case fibonacci
        /// The 16-bit integer ranges iabgpp-java and iabgpp-es before 3.2.0 wrote (OptimizedIntRange,
        /// restrictions as TCF range entries); read, and written back for values read so.
        case legacyIntegerRanges
    }

    /// `Version`: 1.
    public var version: Int
    /// `Created`.
    public var created: TCFTimestamp
    /// `LastUpdated`.
    public var lastUpdated: TCFTimestamp
    /// `CmpId`.
    public var cmpId: Int
    /// `CmpVersion`.
    public var cmpVersion: Int
    /// `ConsentScreen`.
    public var consentScreen: Int
    /// `ConsentLanguage`: ISO 639-1, upper-case (`EN`, `FR`).
    public var consentLanguage: String
    /// `VendorListVersion`.
    public var vendorListVersion: Int
    /// `TcfPolicyVersion`.
    public var tcfPolicyVersion: Int
    /// `UseNonStandardStacks`.
    public var useNonStandardStacks: Bool
    /// `SpecialFeatureExpressConsent`: special features (1–12) with express consent.
    public var specialFeatureExpressConsent: IDSet
    /// `PurposesExpressConsent`: purposes (1–24) with express consent.
    public var purposesExpressConsent: IDSet
    /// `PurposesImpliedConsent`: purposes (1–24) with implied consent not objected to.
    public var purposesImpliedConsent: IDSet
    /// `VendorExpressConsent`.
    public var vendorExpressConsent: IDSet
    /// `VendorImpliedConsent`.
    public var vendorImpliedConsent: IDSet
    /// `PubRestrictions`: per purpose and type, the vendors restricted.
    public var pubRestrictions: [PublisherRestriction]
    /// `DisclosedVendors` (sub-section 1); nil when absent.
    public var disclosedVendors: IDSet?
    /// The publisher purposes sub-section (3); nil when absent.
    public var publisherPurposes: PublisherPurposes?
    /// How the ranges are written; decoding records what it read. Not part of the value's
    /// meaning: `==` ignores it (many values, such as empty or bitfield-only vendor lists, are
    /// written alike in both encodings).
    public var rangeEncoding: RangeEncoding

    /// Equal sections mean the same: every field but ``rangeEncoding`` is equal.
    public static func == (lhs: TCFCanadaSection, rhs: TCFCanadaSection) -> Bool {
        var lhs = lhs
        lhs.rangeEncoding = rhs.rangeEncoding
        return lhs.isIdentical(to: rhs)
    }

    /// Every field equal, ``rangeEncoding`` included.
    private func isIdentical(to other: TCFCanadaSection) -> Bool {
        version == other.version && created == other.created && lastUpdated == other.lastUpdated && cmpId == other.cmpId
            && cmpVersion == other.cmpVersion && consentScreen == other.consentScreen && consentLanguage == other.consentLanguage
            && vendorListVersion == other.vendorListVersion && tcfPolicyVersion == other.tcfPolicyVersion
            && useNonStandardStacks == other.useNonStandardStacks
            && specialFeatureExpressConsent == other.specialFeatureExpressConsent
            && purposesExpressConsent == other.purposesExpressConsent && purposesImpliedConsent == other.purposesImpliedConsent
            && vendorExpressConsent == other.vendorExpressConsent && vendorImpliedConsent == other.vendorImpliedConsent
            && pubRestrictions == other.pubRestrictions && disclosedVendors == other.disclosedVendors
            && publisherPurposes == other.publisherPurposes && rangeEncoding == other.rangeEncoding
    }

    /// The publisher purposes sub-section.
    public struct PublisherPurposes: Sendable, Equatable {
        /// `PubPurposesExpressConsent`.
        public var pubPurposesExpressConsent: IDSet
        /// `PubPurposesImpliedConsent`.
        public var pubPurposesImpliedConsent: IDSet
        /// `NumCustomPurposes` (0–63).
        public var numCustomPurposes: Int
        /// `CustomPurposesExpressConsent` (ids 1…`numCustomPurposes`).
        public var customPurposesExpressConsent: IDSet
        /// `CustomPurposesImpliedConsent` (ids 1…`numCustomPurposes`).
        public var customPurposesImpliedConsent: IDSet

        /// A publisher purposes sub-section.
        public init(
            pubPurposesExpressConsent: IDSet = [], pubPurposesImpliedConsent: IDSet = [], numCustomPurposes: Int = 0,
            customPurposesExpressConsent: IDSet = [], customPurposesImpliedConsent: IDSet = []
        ) {
            self.pubPurposesExpressConsent = pubPurposesExpressConsent
            self.pubPurposesImpliedConsent = pubPurposesImpliedConsent
            self.numCustomPurposes = numCustomPurposes
            self.customPurposesExpressConsent = customPurposesExpressConsent
            self.customPurposesImpliedConsent = customPurposesImpliedConsent
        }
    }

    /// A tcfcav1 section; see each property.
    public init(
        version: Int = 1, created: TCFTimestamp, lastUpdated: TCFTimestamp, cmpId: Int, cmpVersion: Int,
        consentScreen: Int, consentLanguage: String, vendorListVersion: Int, tcfPolicyVersion: Int,
        useNonStandardStacks: Bool = false, specialFeatureExpressConsent: IDSet = [], purposesExpressConsent: IDSet = [],
        purposesImpliedConsent: IDSet = [], vendorExpressConsent: IDSet = [], vendorImpliedConsent: IDSet = [],
        pubRestrictions: [PublisherRestriction] = [], disclosedVendors: IDSet? = nil,
        publisherPurposes: PublisherPurposes? = nil, rangeEncoding: RangeEncoding = .fibonacci
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
        self.useNonStandardStacks = useNonStandardStacks
        self.specialFeatureExpressConsent = specialFeatureExpressConsent
        self.purposesExpressConsent = purposesExpressConsent
        self.purposesImpliedConsent = purposesImpliedConsent
        self.vendorExpressConsent = vendorExpressConsent
        self.vendorImpliedConsent = vendorImpliedConsent
        self.pubRestrictions = pubRestrictions
        self.disclosedVendors = disclosedVendors
        self.publisherPurposes = publisherPurposes
        self.rangeEncoding = rangeEncoding
    }
}
