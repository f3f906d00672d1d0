import Foundation
import TCF

/// Whether to ask the user and what a notice covers: the ask rules over what is held.
extension ConsentManager {
    /// Whether to ask the user, and the rule that decided (see ``AskRules``): the one rule the
    /// manager, `GoogleAdsConsent` and `ConsentFlow` share. While the publisher's vendors are not
    /// known, vendor additions are not judged. Before the first refresh has decided the region,
    /// the region counts as unknown: await ``refreshed()`` first.
    public func askVerdict() -> AskRules.Verdict {
        configuration.askRules.evaluate(askSituation())
    }

    /// What the ask rules look at now.
    private func askSituation() -> AskRules.Situation {
        let config = appConfig
        let (consent, gdpr, list, usChoice) = state.withLock { ($0.consent, $0.gdprApplies, $0.vendorList, $0.usChoice) }
        var situation = AskRules.Situation(
            gdprApplies: gdpr, decision: consent, tcfPolicyVersion: list?.tcfPolicyVersion,
            publisherVendorIds: try? scope().vendorIds, adTechProviderIds: config.map(\.adTechProviderIds),
            nonPersonalizedOnly: config.map(\.nonPersonalizedOnly), underAgeOfConsent: isTaggedForUnderAgeOfConsent,
            now: configuration.now())
        situation.usPrivacyApplies = usPrivacyKeys().applies
        situation.usChoice = usChoice
        return situation
    }

    /// Whether the notice should be shown now: ``askVerdict()`` says to ask.
    public var shouldAsk: Bool { askVerdict().shouldAsk }

    /// Whether the app's ad code may request ads now, as Google's UMP answers it: true when no
    /// consent is needed (GDPR does not apply, the user is under the age of consent and gets
    /// non-personalized ads, or the region is unknown under ``AskRules/RegionUnknownPolicy/doNotAsk``)
    /// or the user's decision still holds; always in the US, where the notice at collection does
    /// not hold ads back (``AskRules/canRequestAds(_:)``); false while the user should be asked.
    /// The ad SDKs read what they may do from the IAB keys (and `gad_rdp`).
    public var canRequestAds: Bool { configuration.askRules.canRequestAds(askSituation()) }

    /// Whether the app must offer the user a way back to their choices (a "Privacy settings"
    /// entry calling ``presentPrivacyOptions(with:)``): required wherever the user may be asked
    /// or has decided while GDPR is not known not to apply, and in the US ("Your Privacy
    /// Choices"; ``PrivacyOptionsRequirement``).
    public var privacyOptionsRequirement: PrivacyOptionsRequirement {
        let (region, decided) = state.withLock { ($0.gdprApplies, $0.consent != nil) }
        return PrivacyOptionsRequirement(region: region, hasDecision: decided, rules: configuration.askRules,
                                         usPrivacyApplies: usPrivacyKeys().applies)
    }

    /// Shows the notice because the user asked for it (the app's "Privacy settings" entry): it
    /// opens with the present choices and may be closed without a change.
    public func presentPrivacyOptions(with presenter: any NoticePresenting) async -> NoticeOutcome {
        await presenter.present(NoticeRequest(reason: askVerdict(), allowsDismissal: true, isUserInitiated: true))
    }

    /// What a notice shown now covers: the held vendor list, the publisher's vendors (the
    /// configuration's, else consentd's last answer, else, with consentd's own list, trimmed to
    /// the publishers' vendors, the vendors of that list, else, with no consentd configured, the
    /// whole list) and the notice settings.
    ///
    /// - Throws: ``ConsentKitError/noVendorList`` before a list is held (a first launch offline
    ///   without ``ConsentConfiguration/vendorListSnapshot``);
    ///   ``ConsentKitError/publisherVendorsUnknown`` while consentd has not yet said which
    ///   vendors the publisher uses and the list is the app's own
    ///   (``ConsentConfiguration/vendorLists``), so no decision covers vendors the publisher
    ///   never chose.
    public func scope() throws(ConsentKitError) -> ConsentScope {
        let config = appConfig
        let list = state.withLock { $0.vendorList }
        guard let list else { throw .noVendorList }
        let publisher = configuration.publisher
        let vendorIds: IDSet?
        if let chosen = publisher.vendorIds {
            vendorIds = chosen
        } else if let config {
            vendorIds = IDSet(validIds: config.vendorIds)
        } else if configuration.consentd == nil {
            vendorIds = nil
        } else if configuration.vendorLists == nil {
            // consentd's own list is trimmed to the publishers' vendors, downloaded or bundled
            // (vendorListSnapshot): before consentd's first answer, on a first launch offline,
            // its vendors are the publishers' (issue 26 N7).
            vendorIds = list.activeVendorIds(at: configuration.now())
        } else {
            throw .publisherVendorsUnknown
        }
        return ConsentScope(
            vendorList: list, vendorIds: vendorIds, publisherPurposes: publisher.purposes,
            publisherLegitimateInterestPurposes: publisher.legitimateInterestPurposes, numCustomPurposes: publisher.numCustomPurposes,
            customLegitimateInterestPurposes: publisher.customLegitimateInterestPurposes, publisherCC: publisher.countryCode,
            purposeOneTreatment: publisher.purposeOneTreatment, useNonStandardTexts: publisher.useNonStandardTexts,
            publisherRestrictions: publisher.restrictions, consentScreen: configuration.consentScreen,
            consentLanguage: configuration.consentLanguage, noticeVersion: configuration.noticeVersion,
            adTechProviderIds: config?.adTechProviderIds ?? [], nonPersonalizedOnly: config?.nonPersonalizedOnly ?? false)
    }
}
