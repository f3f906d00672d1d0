import Foundation
import TCF

extension ConsentState {
    /// "Accept all": consent to every purpose and special feature the list shows, consent for
    /// every disclosed vendor that asks for any, legitimate interest kept for every vendor and
    /// purpose that has it (``LegitimateInterest``: special purposes count, flexible purposes
    /// only on their default basis or a publisher's restriction), the publisher's purposes and
    /// every disclosed ad-tech provider granted.
    public static func agreeToAll(scope: ConsentScope, at date: Date = Date()) -> ConsentState {
        var purposes = IDSet(validIds: scope.vendorList.purposes.keys)
        if scope.purposeOneTreatment { purposes = purposes.removing(1) }
        var consentVendors: [Int] = []
        // By position in the list, not through an array of vendor copies.
        let vendors = scope.vendorList.vendors.values
        for id in scope.vendorIds {
            guard let index = scope.vendorList.vendors.index(forKey: id) else { continue }
            if !vendors[index].purposes.isEmpty || !vendors[index].specialFeatures.isEmpty { consentVendors.append(id) }
        }
        let interests = LegitimateInterest.of(scope)
        return ConsentState(
            purposeConsents: purposes,
            purposeLegitimateInterests: interests.purposes,
            specialFeatureOptIns: IDSet(validIds: scope.vendorList.specialFeatures.keys),
            vendorConsents: IDSet(validIds: consentVendors), vendorLegitimateInterests: interests.established,
            publisherConsents: scope.publisherPurposes, publisherLegitimateInterests: scope.publisherLegitimateInterestPurposes,
            numCustomPurposes: scope.numCustomPurposes,
            customPurposeConsents: (scope.numCustomPurposes > 0 ? IDSet(1...scope.numCustomPurposes) : [])
                .subtracting(scope.customLegitimateInterestPurposes),
            customPurposeLegitimateInterests: scope.customLegitimateInterestPurposes,
            disclosedVendors: scope.vendorIds, vendorListVersion: scope.vendorList.vendorListVersion,
            tcfPolicyVersion: scope.vendorList.tcfPolicyVersion ?? 0, publisherCC: scope.publisherCC,
            purposeOneTreatment: scope.purposeOneTreatment, useNonStandardTexts: scope.useNonStandardTexts,
            publisherRestrictions: scope.publisherRestrictions, consentScreen: scope.consentScreen,
            consentLanguage: scope.consentLanguage, noticeVersion: scope.noticeVersion, created: date, updated: date,
            adTechProviderConsents: scope.adTechProviderIds, disclosedAdTechProviders: scope.adTechProviderIds,
            nonPersonalizedOnly: scope.nonPersonalizedOnly)
    }

    /// "Reject all": no consent, no opt-in, and an objection to every legitimate interest the
    /// user can object to; the vendors still count as disclosed, and those whose legitimate
    /// interest no choice touches (special purposes only, ``LegitimateInterest``) keep it.
    public static func disagreeToAll(scope: ConsentScope, at date: Date = Date()) -> ConsentState {
        let interests = LegitimateInterest.of(scope)
        return ConsentState(
            vendorLegitimateInterests: interests.established.subtracting(interests.objectable),
            numCustomPurposes: scope.numCustomPurposes, disclosedVendors: scope.vendorIds,
            vendorListVersion: scope.vendorList.vendorListVersion, tcfPolicyVersion: scope.vendorList.tcfPolicyVersion ?? 0,
            publisherCC: scope.publisherCC, purposeOneTreatment: scope.purposeOneTreatment,
            useNonStandardTexts: scope.useNonStandardTexts, publisherRestrictions: scope.publisherRestrictions,
            consentScreen: scope.consentScreen, consentLanguage: scope.consentLanguage, noticeVersion: scope.noticeVersion,
            created: date, updated: date, disclosedAdTechProviders: scope.adTechProviderIds, nonPersonalizedOnly: scope.nonPersonalizedOnly)
    }

    /// The decision a TC string records (consent received from elsewhere: another device, the
    /// web).
    ///
    /// A TC string keeps only the day (`Created` and `LastUpdated` are rounded to it since
    /// 2021), so pass the time the choice was made as `collectedAt`: it becomes ``updated``, to
    /// the millisecond, and ``created`` too when the string records a first decision (equal
    /// `Created` and `LastUpdated`); an earlier `Created` day stays. Without `collectedAt`, both
    /// are the string's days.
    public init(tcString: TCString, collectedAt: Date? = nil, takenOver: ConsentTakeover? = nil) {
        let publisher = tcString.publisherTC
        let stringCreated = tcString.created.date
        let updated = collectedAt ?? tcString.lastUpdated.date
        let created = collectedAt != nil && tcString.created == tcString.lastUpdated ? updated : min(stringCreated, updated)
        self.init(
            purposeConsents: tcString.purposesConsent, purposeLegitimateInterests: tcString.purposesLITransparency,
            specialFeatureOptIns: tcString.specialFeatureOptIns, vendorConsents: tcString.vendorConsents,
            vendorLegitimateInterests: tcString.vendorLegitimateInterests,
            publisherConsents: publisher?.pubPurposesConsent ?? [], publisherLegitimateInterests: publisher?.pubPurposesLITransparency ?? [],
            numCustomPurposes: publisher?.numCustomPurposes ?? 0, customPurposeConsents: publisher?.customPurposesConsent ?? [],
            customPurposeLegitimateInterests: publisher?.customPurposesLITransparency ?? [],
            disclosedVendors: tcString.disclosedVendors ?? [], vendorListVersion: tcString.vendorListVersion,
            tcfPolicyVersion: tcString.tcfPolicyVersion, publisherCC: tcString.publisherCC,
            purposeOneTreatment: tcString.purposeOneTreatment, useNonStandardTexts: tcString.useNonStandardTexts,
            publisherRestrictions: tcString.publisherRestrictions, consentScreen: tcString.consentScreen,
            consentLanguage: tcString.consentLanguage, created: created, updated: updated, takenOver: takenOver)
    }

    /// The decision a TC string and the Additional Consent string kept with it record together
    /// (a website's `euconsent-v2` and `addtl_consent`): the ad-tech providers the AC string
    /// discloses and consents count as disclosed and consented. An AC string that does not parse
    /// adds nothing.
    public init(tcString: TCString, additionalConsent: String?, collectedAt: Date? = nil) {
        let base = ConsentState(tcString: tcString, collectedAt: collectedAt)
        guard let providers = additionalConsent.flatMap(AdditionalConsent.parse) else {
            self = base
            return
        }
        self = base.restoring(created: base.created, updated: base.updated, noticeVersion: base.noticeVersion,
                              adTechProviderConsents: providers.consented, disclosedAdTechProviders: providers.disclosed)
    }

    /// Applies a set of changes made in `body` at once and returns the new decision, updated at
    /// `date`; nothing changes when `body` throws (a setter refusing a change throws ``ConsentChangeError``).
    ///
    /// ```swift
    /// let next = try state.changing { changes in
    ///     try changes.setPurpose(3, consent: false)
    ///     try changes.setVendor(755, consent: true)
    /// }
    /// ```
    public func changing(at date: Date = Date(), _ body: (inout ConsentChanges) throws -> Void) rethrows -> ConsentState {
        var changes = ConsentChanges(self)
        try body(&changes)
        return changes.applied(to: self, at: date)
    }

    /// The same choices under what `scope` covers now: disclosed vendors and ad-tech providers,
    /// vendor list and policy version, the publisher's settings and the notice. What a notice
    /// shown again records, so that the rules that asked (vendors or providers added, a policy
    /// or notice change) are answered.
    public func rescoped(to scope: ConsentScope) -> ConsentState {
        ConsentState(
            purposeConsents: purposeConsents, purposeLegitimateInterests: purposeLegitimateInterests,
            specialFeatureOptIns: specialFeatureOptIns, vendorConsents: vendorConsents,
            vendorLegitimateInterests: vendorLegitimateInterests, publisherConsents: publisherConsents,
            publisherLegitimateInterests: publisherLegitimateInterests, numCustomPurposes: scope.numCustomPurposes,
            customPurposeConsents: customPurposeConsents, customPurposeLegitimateInterests: customPurposeLegitimateInterests,
            disclosedVendors: scope.vendorIds, vendorListVersion: scope.vendorList.vendorListVersion,
            tcfPolicyVersion: scope.vendorList.tcfPolicyVersion ?? tcfPolicyVersion, publisherCC: scope.publisherCC,
            purposeOneTreatment: scope.purposeOneTreatment, useNonStandardTexts: scope.useNonStandardTexts,
            publisherRestrictions: scope.publisherRestrictions, consentScreen: scope.consentScreen,
            consentLanguage: scope.consentLanguage, noticeVersion: scope.noticeVersion, created: created, updated: updated,
            adTechProviderConsents: adTechProviderConsents, disclosedAdTechProviders: scope.adTechProviderIds,
            prefersAdFree: prefersAdFree, nonPersonalizedOnly: scope.nonPersonalizedOnly)
    }
}
