import Foundation
import TCF

/// The user's consent decision: one immutable value holding every choice, what the notice
/// disclosed and the audit fields. The TC string, the v1.1 consent string and every IAB key
/// are pure functions of it (``tcString(cmp:)``, ``consentStringV1(cmp:)``, ``IABKeyValues``).
///
/// Make one with ``agreeToAll(scope:at:)``, ``disagreeToAll(scope:at:)`` or
/// ``init(tcString:)``; change one with ``changing(at:_:)``, which applies a whole set of
/// changes at once and returns the new value.
public struct ConsentState: Sendable, Equatable {
    // MARK: Choices

    /// Purposes (1-24) the user consented to.
    public let purposeConsents: IDSet
    /// Purposes whose legitimate interest was disclosed and not objected to; a disclosed
    /// purpose missing here is an objection.
    public let purposeLegitimateInterests: IDSet
    /// Special features (1-12) the user opted in to.
    public let specialFeatureOptIns: IDSet
    /// Vendors the user consented to.
    public let vendorConsents: IDSet
    /// Vendors whose legitimate interest was disclosed and not objected to.
    public let vendorLegitimateInterests: IDSet
    /// The publisher's own purposes the user consented to.
    public let publisherConsents: IDSet
    /// The publisher's own purposes on legitimate interest, not objected to.
    public let publisherLegitimateInterests: IDSet
    /// How many custom purposes the publisher defined (0-63).
    public let numCustomPurposes: Int
    /// Custom purposes the user consented to.
    public let customPurposeConsents: IDSet
    /// Custom purposes on legitimate interest, not objected to.
    public let customPurposeLegitimateInterests: IDSet

    /// Google ad-tech providers (Additional Consent) the user consented to.
    public let adTechProviderConsents: IDSet
    /// The user prefers the ad-free (paid) version of the app.
    public let prefersAdFree: Bool

    // MARK: What the notice covered

    /// The Google ad-tech providers the notice disclosed.
    public let disclosedAdTechProviders: IDSet
    /// Whether a publisher of the app served only non-personalized ads when the user decided.
    public let nonPersonalizedOnly: Bool

    /// The vendors the notice disclosed (the TC string's DisclosedVendors segment).
    public let disclosedVendors: IDSet
    /// The Global Vendor List version the notice showed.
    public let vendorListVersion: Int
    /// The TCF policy version of that list.
    public let tcfPolicyVersion: Int
    /// The publisher's country, ISO 3166-1 alpha-2 upper-case (`AA` unknown).
    public let publisherCC: String
    /// Purpose 1 was not disclosed (where a country's law allows it).
    public let purposeOneTreatment: Bool
    /// The notice used non-standard texts for stacks or illustrations.
    public let useNonStandardTexts: Bool
    /// The publisher's restrictions on vendors' purposes.
    public let publisherRestrictions: [PublisherRestriction]

    // MARK: Audit

    /// The notice screen the choice was made on (the TC string's `ConsentScreen`, 0-63).
    public let consentScreen: Int
    /// The notice's language, ISO 639-1 upper-case (`EN`).
    public let consentLanguage: String
    /// The publisher's version of the notice text the user saw (0 when unknown, as for a
    /// decision received as a TC string).
    public let noticeVersion: Int
    /// When the user first decided, to the millisecond (what storage keeps).
    public let created: Date
    /// When the decision last changed, to the millisecond.
    public let updated: Date
    /// The other CMP whose stored string this decision was taken over from at ConsentKit's
    /// first start (``ConsentTakeover``); nil for a decision made through ConsentKit. Any
    /// change makes the decision ConsentKit's own again.
    public let takenOver: ConsentTakeover?

    /// Creates a state from every field; see each property. Prefer the operations, which
    /// derive the fields from what a notice showed.
    public init(
        purposeConsents: IDSet = [], purposeLegitimateInterests: IDSet = [], specialFeatureOptIns: IDSet = [],
        vendorConsents: IDSet = [], vendorLegitimateInterests: IDSet = [],
        publisherConsents: IDSet = [], publisherLegitimateInterests: IDSet = [],
        numCustomPurposes: Int = 0, customPurposeConsents: IDSet = [], customPurposeLegitimateInterests: IDSet = [],
        disclosedVendors: IDSet = [], vendorListVersion: Int, tcfPolicyVersion: Int, publisherCC: String = "AA",
        purposeOneTreatment: Bool = false, useNonStandardTexts: Bool = false, publisherRestrictions: [PublisherRestriction] = [],
        consentScreen: Int = 0, consentLanguage: String = "EN", noticeVersion: Int = 0, created: Date, updated: Date,
        adTechProviderConsents: IDSet = [], disclosedAdTechProviders: IDSet = [], prefersAdFree: Bool = false,
        nonPersonalizedOnly: Bool = false, takenOver: ConsentTakeover? = nil
    ) {
        self.purposeConsents = purposeConsents
        self.purposeLegitimateInterests = purposeLegitimateInterests
        self.specialFeatureOptIns = specialFeatureOptIns
        self.vendorConsents = vendorConsents
        self.vendorLegitimateInterests = vendorLegitimateInterests
        self.publisherConsents = publisherConsents
        self.publisherLegitimateInterests = publisherLegitimateInterests
        self.numCustomPurposes = numCustomPurposes
        self.customPurposeConsents = customPurposeConsents
        self.customPurposeLegitimateInterests = customPurposeLegitimateInterests
        self.disclosedVendors = disclosedVendors
        self.vendorListVersion = vendorListVersion
        self.tcfPolicyVersion = tcfPolicyVersion
        self.publisherCC = publisherCC
        self.purposeOneTreatment = purposeOneTreatment
        self.useNonStandardTexts = useNonStandardTexts
        self.publisherRestrictions = publisherRestrictions
        self.consentScreen = consentScreen
        self.consentLanguage = consentLanguage
        self.noticeVersion = noticeVersion
        self.adTechProviderConsents = adTechProviderConsents
        self.disclosedAdTechProviders = disclosedAdTechProviders.union(adTechProviderConsents)
        self.prefersAdFree = prefersAdFree
        self.nonPersonalizedOnly = nonPersonalizedOnly
        self.takenOver = takenOver
        self.created = Self.toMilliseconds(created)
        self.updated = Self.toMilliseconds(updated)
    }

    private static func toMilliseconds(_ date: Date) -> Date {
        Date(timeIntervalSince1970: (date.timeIntervalSince1970 * 1000).rounded() / 1000)
    }
}
