/// One publisher restriction entry: for `purposeId`, the listed vendors must follow
/// `restrictionType`.
public struct PublisherRestriction: Sendable, Equatable {
    /// `RestrictionType`: what the publisher requires (2 bits).
    public enum RestrictionType: Int, Sendable, CaseIterable {
        /// 0: the purpose is not allowed for the listed vendors.
        case notAllowed = 0
        /// 1: the vendors must use consent as legal basis (they are flexible).
        case requireConsent = 1
        /// 2: the vendors must use legitimate interest as legal basis.
        case requireLegitimateInterest = 2
        /// 3: reserved by the spec; decodes, and is reported by validation.
        case undefined = 3
    }

    /// `PurposeId`: the purpose restricted (6 bits).
    public let purposeId: Int
    /// `RestrictionType`: what the publisher requires.
    public let restrictionType: RestrictionType
    /// The vendors the restriction applies to; may name ids not (or no longer) on the list.
    public let vendorIds: IDSet

    /// A restriction of `purposeId` for `vendorIds`.
    public init(purposeId: Int, restrictionType: RestrictionType, vendorIds: IDSet) {
        self.purposeId = purposeId
        self.restrictionType = restrictionType
        self.vendorIds = vendorIds
    }
}
