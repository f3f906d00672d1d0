import GPP
import TCF

/// What the IAB in-app keys said at one moment: the GDPR applicability, the consent strings and
/// the pre-parsed signals a vendor SDK decides with, read together so they belong to one CMP
/// decision.
///
/// Build one with ``IABConsentReader/snapshot()`` (or ``init(values:)`` from keys you read
/// yourself), then ask ``decision(for:purpose:)`` or ``mayProcess(vendor:purpose:)``.
///
/// **Which keys.** The v2 keys (`IABTCF_*`, "CMP API v2", In-App Details) are preferred: when
/// any of them is stored, only they are read. When none is, the v1 keys (`IABConsent_*`,
/// "Mobile In-App Consent APIs v1.0") fill the same fields: `IABConsent_SubjectToGDPR` gives
/// ``gdprApplies``, `IABConsent_ParsedPurposeConsents` and `IABConsent_ParsedVendorConsents`
/// give ``purposeConsents`` and ``vendorConsents``, and the fields v1 has no key for stay empty
/// (so nothing can be processed on legitimate interest or a special feature). See
/// ``ConsentSignalSource``. ``cmpPresent`` is the one field read from both generations.
///
/// **Lenient, never generous.** Values of the wrong type are read where the meaning is clear
/// (`IABTCF_gdprApplies` as 1, `"1"` or true); a value that cannot be read is listed in
/// ``malformedKeys`` and counts as no signal: a binary string with any character other than
/// '0' and '1' is an empty set, never a consent.
public struct IABConsentSnapshot: Sendable, Equatable {
    /// Which key generation the signals come from.
    public let source: ConsentSignalSource
    /// `IABTCF_gdprApplies` (v1: `IABConsent_SubjectToGDPR`).
    public let gdprApplies: GDPRApplicability
    /// Whether a CMP announced itself: `IABTCF_CmpSdkID` is stored, or `IABConsent_CMPPresent`
    /// is true.
    public let cmpPresent: Bool
    /// `IABTCF_CmpSdkID`: the registered id of the CMP SDK.
    public let cmpSdkID: Int?
    /// `IABTCF_CmpSdkVersion`: the CMP SDK's version.
    public let cmpSdkVersion: Int?
    /// `IABTCF_PolicyVersion`: the TCF policy version the signals adhere to (4 and up: TCF 2.2).
    public let policyVersion: Int?
    /// `IABTCF_TCString`: the full TC string; nil when absent or empty.
    public let tcString: String?
    /// `IABConsent_ConsentString`: the v1.1 consent string; read only when no v2 key is stored.
    public let consentStringV1: String?
    /// `IABTCF_PublisherCC`: the publisher's country, ISO 3166-1 alpha-2 (`AA` unknown).
    public let publisherCC: String?
    /// `IABTCF_PurposeOneTreatment`: purpose 1 was not disclosed to the user (unset is false).
    public let purposeOneTreatment: Bool
    /// `IABTCF_UseNonStandardTexts`: the CMP used publisher-customised texts (unset is false).
    public let useNonStandardTexts: Bool
    /// `IABTCF_PurposeConsents` (v1: `IABConsent_ParsedPurposeConsents`).
    public let purposeConsents: IDSet
    /// `IABTCF_PurposeLegitimateInterests`: purposes whose legitimate interest was disclosed
    /// and not objected to.
    public let purposeLegitimateInterests: IDSet
    /// `IABTCF_VendorConsents` (v1: `IABConsent_ParsedVendorConsents`).
    public let vendorConsents: IDSet
    /// `IABTCF_VendorLegitimateInterests`: vendors whose legitimate interest was disclosed and
    /// not objected to.
    public let vendorLegitimateInterests: IDSet
    /// `IABTCF_DisclosedVendors`: the vendors the CMP showed the user; nil when not stored.
    public let disclosedVendors: IDSet?
    /// `IABTCF_SpecialFeaturesOptIns`: the special features the user opted in to.
    public let specialFeatureOptIns: IDSet
    /// `IABTCF_PublisherConsent`: the publisher's own consents, by GVL purpose.
    public let publisherConsents: IDSet
    /// `IABTCF_PublisherLegitimateInterests`: the publisher's own legitimate interests, by GVL
    /// purpose.
    public let publisherLegitimateInterests: IDSet
    /// `IABTCF_PublisherCustomPurposesConsents`: consents for the publisher's custom purposes.
    public let publisherCustomPurposesConsents: IDSet
    /// `IABTCF_PublisherCustomPurposesLegitimateInterests`: legitimate interests for the
    /// publisher's custom purposes.
    public let publisherCustomPurposesLegitimateInterests: IDSet
    /// `IABTCF_PublisherRestrictions{ID}` for every purpose 1-24: one entry per purpose and
    /// restriction type, ordered by purpose, then type.
    public let publisherRestrictions: [PublisherRestriction]
    /// `IABGPP_HDR_GppString`, decoded: the Global Privacy Platform string with every section
    /// the CMP wrote (the EEA section's TC string, a US section's opt-outs); nil when none is
    /// stored or it does not decode (then listed in ``malformedKeys``).
    public let gppString: GPPString?
    /// `IABGPP_GppSID`: the ids of the GPP sections in force (`[2]`, `[8]`; `[-1]` where the CMP
    /// says none applies); empty when none is stored or it cannot be read.
    public let gppApplicableSections: [Int]
    /// The keys whose stored value could not be read (wrong type, a character outside the
    /// key's alphabet, an unknown number); each counts as no signal.
    public let malformedKeys: Set<String>

    /// Every key a snapshot reads, v2, v1 and the GPP's two, in one list for
    /// ``KeyValueStore/values(forKeys:)``.
    public static let keys: [String] = IABKey.version2 + IABKey.version1 + [IABKey.gppString, IABKey.gppApplicableSections]

    /// The snapshot the key-value pairs `values` describe (keys it does not know are ignored).
    public init(values: [String: StoredValue]) {
        var reader = LenientKeyReader(values)
        let hasVersion2 = IABKey.version2.contains(where: reader.has)
        let hasVersion1 = IABKey.version1.contains(where: reader.has)
        source = hasVersion2 ? .version2 : hasVersion1 ? .version1 : .none

        cmpSdkID = reader.integer(IABKey.cmpSdkID)
        let v1CMPPresent = reader.flag(IABKey.cmpPresent) ?? false
        cmpPresent = reader.has(IABKey.cmpSdkID) || v1CMPPresent

        if source == .version1 {
            gdprApplies = reader.gdprApplies(IABKey.subjectToGDPR)
            consentStringV1 = reader.text(IABKey.consentString)
            purposeConsents = reader.ids(IABKey.parsedPurposeConsents) ?? IDSet()
            vendorConsents = reader.ids(IABKey.parsedVendorConsents) ?? IDSet()
        } else {
            gdprApplies = reader.gdprApplies(IABKey.gdprApplies)
            consentStringV1 = nil
            purposeConsents = reader.ids(IABKey.purposeConsents) ?? IDSet()
            vendorConsents = reader.ids(IABKey.vendorConsents) ?? IDSet()
        }
        cmpSdkVersion = reader.integer(IABKey.cmpSdkVersion)
        policyVersion = reader.integer(IABKey.policyVersion)
        tcString = reader.text(IABKey.tcString)
        publisherCC = reader.text(IABKey.publisherCC)
        purposeOneTreatment = reader.flag(IABKey.purposeOneTreatment) ?? false
        useNonStandardTexts = reader.flag(IABKey.useNonStandardTexts) ?? false
        purposeLegitimateInterests = reader.ids(IABKey.purposeLegitimateInterests) ?? IDSet()
        vendorLegitimateInterests = reader.ids(IABKey.vendorLegitimateInterests) ?? IDSet()
        disclosedVendors = reader.ids(IABKey.disclosedVendors)
        specialFeatureOptIns = reader.ids(IABKey.specialFeaturesOptIns) ?? IDSet()
        publisherConsents = reader.ids(IABKey.publisherConsent) ?? IDSet()
        publisherLegitimateInterests = reader.ids(IABKey.publisherLegitimateInterests) ?? IDSet()
        publisherCustomPurposesConsents = reader.ids(IABKey.publisherCustomPurposesConsents) ?? IDSet()
        publisherCustomPurposesLegitimateInterests = reader.ids(IABKey.publisherCustomPurposesLegitimateInterests) ?? IDSet()
        publisherRestrictions = IABKey.restrictablePurposeIds.flatMap { reader.restrictions(purposeId: $0) }
        gppString = reader.gpp(IABKey.gppString)
        gppApplicableSections = reader.sectionIds(IABKey.gppApplicableSections)
        malformedKeys = reader.malformedKeys
    }

    /// The restriction the publisher placed on `vendorId` for `purposeId`, if any.
    public func restrictionType(vendorId: Int, purposeId: Int) -> PublisherRestriction.RestrictionType? {
        publisherRestrictions.first { $0.purposeId == purposeId && $0.vendorIds.contains(vendorId) }?.restrictionType
    }

    /// The consent string to pass downstream: the TC string, or (v1 keys only) the v1.1
    /// consent string.
    public var consentString: String? {
        tcString ?? consentStringV1
    }
}
