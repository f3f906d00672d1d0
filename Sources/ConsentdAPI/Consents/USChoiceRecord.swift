/// A US privacy choice as a consent event of kind ``ConsentRecord/Kind/us`` carries it: the
/// user's own answers, before Global Privacy Control or a known child are applied (the event's
/// GPP string says what was signalled with them). The notice version and language are the
/// proof's, the time the event's `collectedAt`.
///
/// `{"saleOptOut": true, "sharingOptOut": true, "targetedAdvertisingOptOut": true, "sensitiveDataLimited": false}`
public struct USChoiceRecord: Sendable, Equatable, Codable {
    /// The user opted out of the sale of their personal information.
    public var saleOptOut: Bool
    /// The user opted out of sharing it for cross-context behavioural advertising.
    public var sharingOptOut: Bool
    /// The user opted out of targeted advertising.
    public var targetedAdvertisingOptOut: Bool
    /// The user asked to limit the use of their sensitive personal information.
    public var sensitiveDataLimited: Bool

    /// Creates a choice's values.
    public init(saleOptOut: Bool, sharingOptOut: Bool, targetedAdvertisingOptOut: Bool, sensitiveDataLimited: Bool) {
        self.saleOptOut = saleOptOut
        self.sharingOptOut = sharingOptOut
        self.targetedAdvertisingOptOut = targetedAdvertisingOptOut
        self.sensitiveDataLimited = sensitiveDataLimited
    }

    /// The JSON field names, as the API spells them.
    public enum CodingKeys: String, CodingKey, CaseIterable, Sendable {
        /// `saleOptOut`.
        case saleOptOut
        /// `sharingOptOut`.
        case sharingOptOut
        /// `targetedAdvertisingOptOut`.
        case targetedAdvertisingOptOut
        /// `sensitiveDataLimited`.
        case sensitiveDataLimited
    }
}
