import ConsentKit
import Foundation
import TCF

extension NoticeResult {
    /// The decision this result records under `scope` (the scope the document was built from),
    /// made at `date`: the same value the manager's own operations give (``ConsentKit/ConsentState/agreeToAll(scope:at:)``,
    /// ``ConsentKit/GoogleAdsConsent/decision(_:prefersAdFree:scope:at:)``, …; Google's "Yes"
    /// without the special features, decision record 0017), stamped with the layer as
    /// `ConsentScreen` and the notice's language; nil for ``Action/dismissed`` and for every
    /// result of a US notice, which records a ``ConsentKit/USPrivacyChoice`` (``usChoice(at:)``)
    /// instead of a TCF decision.
    ///
    /// "Save" starts from `current` under the scope (so choices the notice did not show stay as
    /// they were), else from "reject all", and sets every id the document showed to what the
    /// user chose.
    ///
    /// - Throws: ``ConsentKit/ConsentKitError/change(_:)`` when an id is out of TCF's ranges.
    public func decision(
        document: NoticeDocument, scope: ConsentScope, current: ConsentState?, at date: Date
    ) throws(ConsentKitError) -> ConsentState? {
        guard document.mode != .us else { return nil }
        let base: ConsentState
        switch action {
        case .dismissed, .acknowledged, .optOut:
            return nil
        case .acceptAll where document.mode == .google && layer == 1:
            // Google's "Yes": personalized ads, and no special feature, which the form names but
            // offers no choice for (decision record 0017).
            guard let google = GoogleAdsConsent.decision(.personalized, prefersAdFree: false, scope: scope, at: date) else { return nil }
            base = google.changing(at: date) { changes in
                for feature in google.specialFeatureOptIns { changes.withdrawSpecialFeature(feature) }
            }
        case .acceptAll:
            base = .agreeToAll(scope: scope, at: date)
        case .nonPersonalized:
            guard let google = GoogleAdsConsent.decision(.nonPersonalized, prefersAdFree: false, scope: scope, at: date) else { return nil }
            base = google
        case .rejectAll, .adFree, .save:
            base = action == .save ? current.map { $0.rescoped(to: scope) } ?? .disagreeToAll(scope: scope, at: date)
                : .disagreeToAll(scope: scope, at: date)
        }
        do {
            return try base.changing(at: date) { changes in
                if let choices, action == .save { try Self.set(choices, shown: document, on: &changes) }
                if action == .adFree { changes.prefersAdFree = true }
                changes.consentScreen = layer
                changes.consentLanguage = language.uppercased()
            }
        } catch let refused as ConsentChangeError {
            throw .change(refused)
        } catch {
            preconditionFailure("ConsentChanges setters throw only ConsentChangeError, not \(error)")
        }
    }

    /// Sets every choice the document offered to what `choices` says.
    private static func set(_ choices: NoticeChoices, shown document: NoticeDocument, on changes: inout ConsentChanges) throws {
        let purposes = IDSet(validIds: choices.purposeConsents), interests = IDSet(validIds: choices.purposeLegitimateInterests)
        let features = IDSet(validIds: choices.specialFeatureOptIns), providers = Set(choices.adTechProviderConsents)
        let offered = document.offered
        for id in document.purposes.keys.compactMap(Int.init) { try changes.setPurpose(id, consent: purposes.contains(id)) }
        for id in offered.interestPurposes where document.purposes[String(id)] != nil {
            try changes.setPurposeLegitimateInterest(id, allowed: interests.contains(id))
        }
        for id in document.specialFeatures.keys.compactMap(Int.init) { try changes.setSpecialFeature(id, optIn: features.contains(id)) }
        changes.setVendors(consented: IDSet(validIds: choices.vendorConsents), among: offered.vendors)
        // Kept where the user could object and did not; kept always where nothing could be objected to.
        let kept = IDSet(validIds: choices.vendorLegitimateInterests).union(offered.interestVendors.subtracting(offered.objectableVendors))
        changes.setVendorLegitimateInterests(kept: kept, among: offered.interestVendors)
        for provider in document.adTechProviders {
            try changes.setAdTechProvider(provider.id, consent: providers.contains(provider.id))
        }
    }
}
