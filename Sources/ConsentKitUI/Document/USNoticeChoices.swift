import ConsentKit

/// The US opt-outs as the notice shows and answers them: `current.us` in the document, `choices.us`
/// in a "save" result (`docs/notice-protocol.md`, US mode).
public struct USNoticeChoices: Sendable, Equatable, Codable {
    /// "Do Not Sell": opted out of sale.
    public var saleOptOut: Bool
    /// "Do Not Share": opted out of sharing for cross-context behavioural advertising.
    public var sharingOptOut: Bool
    /// Opted out of targeted advertising.
    public var targetedAdvertisingOptOut: Bool
    /// "Limit the Use of My Sensitive Personal Information".
    public var sensitiveDataLimited: Bool

    /// Choices.
    public init(saleOptOut: Bool, sharingOptOut: Bool, targetedAdvertisingOptOut: Bool, sensitiveDataLimited: Bool) {
        self.saleOptOut = saleOptOut
        self.sharingOptOut = sharingOptOut
        self.targetedAdvertisingOptOut = targetedAdvertisingOptOut
        self.sensitiveDataLimited = sensitiveDataLimited
    }

    /// The opt-outs a choice holds.
    public init(_ choice: USPrivacyChoice) {
        self.init(saleOptOut: choice.saleOptOut, sharingOptOut: choice.sharingOptOut,
                  targetedAdvertisingOptOut: choice.targetedAdvertisingOptOut, sensitiveDataLimited: choice.sensitiveDataLimited)
    }
}
