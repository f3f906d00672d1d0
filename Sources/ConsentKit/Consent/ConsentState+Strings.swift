import Foundation
import TCF

extension ConsentState {
    /// The decision as a TCF v2.x TC string value: core segment, DisclosedVendors and, when
    /// the publisher has purposes of its own, PublisherTC. `Created` and `LastUpdated` both
    /// carry the day of ``updated`` (the v2 format's day-level rule since December 2021).
    public func tcString(cmp: CMPIdentity) -> TCString {
        let day = TCFTimestamp(deciseconds: TCFTimestamp(updated).deciseconds / 864_000 * 864_000)
        let hasPublisherSegment = !publisherConsents.isEmpty || !publisherLegitimateInterests.isEmpty || numCustomPurposes > 0
        return TCString(
            created: day, lastUpdated: day, cmpId: cmp.cmpId, cmpVersion: cmp.cmpVersion,
            consentScreen: consentScreen, consentLanguage: consentLanguage, vendorListVersion: vendorListVersion,
            tcfPolicyVersion: tcfPolicyVersion, isServiceSpecific: true, useNonStandardTexts: useNonStandardTexts,
            specialFeatureOptIns: specialFeatureOptIns, purposesConsent: purposeConsents,
            purposesLITransparency: purposeLegitimateInterests, purposeOneTreatment: purposeOneTreatment,
            publisherCC: publisherCC, vendorConsents: vendorConsents, vendorLegitimateInterests: vendorLegitimateInterests,
            publisherRestrictions: publisherRestrictions, disclosedVendors: disclosedVendors,
            publisherTC: hasPublisherSegment ? PublisherTC(
                pubPurposesConsent: publisherConsents, pubPurposesLITransparency: publisherLegitimateInterests,
                numCustomPurposes: numCustomPurposes, customPurposesConsent: customPurposeConsents,
                customPurposesLITransparency: customPurposeLegitimateInterests) : nil)
    }

    /// The decision as a TCF v1.1 consent string value, for apps whose vendors still read
    /// `IABConsent_ConsentString`. v1 has consent only: `PurposesAllowed` is ``purposeConsents``
    /// (the v1 list's purposes 1-5 where a v1 vendor list is in use) and `VendorConsents` is
    /// ``vendorConsents``; legitimate interests, special features and the publisher's purposes
    /// have no place in it.
    public func consentStringV1(cmp: CMPIdentity) -> ConsentStringV1 {
        ConsentStringV1(
            created: TCFTimestamp(created), lastUpdated: TCFTimestamp(updated), cmpId: cmp.cmpId, cmpVersion: cmp.cmpVersion,
            consentScreen: consentScreen, consentLanguage: consentLanguage, vendorListVersion: vendorListVersion,
            purposesAllowed: purposeConsents, maxVendorId: max(vendorConsents.max, disclosedVendors.max),
            vendorConsents: vendorConsents)
    }
}
