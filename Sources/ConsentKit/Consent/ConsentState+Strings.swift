import Foundation
import TCF

extension ConsentState {
    /// The decision as a TCF v2.x TC string value: core segment, DisclosedVendors and, when
    /// the publisher has purposes of its own, PublisherTC. `Created` and `LastUpdated` both
    /// carry the day of ``updated`` (the v2 format's day-level rule since December 2021).
    /// `CmpId` and `CmpVersion` are `cmp`'s, or, for a decision taken over from another CMP
    /// and unchanged since, that CMP's (``takenOver``).
    public func tcString(cmp: CMPIdentity) -> TCString {
        let cmp = takenOver?.cmp ?? cmp
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

    /// Google's Additional Consent string of the decision (``AdditionalConsent``), as stored in
    /// `IABTCF_AddtlConsent` and sent to consentd: nil when the notice disclosed no ad-tech
    /// provider (Google reads no string then, rather than `2~~dv.`).
    public var additionalConsentString: String? {
        disclosedAdTechProviders.isEmpty
            ? nil : AdditionalConsent.string(consented: adTechProviderConsents, disclosed: disclosedAdTechProviders)
    }

    /// The decision as a TCF v1.1 consent string value, for apps whose vendors still read
    /// `IABConsent_ConsentString`. v1 has consent only, and five purposes of its own:
    /// `PurposesAllowed` holds a v1 purpose when the user consented to every v2 purpose of
    /// ``version1Purposes`` standing for it; `VendorConsents` is ``vendorConsents``. Legitimate
    /// interests, special features and the publisher's purposes have no place in v1. `CmpId` as
    /// in ``tcString(cmp:)``.
    ///
    /// `VendorListVersion` is ``vendorListVersion``, the version of the v2 or v3 list the
    /// notice showed: the v1 list stopped being published in 2020 and ConsentKit never loads
    /// one. A v1 reader that fetches `v-<version>/vendorlist.json` gets an unrelated v1 list
    /// of that number (or none); vendor ids mean the same vendors in every generation, so
    /// `VendorConsents` reads right, and `PurposesAllowed` holds v1's five purposes as above.
    public func consentStringV1(cmp: CMPIdentity) -> ConsentStringV1 {
        let cmp = takenOver?.cmp ?? cmp
        return ConsentStringV1(
            created: TCFTimestamp(created), lastUpdated: TCFTimestamp(updated), cmpId: cmp.cmpId, cmpVersion: cmp.cmpVersion,
            consentScreen: consentScreen, consentLanguage: consentLanguage, vendorListVersion: vendorListVersion,
            purposesAllowed: IDSet(Self.version1Purposes.filter { $0.value.isSubset(of: purposeConsents) }.map(\.key)),
            maxVendorId: max(vendorConsents.max, vendorLegitimateInterests.max, disclosedVendors.max), vendorConsents: vendorConsents)
    }

    /// The TCF v2.2 purposes each v1.1 purpose stands for, by their texts (the IAB published no
    /// mapping; this one is ConsentKit's, and errs towards refusing): 1 storage and access ← 1;
    /// 2 personalisation (profiles built in other contexts) ← 3, 5; 3 ad selection, delivery,
    /// reporting ← 2, 4, 7; 4 content selection, delivery, reporting ← 6, 8, 11;
    /// 5 measurement ← 8, 9.
    public static let version1Purposes: [Int: IDSet] = [1: [1], 2: [3, 5], 3: [2, 4, 7], 4: [6, 8, 11], 5: [8, 9]]
}

extension ConsentState {
    /// Whether this decision was made under the TCF policy of a vendor list whose
    /// `tcfPolicyVersion` is `policyVersion` (nil: a list that names none, under which every
    /// decision stands). The TCF: "if the policy version number in the latest GVL is different
    /// from the value in your TC String, then you need to re-establish transparency and consent"
    /// (any policy: 4, 5, …). The ask rules, the notice's present choices and a remote decision's
    /// reading all use this one test.
    public func isUnderPolicy(_ policyVersion: Int?) -> Bool {
        policyVersion.map { $0 == tcfPolicyVersion } ?? true
    }
}
