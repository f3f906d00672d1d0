@testable import ConsentRequests
import ConsentdAPI
import Foundation
import Testing

/// How a batch body is cut into its events' texts before each is checked on its own.
@Suite("Consent batch envelope")
struct ConsentBatchEnvelopeTests {
    @Test("each event's text is cut out exactly as sent, whatever its strings, nesting and whitespace hold")
    func eventsAreCutExactly() throws {
        let events = [
            #"{"a": "]}, {\"b\": [", "c": [[1], {"d": {}}]}"#,
            #"[]"#,
            #""text \\\" ]""#,
            #"-12.5e3"#,
            #"null"#,
            #"{"\u0065": "\\"}"#,
        ]
        let body = " \r\n{ \"events\" :\t[ " + events.joined(separator: " ,\n") + " ] } \n"
        let envelope = try ConsentBatchEnvelope.decode(Data(body.utf8))
        #expect(envelope.events.map { String(decoding: $0, as: UTF8.self) } == events)
    }

    @Test("the envelope's faults refuse the whole batch", arguments: [
        ("", InvalidField.Code.invalidJSON, nil),
        (#"{"events": [1,]}"#, .invalidJSON, nil),
        (#"{"events": [1] "#, .invalidJSON, nil),
        (#"[{"events": []}]"#, .invalidJSON, nil),
        (#"null"#, .invalidJSON, nil),
        (#"{"Events": [1]}"#, .invalidField, "Events"),
        (#"{"events": [1], "b": 1, "a": 2}"#, .invalidField, "a"),
        (#"{"events": [1], "events": [1]}"#, .invalidField, "events"),
        (#"{}"#, .missingField, "events"),
        (#"{"events": 1}"#, .invalidField, "events"),
        (#"{"events": []}"#, .invalidField, "events"),
    ] as [(String, InvalidField.Code, String?)])
    func envelopeFaults(body: String, code: InvalidField.Code, field: String?) {
        let error = #expect(throws: InvalidField.self) { try ConsentBatchEnvelope.decode(Data(body.utf8)) }
        #expect(error?.code == code)
        #expect(error?.field == field)
        #expect(error?.message.isEmpty == false)
    }

    @Test("a batch holds 1 to maximumCount events")
    func count() throws {
        func body(_ count: Int) -> Data { Data(("{\"events\": [" + Array(repeating: "{}", count: count).joined(separator: ",") + "]}").utf8) }
        #expect(try ConsentBatchEnvelope.decode(body(1)).events.count == 1)
        #expect(try ConsentBatchEnvelope.decode(body(ConsentBatchRequest.maximumCount)).events.count == ConsentBatchRequest.maximumCount)
        #expect(throws: InvalidField.self) { try ConsentBatchEnvelope.decode(body(ConsentBatchRequest.maximumCount + 1)) }
    }

    @Test("an event's id is read as sent, when it is a string")
    func sentEventId() {
        #expect(ConsentBatchEnvelope.sentEventId(in: Data(#"{"eventId": "ABC", "x": [}"#.utf8)) == nil)
        #expect(ConsentBatchEnvelope.sentEventId(in: Data(#"{"eventId": "0F8FAD5B-d9cb", "x": 1}"#.utf8)) == "0F8FAD5B-d9cb")
        #expect(ConsentBatchEnvelope.sentEventId(in: Data(#"{"eventId": 5}"#.utf8)) == nil)
        #expect(ConsentBatchEnvelope.sentEventId(in: Data(#"[]"#.utf8)) == nil)
    }
}
