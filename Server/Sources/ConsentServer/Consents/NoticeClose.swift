import ConsentKitFormats
import ConsentRequests
import ConsentdAPI
import Foundation

/// A notice closed without a choice (its `dismissed` action, docs/notice-protocol.md), as the
/// analytics count it (docs/decisions/0044): what the notice was (its version, language and
/// platform), never who closed it. It is no consent event and names no subject; it adds one
/// ``ChoiceOutcome/closed`` to the choice rollups and nothing else.
public struct NoticeClose: Sendable, Equatable {
    /// The version of the notice closed, as a consent event's proof names it (1-100 bytes).
    public var noticeVersion: String
    /// The language it was shown in (a BCP 47 tag such as `de` or `pt-BR`), as a proof's.
    public var language: String
    /// The platform it was shown on.
    public var platform: ConsentProof.Platform

    /// The value a close counts under in the `method` dimension: the notice's action, since no
    /// proof method was used.
    public static let method = "dismissed"

    /// A close of the notice `noticeVersion` shown in `language` on `platform`.
    public init(noticeVersion: String, language: String, platform: ConsentProof.Platform) {
        self.noticeVersion = noticeVersion
        self.language = language
        self.platform = platform
    }

    /// The body of `POST /v1/analytics/closed`, as sent.
    private struct Body: Decodable {
        var noticeVersion: String
        var language: String
        var platform: ConsentProof.Platform
        var closedAt: String?
    }

    /// The body of `POST /v1/analytics/closed` (`noticeVersion`, `language`, `platform`, and
    /// optionally `closedAt`, when the app's notice was closed) and the time it is counted at
    /// (`closedAt`, else `now`), every field checked as a consent event's is (`closedAt` as its
    /// `collectedAt`): a missing field or a bad value is refused (400) naming it.
    static func decode(_ body: Data, now: Date) throws(APIError) -> (close: NoticeClose, closedAt: Date) {
        let sent = try RequestBody.decode(Body.self, from: body)
        let version = sent.noticeVersion
        // Printable as a proof's fields are (ConsentRequests' checkPrintable): no control
        // character, no invisible formatting one.
        let printable = version.unicodeScalars.allSatisfy {
            $0.value >= 0x20 && !(0x7F...0x9F).contains($0.value)
                && ![.format, .lineSeparator, .paragraphSeparator].contains($0.properties.generalCategory)
        }
        guard (1...100).contains(version.utf8.count), printable else {
            throw APIError.badRequest("noticeVersion must be 1 to 100 bytes of printable text, such as 3", field: "noticeVersion")
        }
        // BCP 47 in the form consent notices use, as a proof's language.
        let subtags = sent.language.split(separator: "-", omittingEmptySubsequences: false)
        let isLanguage = sent.language.utf8.count <= 35
            && (2...3).contains(subtags[0].count) && subtags[0].allSatisfy({ $0.isASCII && $0.isLetter })
            && subtags.dropFirst().allSatisfy { (1...8).contains($0.count) && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) } }
        guard isLanguage else {
            throw APIError.badRequest("language must be a BCP 47 language tag such as de or pt-BR", field: "language")
        }
        var closedAt = now
        if let text = sent.closedAt {
            guard let parsed = ISO8601.parse(text) else {
                throw APIError.badRequest("closedAt must be an ISO 8601 date-time with a time zone, such as 2026-11-23T10:15:30.250Z",
                                          field: "closedAt")
            }
            closedAt = parsed.date
            if closedAt > now.addingTimeInterval(CheckedConsentEvent.allowedClockSkew) {
                throw APIError.badRequest("closedAt \(text) lies more than 10 minutes after the server's clock (\(ISO8601.format(now)))",
                                          field: "closedAt")
            }
            if closedAt < CheckedConsentEvent.earliestCollectedAt {
                throw APIError.badRequest("closedAt must not be before 2018-05-25", field: "closedAt")
            }
        }
        return (NoticeClose(noticeVersion: version, language: sent.language, platform: sent.platform), closedAt)
    }
}
