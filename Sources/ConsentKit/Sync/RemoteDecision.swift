import ConsentKitFormats
import ConsentdAPI
import Foundation
import TCF

/// A subject's state on consentd as a decision of this app: what the merge applies when the
/// remote choice is newer (``ConsentManager/syncNow()``).
///
/// The remote choice may have been made in another app, on the web, or against another vendor
/// list or notice. What carries over: the purposes, legitimate-interest objections and special
/// features; the vendor choices for vendors this app discloses; the Google choice and ad-tech
/// providers this app shows. A vendor this app discloses that the remote notice never showed
/// stays undisclosed, so the ask rules ask about it (additions only), as they would for an
/// older decision of this device. The TC string is then written for this app's vendor list,
/// unless the remote decision was made under another TCF policy version: it stands as made, and
/// the ask rules ask again.
enum RemoteDecision {
    /// The decision `remote` holds, for `scope` (nil when no vendor list is held yet: the remote
    /// decision is taken as its strings make it). Read from its TC string, else its id lists,
    /// else its TCF v1.1 string (iubenda's `cookieTCFv1`, read as a takeover reads one:
    /// ``ConsentState/init(consentStringV1:takenOver:)``, so it carries the retired v1 policy
    /// and the ask rules ask again once a vendor list is held). Nil when it holds nothing a
    /// decision can be made of.
    static func state(of remote: SubjectState, scope: ConsentScope?) -> ConsentState? {
        let record = remote.consent
        guard let collected = parseTimestamp(remote.collectedAt) else { return nil }
        let fromString = record.tcString.flatMap { try? TCString(decoding: $0) }.map { ConsentState(tcString: $0, collectedAt: collected) }
        let fromVersion1 = record.consentStringV1.flatMap { try? ConsentStringV1(decoding: $0) }.map {
            ConsentState(consentStringV1: $0, takenOver: nil)
        }
        guard let base = fromString ?? fromLists(record, at: collected) ?? fromVersion1 else { return nil }
        let providers = record.additionalConsent.flatMap(AdditionalConsent.parse)
        let noticeVersion = Int(record.proof.noticeVersion) ?? 0
        let adFree = record.googleAdsChoice == .adFree
        guard let scope else {
            return base.restoring(created: collected, updated: collected, noticeVersion: noticeVersion,
                                  adTechProviderConsents: providers?.consented ?? [], disclosedAdTechProviders: providers?.disclosed ?? [],
                                  prefersAdFree: adFree)
        }
        let samePolicy = base.isUnderPolicy(scope.vendorList.tcfPolicyVersion)
        let seen = base.disclosedVendors.isEmpty ? base.vendorConsents.union(base.vendorLegitimateInterests) : base.disclosedVendors
        return ConsentState(
            purposeConsents: base.purposeConsents, purposeLegitimateInterests: base.purposeLegitimateInterests,
            specialFeatureOptIns: base.specialFeatureOptIns,
            vendorConsents: base.vendorConsents.intersection(scope.vendorIds),
            vendorLegitimateInterests: base.vendorLegitimateInterests.intersection(scope.vendorIds),
            publisherConsents: base.publisherConsents.intersection(scope.publisherPurposes),
            publisherLegitimateInterests: base.publisherLegitimateInterests.intersection(scope.publisherLegitimateInterestPurposes),
            numCustomPurposes: scope.numCustomPurposes,
            customPurposeConsents: IDSet(base.customPurposeConsents.filter { $0 <= scope.numCustomPurposes }),
            customPurposeLegitimateInterests: IDSet(base.customPurposeLegitimateInterests.filter { $0 <= scope.numCustomPurposes }),
            disclosedVendors: seen.intersection(scope.vendorIds),
            vendorListVersion: samePolicy ? scope.vendorList.vendorListVersion : base.vendorListVersion,
            tcfPolicyVersion: base.tcfPolicyVersion, publisherCC: scope.publisherCC,
            purposeOneTreatment: scope.purposeOneTreatment, useNonStandardTexts: base.useNonStandardTexts,
            publisherRestrictions: scope.publisherRestrictions, consentScreen: base.consentScreen,
            consentLanguage: base.consentLanguage, noticeVersion: noticeVersion, created: collected, updated: collected,
            adTechProviderConsents: (providers?.consented ?? []).intersection(scope.adTechProviderIds),
            disclosedAdTechProviders: (providers?.disclosed ?? []).intersection(scope.adTechProviderIds),
            prefersAdFree: adFree, nonPersonalizedOnly: scope.nonPersonalizedOnly)
    }

    /// A decision from the id lists alone (an event sent without a TC string): the vendors it
    /// names are the ones it saw.
    private static func fromLists(_ record: ConsentRecord, at date: Date) -> ConsentState? {
        guard record.purposeConsents != nil || record.vendorConsents != nil else { return nil }
        func ids(_ list: [Int]?) -> IDSet { IDSet((list ?? []).filter { $0 > 0 }) }
        let vendors = ids(record.vendorConsents).union(ids(record.vendorLegitimateInterests))
        return ConsentState(
            purposeConsents: ids(record.purposeConsents), purposeLegitimateInterests: ids(record.purposeLegitimateInterests),
            specialFeatureOptIns: ids(record.specialFeatureOptins), vendorConsents: ids(record.vendorConsents),
            vendorLegitimateInterests: ids(record.vendorLegitimateInterests), disclosedVendors: vendors,
            vendorListVersion: 0, tcfPolicyVersion: 0, consentLanguage: record.proof.language.prefix(2).uppercased(),
            created: date, updated: date)
    }

    /// consentd's timestamps: ISO 8601, with or without fractional seconds.
    static func parseTimestamp(_ text: String) -> Date? {
        ISO8601.date(text)
    }
}
