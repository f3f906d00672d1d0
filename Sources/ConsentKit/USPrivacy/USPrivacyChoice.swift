import ConsentKitFormats
import Foundation

/// The user's answer to the US notice at collection: the opt-outs of sale, sharing and targeted
/// advertising, and California's (Utah's, Iowa's) "Limit the Use of My Sensitive Personal
/// Information", with the notice it answered (decision record 0032).
///
/// US state laws are opt-out regimes: nothing waits for this answer, and no answer yet means no
/// opt-out (unless a signal says otherwise, ``USPrivacySignals``). ``gppSections(of:applicability:signals:)``
/// writes it into the GPP sections in force.
///
/// JSON (the form ConsentKit keeps and consentd's web session carries):
/// `{"saleOptOut": true, "sharingOptOut": true, "targetedAdvertisingOptOut": true,
/// "sensitiveDataLimited": false, "noticeVersion": 3, "language": "en", "decided": "2026-11-27T06:00:00.250Z"}`.
public struct USPrivacyChoice: Sendable, Equatable, Codable {
    /// The user opted out of the sale of their personal information.
    public var saleOptOut: Bool
    /// The user opted out of sharing it for cross-context behavioural advertising (California's
    /// term; written where the section has `SharingOptOut`).
    public var sharingOptOut: Bool
    /// The user opted out of targeted advertising.
    public var targetedAdvertisingOptOut: Bool
    /// The user asked to limit the use of their sensitive personal information (offered where the
    /// section's sensitive data is an opt-out: CA, UT, IA).
    public var sensitiveDataLimited: Bool
    /// The version of the notice the user answered (the publisher's notice version).
    public var noticeVersion: Int
    /// The notice's language, ISO 639-1, lower case (`en`).
    public var language: String
    /// When the user answered, to the millisecond.
    public var decided: Date

    /// A choice; `decided` is kept to the millisecond (the nearest), as it is stored and sent.
    public init(
        saleOptOut: Bool, sharingOptOut: Bool, targetedAdvertisingOptOut: Bool, sensitiveDataLimited: Bool = false,
        noticeVersion: Int, language: String, decided: Date
    ) {
        self.saleOptOut = saleOptOut
        self.sharingOptOut = sharingOptOut
        self.targetedAdvertisingOptOut = targetedAdvertisingOptOut
        self.sensitiveDataLimited = sensitiveDataLimited
        self.noticeVersion = noticeVersion
        self.language = language.lowercased()
        self.decided = Date(timeIntervalSince1970: Double(ISO8601.milliseconds(of: decided)) / 1000)
    }

    /// Whether any of sale, sharing and targeted advertising is opted out: what Google's
    /// restricted data processing (`gad_rdp`) and Consent Mode's ad signals follow.
    public var optsOutOfAds: Bool { saleOptOut || sharingOptOut || targetedAdvertisingOptOut }

    /// The JSON field names.
    public enum CodingKeys: String, CodingKey, CaseIterable, Sendable {
        /// `saleOptOut`.
        case saleOptOut
        /// `sharingOptOut`.
        case sharingOptOut
        /// `targetedAdvertisingOptOut`.
        case targetedAdvertisingOptOut
        /// `sensitiveDataLimited`.
        case sensitiveDataLimited
        /// `noticeVersion`.
        case noticeVersion
        /// `language`.
        case language
        /// `decided`: ISO 8601, UTC, milliseconds.
        case decided
    }

    /// Reads the JSON form; `decided` must be an ISO 8601 date-time.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let text = try container.decode(String.self, forKey: .decided)
        guard let milliseconds = ISO8601.milliseconds(text) else {
            throw DecodingError.dataCorruptedError(forKey: .decided, in: container,
                                                   debugDescription: "not an ISO 8601 date-time: \(text)")
        }
        self.init(
            saleOptOut: try container.decode(Bool.self, forKey: .saleOptOut),
            sharingOptOut: try container.decode(Bool.self, forKey: .sharingOptOut),
            targetedAdvertisingOptOut: try container.decode(Bool.self, forKey: .targetedAdvertisingOptOut),
            sensitiveDataLimited: try container.decode(Bool.self, forKey: .sensitiveDataLimited),
            noticeVersion: try container.decode(Int.self, forKey: .noticeVersion),
            language: try container.decode(String.self, forKey: .language),
            decided: Date(timeIntervalSince1970: Double(milliseconds) / 1000))
    }

    /// Writes the JSON form, `decided` in UTC to the millisecond.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(saleOptOut, forKey: .saleOptOut)
        try container.encode(sharingOptOut, forKey: .sharingOptOut)
        try container.encode(targetedAdvertisingOptOut, forKey: .targetedAdvertisingOptOut)
        try container.encode(sensitiveDataLimited, forKey: .sensitiveDataLimited)
        try container.encode(noticeVersion, forKey: .noticeVersion)
        try container.encode(language, forKey: .language)
        try container.encode(ISO8601.format(decided), forKey: .decided)
    }
}
