import ConsentdAPI
import Foundation

/// A `POST /v1/consents/batch` body whose envelope passed every check: the JSON text of each
/// event, in order, for ``CheckedConsentEvent/decode(_:now:)`` to check one by one.
///
/// The envelope is `{"events": [...]}`: a JSON object with the one key `events`, an array of 1 to
/// `ConsentBatchRequest.maximumCount` elements. What is wrong with the envelope refuses the whole
/// batch; what is wrong with an event (its JSON included, as long as the body as a whole is JSON)
/// is that event's alone, found when its text is decoded as a single append's body would be.
public struct ConsentBatchEnvelope: Sendable, Equatable {
    /// Each event's JSON text as sent (without the whitespace around it), in order.
    public var events: [Data]

    /// Creates an envelope of event texts.
    public init(events: [Data]) {
        self.events = events
    }

    /// Checks a request body's envelope: the body must be JSON (else `invalid_json`), an object
    /// (`invalid_json`) without a key twice or any key but `events` (`invalid_field` naming the
    /// key), `events` must be present (`missing_field`) and an array of 1 to
    /// `ConsentBatchRequest.maximumCount` elements (`invalid_field`, field `events`).
    public static func decode(_ body: Data) throws(InvalidField) -> ConsentBatchEnvelope {
        // The whole text is read as JSON by the decoder that reads single appends, so a body is
        // JSON for a batch exactly when it would be for one event.
        do {
            _ = try JSONDecoder().decode(AnyJSON.self, from: body)
        } catch {
            throw InvalidField(code: .invalidJSON, field: nil, message: "the body is not valid JSON")
        }
        let bytes = [UInt8](body)
        let eventsKey = ConsentBatchEnvelope.eventsKey
        guard let members = JSONSlices.members(of: bytes) else {
            throw InvalidField(code: .invalidJSON, field: nil, message: bytes.first(where: { $0 > 0x20 }) == UInt8(ascii: "{")
                ? "the body is not valid JSON" : "the body must be a JSON object {\"\(eventsKey)\": [events]}")
        }
        // As JSONPrescan has it for an event: the decoder would keep one of two values silently.
        var seen: Set<String> = []
        for member in members where !seen.insert(member.key).inserted {
            throw InvalidField(code: .invalidField, field: member.key,
                               message: "\(member.key.isEmpty ? "the key \"\"" : member.key) appears more than once in its object")
        }
        if let unknown = members.map(\.key).filter({ $0 != eventsKey }).sorted().first {
            throw InvalidField(code: .invalidField, field: unknown,
                               message: "\(unknown.isEmpty ? "the key \"\"" : unknown) is not a field of this object; a batch is {\"\(eventsKey)\": [events]}")
        }
        let limit = ConsentBatchRequest.maximumCount
        guard let value = members.first(where: { $0.key == eventsKey })?.value else {
            throw InvalidField(code: .missingField, field: eventsKey, message: "\(eventsKey) is required: an array of 1 to \(limit) consent events")
        }
        guard let elements = JSONSlices.elements(of: bytes, in: value) else {
            if bytes[value.lowerBound] == UInt8(ascii: "[") {
                throw InvalidField(code: .invalidJSON, field: nil, message: "the body is not valid JSON")
            }
            throw InvalidField(code: .invalidField, field: eventsKey, message: "\(eventsKey) must be an array of 1 to \(limit) consent events")
        }
        guard !elements.isEmpty else {
            throw InvalidField(code: .invalidField, field: eventsKey, message: "\(eventsKey) is empty; a batch carries 1 to \(limit) events")
        }
        guard elements.count <= limit else {
            throw InvalidField(code: .invalidField, field: eventsKey,
                               message: "\(eventsKey) holds \(elements.count) events; a batch carries at most \(limit), send the rest in another")
        }
        return ConsentBatchEnvelope(events: elements.map { Data(bytes[$0]) })
    }

    /// The `eventId` an event's text carries, as sent; nil when it has none that is a string (or
    /// the text is not a JSON object).
    public static func sentEventId(in event: Data) -> String? {
        (try? JSONDecoder().decode(SentEventId.self, from: event))?.eventId
    }

    /// `events`, the envelope's one key.
    static let eventsKey = "events"
}

/// Any JSON value, read and forgotten: decoding it checks that a text is JSON.
private struct AnyJSON: Decodable {
    init(from decoder: any Decoder) throws {}
}

/// An event's `eventId`, whatever else the event holds.
private struct SentEventId: Decodable {
    let eventId: String?

    private enum CodingKeys: String, CodingKey {
        case eventId
    }

    init(from decoder: any Decoder) throws {
        eventId = try? decoder.container(keyedBy: CodingKeys.self).decodeIfPresent(String.self, forKey: .eventId)
    }
}
