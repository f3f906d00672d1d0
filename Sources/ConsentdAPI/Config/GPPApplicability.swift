/// Which sections of the IAB's Global Privacy Platform apply to a visitor, and the publisher's
/// MSPA settings the US sections carry: the `gpp` object of `GET /v1/config` (``AppConfig/gpp``)
/// and of `POST /v1/web/session` (``WebSession/gpp``).
///
/// consentd computes it from the region decision and the publisher's `us:` settings (ConsentKit's
/// `USPrivacySettings.applicability(region:subdivision:)`, decision record 0031). JSON:
/// `{"applicableSections": [8], "mspaCoveredTransaction": false, "mspaMode": null}`.
public struct GPPApplicability: Sendable, Equatable, Codable {
    /// The GPP section ids in force for the visitor: `[7]` (usnat), one state's section
    /// (`[8]` for usca), or `[]` when none applies (outside the US, or the region unknown; the
    /// CMP API's ping says `[-1]` for that).
    public var applicableSections: [Int]
    /// Whether the publisher signed the MSPA and declares its transactions covered (the US
    /// sections' `MspaCoveredTransaction`: 1 when true, 2 when false).
    public var mspaCoveredTransaction: Bool
    /// How a covered transaction runs; nil when not covered (the sections' mode fields are then 0).
    public var mspaMode: MSPAMode?

    /// An answer.
    public init(applicableSections: [Int], mspaCoveredTransaction: Bool = false, mspaMode: MSPAMode? = nil) {
        self.applicableSections = applicableSections
        self.mspaCoveredTransaction = mspaCoveredTransaction
        self.mspaMode = mspaMode
    }

    /// No section applies and the transaction is not covered.
    public static let notApplicable = GPPApplicability(applicableSections: [])

    /// The mode of an MSPA covered transaction; the raw values are the API's and publishers.yaml's.
    public enum MSPAMode: String, Sendable, Equatable, Codable, CaseIterable {
        /// Opt-Out Option Mode: the publisher sells, shares or targets ads and offers the
        /// opt-outs (`MspaOptOutOptionMode` 1, `MspaServiceProviderMode` 2; `MspaMode` 1).
        case optOut
        /// Service Provider Mode: it does none of that; downstream parties act as its service
        /// providers (`MspaOptOutOptionMode` 2, `MspaServiceProviderMode` 1; `MspaMode` 2).
        case serviceProvider
    }

    private enum CodingKeys: String, CodingKey {
        case applicableSections, mspaCoveredTransaction, mspaMode
    }

    /// Writes every field, `mspaMode` as `null` when not covered.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(applicableSections, forKey: .applicableSections)
        try container.encode(mspaCoveredTransaction, forKey: .mspaCoveredTransaction)
        try container.encode(mspaMode, forKey: .mspaMode)
    }
}
