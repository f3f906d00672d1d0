/// What a refresh (``ConsentManager/refresh()``) did: the region decision it reached and where
/// from, the vendor list held afterwards, and what failed on the way. The manager carried on
/// with what it had after each failure; the same failures also went out as
/// ``ConsentEvent/error(_:)`` events.
public struct RefreshReport: Sendable, Equatable {
    /// The region decision after the refresh: the region itself (undetermined when nobody could
    /// tell); ``ConsentManager/gdprApplies`` says what the outputs make of it with the decision
    /// held (``AskRules/gdprApplies(region:hasDecision:)``).
    public var gdprApplies: GDPRApplicability
    /// Where that decision came from.
    public var regionSource: RegionSource
    /// The version of the vendor list held afterwards; nil when none is held.
    public var vendorListVersion: Int?
    /// Whether the refresh brought a vendor list other than the one held before it.
    public var vendorListChanged: Bool
    /// What failed, in the order it happened: consentd's answer, the region timeout, the vendor
    /// list download. Empty when everything answered.
    public var errors: [ConsentKitError]

    /// A report.
    public init(
        gdprApplies: GDPRApplicability, regionSource: RegionSource, vendorListVersion: Int?, vendorListChanged: Bool,
        errors: [ConsentKitError]
    ) {
        self.gdprApplies = gdprApplies
        self.regionSource = regionSource
        self.vendorListVersion = vendorListVersion
        self.vendorListChanged = vendorListChanged
        self.errors = errors
    }

    /// Whether consentd answered and the vendor list refresh succeeded.
    public var succeeded: Bool { errors.isEmpty }
}
