import ConsentKitFormats
import Foundation

/// The body of `POST /v1/consents`: one consent event.
///
/// On the wire the event is one flat object: `eventId`, `subjectId`, `collectedAt` and, beside
/// them, the fields of its ``consent`` (the consent strings, id lists and `proof`), as in
///
/// ```json
/// {"eventId": "0f8fad5b-d9cb-469f-a165-70867728950e", "subjectId": "customer-user-42",
///  "collectedAt": "2026-11-23T10:15:30.250Z", "purposeConsents": [1, 2, 3],
///  "proof": {"noticeId": "main", "noticeVersion": "3", "language": "de", "sdkVersion": "1.0.0",
///            "platform": "ios", "method": "custom"}}
/// ```
///
/// Built from Swift values (a new event id, the time as a `Date`):
///
/// ```swift
/// let event = ConsentEventRequest(collectedAt: Date(), consent: ConsentRecord(
///     tcString: tcString,
///     proof: ConsentProof(noticeId: "main", noticeVersion: "3", language: "de", sdkVersion: "1.0.0",
///                         platform: .ios, method: .acceptAll)))
/// ```
///
/// The server checks each field (ranges, lengths, strings that must decode) after decoding.
public struct ConsentEventRequest: Sendable, Equatable, Codable {
    /// The client-generated event id, a UUID: the idempotency key (a retry sends the same id and
    /// body and gets the first answer).
    public var eventId: String
    /// The subject the event is about (1-256 bytes); nil asks the server to create a `sub_…` id.
    public var subjectId: String?
    /// When the user made the choice, by the client's clock: ISO 8601 with an offset, such as
    /// `2026-11-23T10:15:30.250Z`.
    public var collectedAt: String
    /// What the publisher tells about the person (e-mail, names), stored only as a keyed hash and
    /// encrypted (see ``SubjectInformation``); nil for none.
    public var subject: SubjectInformation?
    /// The choice and its proof, written beside the fields above (not nested).
    public var consent: ConsentRecord

    /// Creates an event from the texts the API carries.
    public init(eventId: String, subjectId: String? = nil, collectedAt: String, subject: SubjectInformation? = nil, consent: ConsentRecord) {
        self.eventId = eventId
        self.subjectId = subjectId
        self.collectedAt = collectedAt
        self.subject = subject
        self.consent = consent
    }

    /// Creates an event: a new event id unless given, and `collectedAt` written in UTC to the
    /// millisecond (the nearest, see ``ISO8601/milliseconds(of:)``), as the server keeps it.
    public init(eventId: UUID = UUID(), subjectId: String? = nil, collectedAt: Date, subject: SubjectInformation? = nil, consent: ConsentRecord) {
        self.init(eventId: eventId.uuidString.lowercased(), subjectId: subjectId,
                  collectedAt: ISO8601.format(collectedAt), subject: subject, consent: consent)
    }

    /// The event's own JSON field names; the fields of ``ConsentRecord/CodingKeys`` sit beside them.
    public enum CodingKeys: String, CodingKey, CaseIterable, Sendable {
        /// `eventId`.
        case eventId
        /// `subjectId`.
        case subjectId
        /// `collectedAt`.
        case collectedAt
        /// `subject`.
        case subject
    }

    /// Every field name the body may have: the event's own and its record's, in that order.
    public static let fieldNames: [String] = CodingKeys.allCases.map(\.rawValue) + ConsentRecord.CodingKeys.allCases.map(\.rawValue)

    /// Reads the flat object.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        eventId = try container.decode(String.self, forKey: .eventId)
        subjectId = try container.decodeIfPresent(String.self, forKey: .subjectId)
        collectedAt = try container.decode(String.self, forKey: .collectedAt)
        subject = try container.decodeIfPresent(SubjectInformation.self, forKey: .subject)
        consent = try ConsentRecord(from: decoder)
    }

    /// Writes the flat object; an absent `subjectId` or `subject` is left out.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(eventId, forKey: .eventId)
        try container.encodeIfPresent(subjectId, forKey: .subjectId)
        try container.encode(collectedAt, forKey: .collectedAt)
        try container.encodeIfPresent(subject, forKey: .subject)
        try consent.encode(to: encoder)
    }
}
