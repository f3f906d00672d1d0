import GPP
import TCF

extension GPPData {
    /// The same data, its string unchanged, with what `__gpp` parses of its EU TCF section
    /// (`parsedSections.tcfeuv2`) kept to `bounds`, the rule of a web answer's `TCData`
    /// (``TCData/Bounds``, issue 24 H1): vendor ids of the held vendor list only, restrictions
    /// of its purposes only. A 637-character TC string naming every vendor 1–65,535 under 64
    /// restrictions otherwise parses into four million ids, a 25 MB page view. A vendor the list
    /// does not hold has no consent a caller could act on, so nothing a caller can use is lost.
    /// The result's ``gpp`` is the bounded value; its ``gppString`` the string as it was.
    public func bounded(by bounds: TCData.Bounds) -> GPPData {
        var parsed = gpp
        parsed.sections = gpp.sections.map { section in
            guard case .tcfeuv2(let tc) = section else { return section }
            return .tcfeuv2(tc.bounded(by: bounds))
        }
        return GPPData(gpp: parsed, gppString: gppString, applicableSections: applicableSections)
    }
}

extension TCString {
    /// This value with its vendor id sets and publisher restrictions kept to `bounds`.
    fileprivate func bounded(by bounds: TCData.Bounds) -> TCString {
        let vendors = bounds.vendorIds
        let restrictions = publisherRestrictions.compactMap { restriction -> PublisherRestriction? in
            guard bounds.purposeIds.contains(restriction.purposeId) else { return nil }
            let kept = restriction.vendorIds.intersection(vendors)
            return kept.isEmpty ? nil : PublisherRestriction(purposeId: restriction.purposeId, restrictionType: restriction.restrictionType, vendorIds: kept)
        }
        return TCString(
            version: version, created: created, lastUpdated: lastUpdated, cmpId: cmpId, cmpVersion: cmpVersion,
            consentScreen: consentScreen, consentLanguage: consentLanguage, vendorListVersion: vendorListVersion,
            tcfPolicyVersion: tcfPolicyVersion, isServiceSpecific: isServiceSpecific, useNonStandardTexts: useNonStandardTexts,
            specialFeatureOptIns: specialFeatureOptIns, purposesConsent: purposesConsent, purposesLITransparency: purposesLITransparency,
            purposeOneTreatment: purposeOneTreatment, publisherCC: publisherCC,
            vendorConsents: vendorConsents.intersection(vendors), vendorLegitimateInterests: vendorLegitimateInterests.intersection(vendors),
            publisherRestrictions: restrictions, disclosedVendors: disclosedVendors?.intersection(vendors),
            allowedVendors: allowedVendors?.intersection(vendors), publisherTC: publisherTC)
    }
}
