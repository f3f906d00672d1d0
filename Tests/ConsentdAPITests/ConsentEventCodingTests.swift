import ConsentdAPI
import Foundation
import Testing

/// `POST /v1/consents`: the event as one flat object, its answer, and the error body.
@Suite("Consent event coding")
struct ConsentEventCodingTests {
    static let proof = ConsentProof(noticeId: "main", noticeVersion: "3", language: "de", sdkVersion: "1.0.0", platform: .ios, method: .custom)

    @Test("the record's fields sit beside eventId, subjectId and collectedAt; the proof is nested")
    func eventIsFlat() throws {
        let event = ConsentEventRequest(
            eventId: "0f8fad5b-d9cb-469f-a165-70867728950e", subjectId: "customer-user-42", collectedAt: "2026-11-23T10:15:30.250Z",
            consent: ConsentRecord(googleAdsChoice: .personalized, purposeConsents: [1, 2, 3], proof: Self.proof))
        let object = try jsonObject(event)
        #expect(Set(object.keys) == ["eventId", "subjectId", "collectedAt", "googleAdsChoice", "purposeConsents", "proof"])
        #expect(object["googleAdsChoice"] as? String == "personalized")
        #expect((object["proof"] as? [String: Any])?["platform"] as? String == "ios")
        #expect(try JSONDecoder().decode(ConsentEventRequest.self, from: JSONEncoder().encode(event)) == event)
    }

    @Test("a GPP string travels as gppString beside the other strings")
    func gppStringIsWritten() throws {
        let event = ConsentEventRequest(collectedAt: Date(), consent: ConsentRecord(gppString: "DBABLA~BVQqAAAAAg", proof: Self.proof))
        let object = try jsonObject(event)
        #expect(object["gppString"] as? String == "DBABLA~BVQqAAAAAg")
        #expect(try JSONDecoder().decode(ConsentEventRequest.self, from: JSONEncoder().encode(event)).consent.gppString == "DBABLA~BVQqAAAAAg")
    }

    @Test("an event of an older client, without gppString, decodes with none")
    func gppStringMayBeAbsent() throws {
        let json = """
            {"eventId": "0f8fad5b-d9cb-469f-a165-70867728950e", "collectedAt": "2026-11-23T10:15:30.250Z", "purposeConsents": [1],
             "proof": {"noticeId": "main", "noticeVersion": "3", "language": "de", "sdkVersion": "1.0.0", "platform": "ios", "method": "custom"}}
            """
        let event = try JSONDecoder().decode(ConsentEventRequest.self, from: Data(json.utf8))
        #expect(event.consent.gppString == nil)
        #expect(try jsonObject(event)["gppString"] == nil)
    }

    @Test("the docs' example event decodes")
    func documentedEventDecodes() throws {
        let json = """
            {"eventId": "0f8fad5b-d9cb-469f-a165-70867728950e", "collectedAt": "2026-11-23T10:15:30.250Z",
             "additionalConsent": "2~89.2008~dv.", "vendorConsents": [755, 21],
             "proof": {"noticeId": "main-notice", "noticeVersion": "3", "language": "de", "sdkVersion": "1.0.0",
                       "platform": "ios", "method": "acceptAll"}}
            """
        let event = try JSONDecoder().decode(ConsentEventRequest.self, from: Data(json.utf8))
        #expect(event.subjectId == nil)
        #expect(event.consent.additionalConsent == "2~89.2008~dv.")
        #expect(event.consent.vendorConsents == [755, 21])
        #expect(event.consent.tcString == nil)
        #expect(event.consent.proof.method == .acceptAll)
    }

    @Test("built from Swift values, the id is a lower-case UUID and the time UTC to the nearest millisecond")
    func swiftValues() throws {
        let id = UUID()
        let event = ConsentEventRequest(eventId: id, collectedAt: Date(timeIntervalSince1970: 1_763_000_000.6789),
                                        consent: ConsentRecord(purposeConsents: [1], proof: Self.proof))
        #expect(event.eventId == id.uuidString.lowercased())
        #expect(event.collectedAt == "2025-11-13T02:13:20.679Z")
        #expect(event.subjectId == nil)
        #expect(try jsonObject(event)["subjectId"] == nil)
        #expect(ConsentEventRequest(collectedAt: Date(), consent: event.consent).eventId != event.eventId)
    }

    @Test("the field names are the event's and its record's")
    func fieldNames() {
        #expect(ConsentEventRequest.fieldNames == [
            "eventId", "subjectId", "collectedAt", "subject", "tcString", "consentStringV1", "gppString", "googleAdsChoice", "additionalConsent",
            "purposeConsents", "purposeLegitimateInterests", "specialFeatureOptins", "vendorConsents", "vendorLegitimateInterests",
            "preferences", "legalNotices", "kind", "usChoice", "proof",
        ])
        #expect(ConsentProof.CodingKeys.allCases.map(\.rawValue) == [
            "noticeId", "noticeVersion", "language", "sdkVersion", "platform", "method", "documentHash",
        ])
    }

    @Test("002-9, 002-13, 002-14, 002-15: iubenda's fields are written with the API's names, left out when absent, and read back")
    func iubendaRecordFields() throws {
        var proof = Self.proof
        proof.documentHash = String(repeating: "0a", count: 32)
        let event = ConsentEventRequest(
            eventId: "0f8fad5b-d9cb-469f-a165-70867728950e", subjectId: "customer-user-42", collectedAt: "2026-11-23T10:15:30.250Z",
            subject: SubjectInformation(email: "ada@example.com", fullName: "Ada Lovelace", verified: true),
            consent: ConsentRecord(
                preferences: ["newsletter": .bool(true), "level": .integer(2), "frequency": .string("weekly")],
                legalNotices: [LegalNotice(identifier: "privacy_policy", version: "7")], proof: proof))
        let object = try jsonObject(event)
        let subject = try #require(object["subject"] as? [String: Any])
        #expect(Set(subject.keys) == ["email", "fullName", "verified"])
        let preferences = try #require(object["preferences"] as? [String: Any])
        #expect(preferences["newsletter"] as? Bool == true && preferences["level"] as? Int == 2 && preferences["frequency"] as? String == "weekly")
        #expect((object["legalNotices"] as? [[String: String]]) == [["identifier": "privacy_policy", "version": "7"]])
        #expect((object["proof"] as? [String: Any])?["documentHash"] as? String == proof.documentHash)
        #expect(try JSONDecoder().decode(ConsentEventRequest.self, from: JSONEncoder().encode(event)) == event)
        let plain = try jsonObject(ConsentEventRequest(eventId: UUID(), collectedAt: Date(), consent: ConsentRecord(purposeConsents: [1], proof: Self.proof)))
        #expect(plain["subject"] == nil && plain["preferences"] == nil && plain["legalNotices"] == nil)
        #expect((plain["proof"] as? [String: Any])?["documentHash"] == nil)
    }

    @Test("002-13: a preference is a boolean, an integer or a string; anything else does not decode")
    func preferenceValues() throws {
        let decoded = try JSONDecoder().decode([String: PreferenceValue].self, from: Data(#"{"a": true, "b": 7, "c": "x"}"#.utf8))
        #expect(decoded == ["a": .bool(true), "b": .integer(7), "c": .string("x")])
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([String: PreferenceValue].self, from: Data(#"{"a": [1]}"#.utf8)) }
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([String: PreferenceValue].self, from: Data(#"{"a": null}"#.utf8)) }
    }

    @Test("enumerations carry the API's raw values")
    func rawValues() {
        #expect(GoogleAdsChoice.allCases.map(\.rawValue) == ["personalized", "nonPersonalized", "adFree"])
        #expect(ConsentProof.Platform.allCases.map(\.rawValue) == ["ios", "android", "web", "other"])
        #expect(ConsentProof.Method.allCases.map(\.rawValue) == ["acceptAll", "rejectAll", "custom", "sync", "programmatic", "withdrawal", "underAge", "trackingDenied"])
        #expect(AppendOutcome.allCases.map(\.rawValue) == ["current", "history"])
    }

    @Test("the append answer decodes with its winning state")
    func answerDecodes() throws {
        let json = """
            {"eventId": "0f8fad5b-d9cb-469f-a165-70867728950e", "subjectId": "sub_1", "outcome": "history",
             "current": {"eventId": "1b4e28ba-2fa1-11d2-883f-0016d3cca427", "subjectId": "sub_1",
                         "collectedAt": "2026-11-24T00:00:00.000Z", "receivedAt": "2026-11-24T00:00:01.000Z",
                         "consent": {"googleAdsChoice": "adFree", "proof": {"noticeId": "n", "noticeVersion": "1",
                                     "language": "en", "sdkVersion": "1", "platform": "web", "method": "rejectAll"}}}}
            """
        let result = try JSONDecoder().decode(AppendResult.self, from: Data(json.utf8))
        #expect(result.outcome == .history)
        #expect(result.current.eventId == "1b4e28ba-2fa1-11d2-883f-0016d3cca427")
        #expect(result.current.consent.googleAdsChoice == .adFree)
        #expect(try JSONDecoder().decode(AppendResult.self, from: JSONEncoder().encode(result)) == result)
    }

    @Test("the error body leaves field out when no field is at fault")
    func errorBody() throws {
        let plain = try jsonObject(ConsentdErrorBody(code: "unauthorized", message: "send a key"))
        #expect(plain["error"] as? [String: String] == ["code": "unauthorized", "message": "send a key"])
        let json = #"{"error": {"code": "invalid_field", "message": "proof.method must be one of …", "field": "proof.method"}}"#
        let body = try JSONDecoder().decode(ConsentdErrorBody.self, from: Data(json.utf8))
        #expect(body == ConsentdErrorBody(code: "invalid_field", message: "proof.method must be one of …", field: "proof.method"))
    }
}
