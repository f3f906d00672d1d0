import Foundation
import TCF

/// The changes of one transaction on a ``ConsentState`` (``ConsentState/changing(at:_:)``):
/// enable or disable purposes, special features, vendors and the publisher's purposes, then
/// commit them together.
public struct ConsentChanges: Sendable {
    /// Purposes consented to.
    public private(set) var purposeConsents: IDSet
    /// Purposes on legitimate interest, not objected to.
    public private(set) var purposeLegitimateInterests: IDSet
    /// Special features opted in to.
    public private(set) var specialFeatureOptIns: IDSet
    /// Vendors consented to.
    public private(set) var vendorConsents: IDSet
    /// Vendors on legitimate interest, not objected to.
    public private(set) var vendorLegitimateInterests: IDSet
    /// The publisher's purposes consented to.
    public private(set) var publisherConsents: IDSet
    /// The publisher's purposes on legitimate interest, not objected to.
    public private(set) var publisherLegitimateInterests: IDSet
    /// Custom purposes consented to.
    public private(set) var customPurposeConsents: IDSet
    /// Custom purposes on legitimate interest, not objected to.
    public private(set) var customPurposeLegitimateInterests: IDSet
    /// Google ad-tech providers consented to.
    public private(set) var adTechProviderConsents: IDSet
    /// The user prefers the ad-free (paid) version.
    public var prefersAdFree: Bool
    /// The notice screen the changes were made on.
    public var consentScreen: Int
    /// The notice's language.
    public var consentLanguage: String
    private let numCustomPurposes: Int

    init(_ state: ConsentState) {
        purposeConsents = state.purposeConsents
        purposeLegitimateInterests = state.purposeLegitimateInterests
        specialFeatureOptIns = state.specialFeatureOptIns
        vendorConsents = state.vendorConsents
        vendorLegitimateInterests = state.vendorLegitimateInterests
        publisherConsents = state.publisherConsents
        publisherLegitimateInterests = state.publisherLegitimateInterests
        customPurposeConsents = state.customPurposeConsents
        customPurposeLegitimateInterests = state.customPurposeLegitimateInterests
        adTechProviderConsents = state.adTechProviderConsents
        prefersAdFree = state.prefersAdFree
        consentScreen = state.consentScreen
        consentLanguage = state.consentLanguage
        numCustomPurposes = state.numCustomPurposes
    }

    /// Gives or withdraws consent to purpose `id` (1-24).
    public mutating func setPurpose(_ id: Int, consent: Bool) throws(ConsentChangeError) {
        purposeConsents = try Self.set(purposeConsents, id, consent, .purpose, 24)
    }

    /// Keeps (true) or objects to (false) the legitimate interest for purpose `id`; purposes 1
    /// and 3-6 cannot be on legitimate interest.
    public mutating func setPurposeLegitimateInterest(_ id: Int, allowed: Bool) throws(ConsentChangeError) {
        if allowed, TCString.consentOnlyPurposes.contains(id) { throw .consentOnlyPurpose(id) }
        purposeLegitimateInterests = try Self.set(purposeLegitimateInterests, id, allowed, .purpose, 24)
    }

    /// Opts in to or out of special feature `id` (1-12).
    public mutating func setSpecialFeature(_ id: Int, optIn: Bool) throws(ConsentChangeError) {
        specialFeatureOptIns = try Self.set(specialFeatureOptIns, id, optIn, .specialFeature, 12)
    }

    /// Gives or withdraws consent for vendor `id`.
    public mutating func setVendor(_ id: Int, consent: Bool) throws(ConsentChangeError) {
        vendorConsents = try Self.set(vendorConsents, id, consent, .vendor, IDSet.maxID)
    }

    /// Keeps or objects to vendor `id`'s legitimate interest.
    public mutating func setVendorLegitimateInterest(_ id: Int, allowed: Bool) throws(ConsentChangeError) {
        vendorLegitimateInterests = try Self.set(vendorLegitimateInterests, id, allowed, .vendor, IDSet.maxID)
    }

    /// Gives or withdraws consent to the publisher's purpose `id` (1-24).
    public mutating func setPublisherPurpose(_ id: Int, consent: Bool) throws(ConsentChangeError) {
        publisherConsents = try Self.set(publisherConsents, id, consent, .publisherPurpose, 24)
    }

    /// Keeps or objects to the publisher's legitimate interest for purpose `id`.
    public mutating func setPublisherLegitimateInterest(_ id: Int, allowed: Bool) throws(ConsentChangeError) {
        if allowed, TCString.consentOnlyPurposes.contains(id) { throw .consentOnlyPurpose(id) }
        publisherLegitimateInterests = try Self.set(publisherLegitimateInterests, id, allowed, .publisherPurpose, 24)
    }

    /// Gives or withdraws consent to custom purpose `id` (1 up to the publisher's count).
    public mutating func setCustomPurpose(_ id: Int, consent: Bool) throws(ConsentChangeError) {
        customPurposeConsents = try Self.set(customPurposeConsents, id, consent, .customPurpose, numCustomPurposes)
    }

    /// Keeps or objects to the legitimate interest for custom purpose `id`.
    public mutating func setCustomPurposeLegitimateInterest(_ id: Int, allowed: Bool) throws(ConsentChangeError) {
        customPurposeLegitimateInterests = try Self.set(customPurposeLegitimateInterests, id, allowed, .customPurpose, numCustomPurposes)
    }

    /// Gives or withdraws consent for Google ad-tech provider `id` (Additional Consent).
    public mutating func setAdTechProvider(_ id: Int, consent: Bool) throws(ConsentChangeError) {
        adTechProviderConsents = try Self.set(adTechProviderConsents, id, consent, .adTechProvider, IDSet.maxID)
    }

    /// Sets consent for every vendor of `shown` at once: given to those also in `consented`,
    /// withdrawn from the others (a notice's vendor list saved in one step).
    public mutating func setVendors(consented: IDSet, among shown: IDSet) {
        vendorConsents = vendorConsents.subtracting(shown).union(consented.intersection(shown))
    }

    /// Keeps the legitimate interest of the vendors of `shown` that are also in `kept`, and
    /// objects to the others'.
    public mutating func setVendorLegitimateInterests(kept: IDSet, among shown: IDSet) {
        vendorLegitimateInterests = vendorLegitimateInterests.subtracting(shown).union(kept.intersection(shown))
    }

    /// Withdraws consent to purpose `id`; an id outside 1-24 is simply not held.
    public mutating func withdrawPurpose(_ id: Int) {
        purposeConsents = purposeConsents.removing(id)
    }

    /// Opts out of special feature `id`; an id outside 1-12 is simply not held.
    public mutating func withdrawSpecialFeature(_ id: Int) {
        specialFeatureOptIns = specialFeatureOptIns.removing(id)
    }

    private static func set(
        _ ids: IDSet, _ id: Int, _ member: Bool, _ kind: ConsentChangeError.Kind, _ largest: Int
    ) throws(ConsentChangeError) -> IDSet {
        guard id >= 1, id <= largest else { throw .outOfRange(kind, id, largest: largest) }
        return member ? ids.inserting(id) : ids.removing(id)
    }

    func applied(to state: ConsentState, at date: Date) -> ConsentState {
        ConsentState(
            purposeConsents: purposeConsents, purposeLegitimateInterests: purposeLegitimateInterests,
            specialFeatureOptIns: specialFeatureOptIns, vendorConsents: vendorConsents,
            vendorLegitimateInterests: vendorLegitimateInterests, publisherConsents: publisherConsents,
            publisherLegitimateInterests: publisherLegitimateInterests, numCustomPurposes: state.numCustomPurposes,
            customPurposeConsents: customPurposeConsents, customPurposeLegitimateInterests: customPurposeLegitimateInterests,
            disclosedVendors: state.disclosedVendors, vendorListVersion: state.vendorListVersion,
            tcfPolicyVersion: state.tcfPolicyVersion, publisherCC: state.publisherCC,
            purposeOneTreatment: state.purposeOneTreatment, useNonStandardTexts: state.useNonStandardTexts,
            publisherRestrictions: state.publisherRestrictions, consentScreen: consentScreen,
            consentLanguage: consentLanguage.uppercased(), noticeVersion: state.noticeVersion, created: state.created, updated: date,
            adTechProviderConsents: adTechProviderConsents, disclosedAdTechProviders: state.disclosedAdTechProviders,
            prefersAdFree: prefersAdFree, nonPersonalizedOnly: state.nonPersonalizedOnly)
    }
}

/// A change a ``ConsentChanges`` transaction refused; nothing of the transaction is applied.
public enum ConsentChangeError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What an id names.
    public enum Kind: String, Sendable {
        /// A TCF purpose.
        case purpose
        /// A special feature.
        case specialFeature = "special feature"
        /// A vendor.
        case vendor
        /// One of the publisher's purposes.
        case publisherPurpose = "publisher purpose"
        /// A publisher custom purpose.
        case customPurpose = "custom purpose"
        /// A Google ad-tech provider.
        case adTechProvider = "ad-tech provider"
    }

    /// The id is outside `1...largest`, the ids its kind allows.
    case outOfRange(Kind, Int, largest: Int)
    /// Legitimate interest was asked for a purpose TCF allows only on consent (1, 3-6).
    case consentOnlyPurpose(Int)

    /// What was refused and what the caller can do.
    public var description: String {
        switch self {
        case .outOfRange(let kind, let id, let largest):
            largest < 1
                ? "\(kind.rawValue) \(id) does not exist: the publisher defined none"
                : "\(kind.rawValue) \(id) is outside 1-\(largest)"
        case .consentOnlyPurpose(let id):
            "purpose \(id) can only be processed on consent (TCF 2.2 allows no legitimate interest for purposes 1 and 3-6)"
        }
    }
}
