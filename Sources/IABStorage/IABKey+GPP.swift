/// The in-app keys of the IAB's Global Privacy Platform (GPP CMP API, "In-App Details"): the
/// header's, the sections in force, one string per section, and the EEA section's own keys.
extension IABKey {
    /// String: the GPP version, `"1"`.
    public static let gppVersion = "IABGPP_HDR_Version"
    /// String: the ids of the string's sections, joined by `_` (`"2"`, `"7_8"`).
    public static let gppSections = "IABGPP_HDR_Sections"
    /// String: the whole GPP string.
    public static let gppString = "IABGPP_HDR_GppString"
    /// String: the ids of the sections in force, joined by `_` (`"2"`, `"8"`).
    public static let gppApplicableSections = "IABGPP_GppSID"

    /// String: one section's text, as it stands between the GPP string's `~`s.
    public static func gppSectionString(id: Int) -> String { "IABGPP_\(id)_String" }

    /// String: the TC string, under the name the EEA section's table gives it (the core table's
    /// ``gppSectionString(id:)`` of section 2 holds the same).
    public static let gppTCString = "IABGPP_2_TCString"

    /// The section ids whose string keys the CMP may write, and so removes: every id registered
    /// (2–27) and room for those to come.
    public static let gppSectionIds = 1...63

    /// The EEA section's keys (`GPPExtension - IAB Europe TCF`, "In-App"): each a v2 TCF key's
    /// value under a GPP name, `IABTCF_x` → `IABGPP_TCFEU2_x`. The section's table predates TCF
    /// 2.2, which renamed `UseNonStandardStacks` to `UseNonStandardTexts`: the GPP name stays the
    /// table's. `IABTCF_DisclosedVendors` and `IABTCF_AddtlConsent` have no GPP name.
    public static let gppTCFEU2: [(tcf: String, gpp: String)] = [
        (cmpSdkID, "IABGPP_TCFEU2_CmpSdkID"), (cmpSdkVersion, "IABGPP_TCFEU2_CmpSdkVersion"),
        (policyVersion, "IABGPP_TCFEU2_PolicyVersion"), (gdprApplies, "IABGPP_TCFEU2_gdprApplies"),
        (publisherCC, "IABGPP_TCFEU2_PublisherCC"), (purposeOneTreatment, "IABGPP_TCFEU2_PurposeOneTreatment"),
        (useNonStandardTexts, "IABGPP_TCFEU2_UseNonStandardStacks"), (tcString, gppTCString),
        (vendorConsents, "IABGPP_TCFEU2_VendorConsents"), (vendorLegitimateInterests, "IABGPP_TCFEU2_VendorLegitimateInterests"),
        (purposeConsents, "IABGPP_TCFEU2_PurposeConsents"), (purposeLegitimateInterests, "IABGPP_TCFEU2_PurposeLegitimateInterests"),
        (specialFeaturesOptIns, "IABGPP_TCFEU2_SpecialFeaturesOptIns"), (publisherConsent, "IABGPP_TCFEU2_PublisherConsent"),
        (publisherLegitimateInterests, "IABGPP_TCFEU2_PublisherLegitimateInterests"),
        (publisherCustomPurposesConsents, "IABGPP_TCFEU2_PublisherCustomPurposesConsents"),
        (publisherCustomPurposesLegitimateInterests, "IABGPP_TCFEU2_PublisherCustomPurposesLegitimateInterests"),
    ] + restrictablePurposeIds.map { (publisherRestrictions(purposeId: $0), "IABGPP_TCFEU2_PublisherRestrictions\($0)") }

    /// Every GPP key the CMP owns.
    public static let gpp: [String] = [gppVersion, gppSections, gppString, gppApplicableSections]
        + gppSectionIds.map(gppSectionString(id:)) + gppTCFEU2.map(\.gpp)
}
