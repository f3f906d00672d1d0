import Foundation
import TCF

extension ConsentState {
    /// The purposes of personalised advertising (3, create profiles for personalised
    /// advertising; 4, use them to select personalised advertising): what a user under the age
    /// of consent never consents to.
    public static let personalisedAdvertisingPurposes: IDSet = [3, 4]

    /// What stands of this decision for a user under the age of consent: no consent can be
    /// collected from them, so no vendor and no Google ad-tech provider has consent, the
    /// personalised-advertising purposes (``personalisedAdvertisingPurposes``) are refused, also
    /// as the publisher's own purposes, and special features (precise geolocation, device
    /// scanning) are not opted in. Every legitimate interest is objected to (vendors', purposes',
    /// the publisher's and custom purposes'): no third party may select ads for, or measure, a
    /// child on legitimate interest either (seed 001: TFUA switches third-party ad tech off).
    /// What the notice disclosed and the other purpose consents stay: with no vendor consent and
    /// no legitimate interest they let no vendor process. Every output follows (TC and v1.1
    /// strings, the IAB keys, the AC string, Google's status and Consent Mode).
    ///
    /// The same value when nothing is left to withdraw, so applying it twice changes nothing;
    /// otherwise updated at `date`, as ConsentKit's own decision.
    public func underAgeOfConsent(at date: Date) -> ConsentState {
        guard !vendorConsents.isEmpty || !adTechProviderConsents.isEmpty || !specialFeatureOptIns.isEmpty
            || !purposeConsents.intersection(Self.personalisedAdvertisingPurposes).isEmpty
            || !publisherConsents.intersection(Self.personalisedAdvertisingPurposes).isEmpty
            || !vendorLegitimateInterests.isEmpty || !purposeLegitimateInterests.isEmpty
            || !publisherLegitimateInterests.isEmpty || !customPurposeLegitimateInterests.isEmpty
        else { return self }
        return ConsentState(
            purposeConsents: purposeConsents.subtracting(Self.personalisedAdvertisingPurposes),
            publisherConsents: publisherConsents.subtracting(Self.personalisedAdvertisingPurposes),
            numCustomPurposes: numCustomPurposes, customPurposeConsents: customPurposeConsents,
            disclosedVendors: disclosedVendors, vendorListVersion: vendorListVersion, tcfPolicyVersion: tcfPolicyVersion,
            publisherCC: publisherCC, purposeOneTreatment: purposeOneTreatment, useNonStandardTexts: useNonStandardTexts,
            publisherRestrictions: publisherRestrictions, consentScreen: consentScreen, consentLanguage: consentLanguage,
            noticeVersion: noticeVersion, created: created, updated: max(date, updated),
            disclosedAdTechProviders: disclosedAdTechProviders, prefersAdFree: prefersAdFree, nonPersonalizedOnly: nonPersonalizedOnly)
    }
}
