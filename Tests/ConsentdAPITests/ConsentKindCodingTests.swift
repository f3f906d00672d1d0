import ConsentdAPI
import Foundation
import Testing

/// The record kinds (decision record 0035): an event's `kind` and `usChoice`, and a subject state's
/// `otherKinds`, as older and newer clients read them.
@Suite("Consent record kinds")
struct ConsentKindCodingTests {
    static let proof = ConsentProof(noticeId: "main", noticeVersion: "3", language: "en", sdkVersion: "1.0.0", platform: .ios, method: .rejectAll)

    @Test("an event of an older client, without kind, is a TCF record")
    func noKindIsTCF() throws {
        let json = """
            {"eventId": "0f8fad5b-d9cb-469f-a165-70867728950e", "collectedAt": "2026-11-23T10:15:30.250Z", "gppString": "DBABLA~BVQqAAAAAg",
             "proof": {"noticeId": "main", "noticeVersion": "3", "language": "de", "sdkVersion": "1.0.0", "platform": "ios", "method": "custom"}}
            """
        let event = try JSONDecoder().decode(ConsentEventRequest.self, from: Data(json.utf8))
        #expect(event.consent.kind == nil)
        #expect(event.consent.recordKind == .tcf)
        #expect(try jsonObject(event)["kind"] == nil)
    }

    @Test("a US choice travels as kind us with its values in usChoice, beside the event's other fields")
    func usChoiceIsWritten() throws {
        let values = USChoiceRecord(saleOptOut: true, sharingOptOut: false, targetedAdvertisingOptOut: true, sensitiveDataLimited: false)
        let event = ConsentEventRequest(
            eventId: "0f8fad5b-d9cb-469f-a165-70867728950e", subjectId: nil, collectedAt: "2026-11-23T10:15:30.250Z",
            consent: ConsentRecord(gppString: "DBABBg~BVVqAAEABgA.QA", kind: .us, usChoice: values, proof: Self.proof))
        let object = try jsonObject(event)
        #expect(object["kind"] as? String == "us")
        #expect(object["usChoice"] as? [String: Bool] == ["saleOptOut": true, "sharingOptOut": false, "targetedAdvertisingOptOut": true,
                                                          "sensitiveDataLimited": false])
        let decoded = try JSONDecoder().decode(ConsentEventRequest.self, from: JSONEncoder().encode(event))
        #expect(decoded == event)
        #expect(decoded.consent.recordKind == .us)
    }

    @Test("a subject state without otherKinds (an older consentd's) is its one record; with them, each kind is found")
    func otherKinds() throws {
        let old = """
            {"subjectId": "s", "eventId": "e1", "collectedAt": "2026-11-23T10:15:30.250Z", "receivedAt": "2026-11-23T10:15:31.000Z",
             "consent": {"tcString": "CQ", "proof": {"noticeId": "main", "noticeVersion": "3", "language": "de", "sdkVersion": "1.0.0", "platform": "ios", "method": "custom"}}}
            """
        let state = try JSONDecoder().decode(SubjectState.self, from: Data(old.utf8))
        #expect(state.otherKinds == nil && state.allKinds == [state])
        #expect(state.state(of: .tcf) == state && state.state(of: .us) == nil)

        var us = state
        us.eventId = "e2"
        us.consent = ConsentRecord(gppString: "DBABBg~BVVqAAEABgA.QA", kind: .us,
                                   usChoice: USChoiceRecord(saleOptOut: true, sharingOptOut: true, targetedAdvertisingOptOut: true, sensitiveDataLimited: false),
                                   proof: Self.proof)
        var both = state
        both.otherKinds = [us]
        let decoded = try JSONDecoder().decode(SubjectState.self, from: JSONEncoder().encode(both))
        #expect(decoded == both)
        #expect(decoded.state(of: .us) == us && decoded.state(of: .tcf)?.eventId == "e1")
    }

    @Test("an entry of otherKinds of a kind this client does not know is dropped, the rest of the state read")
    func unknownKindIsDropped() throws {
        let json = """
            {"subjectId": "s", "eventId": "e1", "collectedAt": "2026-11-23T10:15:30.250Z", "receivedAt": "2026-11-23T10:15:31.000Z",
             "consent": {"tcString": "CQ", "proof": {"noticeId": "main", "noticeVersion": "3", "language": "de", "sdkVersion": "1.0.0", "platform": "ios", "method": "custom"}},
             "otherKinds": [{"subjectId": "s", "eventId": "e2", "collectedAt": "2026-11-23T10:15:30.250Z", "receivedAt": "2026-11-23T10:15:31.000Z",
                             "consent": {"kind": "future", "proof": {"noticeId": "main", "noticeVersion": "3", "language": "de", "sdkVersion": "1.0.0", "platform": "ios", "method": "custom"}}}]}
            """
        let state = try JSONDecoder().decode(SubjectState.self, from: Data(json.utf8))
        #expect(state.eventId == "e1")
        #expect(state.otherKinds == [])
    }

    private func jsonObject(_ value: some Encodable) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(value)) as? [String: Any])
    }
}
