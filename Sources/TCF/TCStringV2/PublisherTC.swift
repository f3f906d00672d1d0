/// The PublisherTC segment: the publisher's own transparency and consent signals.
public struct PublisherTC: Sendable, Equatable {
    /// `PubPurposesConsent`: standard purposes (1-24) the user consented to for the publisher.
    public let pubPurposesConsent: IDSet
    /// `PubPurposesLITransparency`: standard purposes (1-24) under the publisher's legitimate
    /// interest, disclosed and not objected to.
    public let pubPurposesLITransparency: IDSet
    /// `NumCustomPurposes`: how many custom purposes the publisher defined (0-63).
    public let numCustomPurposes: Int
    /// `CustomPurposesConsent`: custom purposes (1-`numCustomPurposes`) consented to.
    public let customPurposesConsent: IDSet
    /// `CustomPurposesLITransparency`: custom purposes under legitimate interest, not objected to.
    public let customPurposesLITransparency: IDSet

    /// A PublisherTC segment; custom purpose ids must lie in `1...numCustomPurposes`.
    public init(
        pubPurposesConsent: IDSet = [], pubPurposesLITransparency: IDSet = [], numCustomPurposes: Int = 0,
        customPurposesConsent: IDSet = [], customPurposesLITransparency: IDSet = []
    ) {
        self.pubPurposesConsent = pubPurposesConsent
        self.pubPurposesLITransparency = pubPurposesLITransparency
        self.numCustomPurposes = numCustomPurposes
        self.customPurposesConsent = customPurposesConsent
        self.customPurposesLITransparency = customPurposesLITransparency
    }
}
