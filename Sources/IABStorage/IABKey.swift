/// The keys of the IAB in-app specs: v1 (`IABConsent_*`, "Mobile In-App Consent APIs v1.0")
/// and v2.x (`IABTCF_*`, "CMP API v2", In-App Details). Names and types exactly as the specs
/// give them; the comment on each says the type.
public enum IABKey {
    // MARK: v1.0

    /// Bool: true when a CMP implementing the v1 spec is present. The publisher may set it
    /// itself; ConsentKit sets it with the v1 keys and never removes it.
    public static let cmpPresent = "IABConsent_CMPPresent"
    /// String: "1" subject to GDPR, "0" not, absent when undetermined.
    public static let subjectToGDPR = "IABConsent_SubjectToGDPR"
    /// String: the v1.1 consent string.
    public static let consentString = "IABConsent_ConsentString"
    /// String of '0'/'1': character N (from 1) is the consent for purpose N.
    public static let parsedPurposeConsents = "IABConsent_ParsedPurposeConsents"
    /// String of '0'/'1': character N (from 1) is the consent for vendor N.
    public static let parsedVendorConsents = "IABConsent_ParsedVendorConsents"

    /// Every v1 key.
    public static let version1: [String] = [cmpPresent, subjectToGDPR, consentString, parsedPurposeConsents, parsedVendorConsents]

    /// Every key of both generations and of the GPP that ConsentKit removes when it no longer
    /// applies: all but ``cmpPresent``.
    public static var removable: [String] { (version1 + version2).filter { $0 != cmpPresent } + gpp }

    // MARK: v2.x

    /// Number: the CMP SDK's registered id.
    public static let cmpSdkID = "IABTCF_CmpSdkID"
    /// Number: the CMP SDK's version.
    public static let cmpSdkVersion = "IABTCF_CmpSdkVersion"
    /// Number: the TCF policy version the consents adhere to.
    public static let policyVersion = "IABTCF_PolicyVersion"
    /// Number: 1 GDPR applies, 0 it does not, absent when undetermined.
    public static let gdprApplies = "IABTCF_gdprApplies"
    /// String: the publisher's ISO 3166-1 alpha-2 country ("AA" unknown).
    public static let publisherCC = "IABTCF_PublisherCC"
    /// Number: 1 when purpose 1 was not disclosed, 0 otherwise.
    public static let purposeOneTreatment = "IABTCF_PurposeOneTreatment"
    /// Number: 1 when the CMP used non-standard texts, 0 otherwise.
    public static let useNonStandardTexts = "IABTCF_UseNonStandardTexts"
    /// String: the full TC string.
    public static let tcString = "IABTCF_TCString"
    /// Binary string: position n (from 0) is vendor n+1's consent.
    public static let vendorConsents = "IABTCF_VendorConsents"
    /// Binary string: position n is vendor n+1's legitimate interest.
    public static let vendorLegitimateInterests = "IABTCF_VendorLegitimateInterests"
    /// Binary string: position n is whether vendor n+1 was disclosed.
    public static let disclosedVendors = "IABTCF_DisclosedVendors"
    /// Binary string: position n is purpose n+1's consent.
    public static let purposeConsents = "IABTCF_PurposeConsents"
    /// Binary string: position n is purpose n+1's legitimate interest.
    public static let purposeLegitimateInterests = "IABTCF_PurposeLegitimateInterests"
    /// Binary string: position n is special feature n+1's opt-in.
    public static let specialFeaturesOptIns = "IABTCF_SpecialFeaturesOptIns"
    /// Binary string: position n is the publisher's consent for purpose n+1.
    public static let publisherConsent = "IABTCF_PublisherConsent"
    /// Binary string: position n is the publisher's legitimate interest for purpose n+1.
    public static let publisherLegitimateInterests = "IABTCF_PublisherLegitimateInterests"
    /// Binary string: position n is the consent for the publisher's custom purpose n+1.
    public static let publisherCustomPurposesConsents = "IABTCF_PublisherCustomPurposesConsents"
    /// Binary string: position n is the legitimate interest for custom purpose n+1.
    public static let publisherCustomPurposesLegitimateInterests = "IABTCF_PublisherCustomPurposesLegitimateInterests"

    /// String: Google's Additional Consent string (`2~…~dv.…`); not an IAB key, but where
    /// Google's SDKs read the ad-tech providers' consent.
    public static let addtlConsent = "IABTCF_AddtlConsent"

    /// String of '0'/'1'/'2': position n is the restriction type for vendor n+1 on `purposeId`.
    public static func publisherRestrictions(purposeId: Int) -> String {
        "IABTCF_PublisherRestrictions\(purposeId)"
    }

    /// The purpose ids a `IABTCF_PublisherRestrictions{ID}` key can carry (the core string has 24
    /// purpose bits).
    public static let restrictablePurposeIds = 1...24

    /// Every v2 key the CMP owns: the per-purpose restriction keys and Google's `IABTCF_AddtlConsent` included.
    public static let version2: [String] = [
        cmpSdkID, cmpSdkVersion, policyVersion, gdprApplies, publisherCC, purposeOneTreatment, useNonStandardTexts,
        tcString, vendorConsents, vendorLegitimateInterests, disclosedVendors, purposeConsents, purposeLegitimateInterests,
        specialFeaturesOptIns, publisherConsent, publisherLegitimateInterests, publisherCustomPurposesConsents,
        publisherCustomPurposesLegitimateInterests, addtlConsent,
    ] + restrictablePurposeIds.map(publisherRestrictions(purposeId:))
}
