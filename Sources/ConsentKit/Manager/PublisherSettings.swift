import TCF

/// What the publisher decides about its notice: its own purposes, custom purposes, country,
/// restrictions, and the vendors it uses when consentd does not say.
public struct PublisherSettings: Sendable, Equatable {
    /// The vendors the publisher uses; nil: those consentd's configuration names, else every
    /// vendor of the list.
    public var vendorIds: IDSet?
    /// The publisher's own purposes asked on consent.
    public var purposes: IDSet
    /// The publisher's own purposes on legitimate interest.
    public var legitimateInterestPurposes: IDSet
    /// How many custom purposes the publisher defined (0-63).
    public var numCustomPurposes: Int
    /// Custom purposes on legitimate interest rather than consent.
    public var customLegitimateInterestPurposes: IDSet
    /// The publisher's country (`AA` unknown).
    public var countryCode: String
    /// Purpose 1 is not disclosed.
    public var purposeOneTreatment: Bool
    /// The notice uses non-standard texts.
    public var useNonStandardTexts: Bool
    /// Restrictions on vendors' purposes.
    public var restrictions: [PublisherRestriction]

    /// Settings; by default no purposes of its own and every vendor consentd names.
    public init(
        vendorIds: IDSet? = nil, purposes: IDSet = [], legitimateInterestPurposes: IDSet = [], numCustomPurposes: Int = 0,
        customLegitimateInterestPurposes: IDSet = [], countryCode: String = "AA", purposeOneTreatment: Bool = false,
        useNonStandardTexts: Bool = false, restrictions: [PublisherRestriction] = []
    ) {
        self.vendorIds = vendorIds
        self.purposes = purposes
        self.legitimateInterestPurposes = legitimateInterestPurposes
        self.numCustomPurposes = numCustomPurposes
        self.customLegitimateInterestPurposes = customLegitimateInterestPurposes
        self.countryCode = countryCode
        self.purposeOneTreatment = purposeOneTreatment
        self.useNonStandardTexts = useNonStandardTexts
        self.restrictions = restrictions
    }
}
