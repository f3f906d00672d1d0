@testable import ConsentServer
import ConsentdAPI
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// `POST /v1/consents/batch`: each event answered as `POST /v1/consents` would answer it alone,
/// the valid ones appended together, the envelope's faults refusing the whole batch.
@Suite("Consent batch API")
struct ConsentBatchAPITests {
    @Test("valid events are appended (201) and invalid ones refused with their own status, stored or not accordingly")
    func mixedBatch() async throws {
        let server = try await TestServer.make()
        try await server.test { client async throws in
            let earlier = UUID()
            #expect(try await client.send(.post, "/v1/consents", bearer: server.secret, json: eventJSON(id: earlier, subject: "user-9")).status == .created)
            let first = UUID(), second = UUID()
            let response = try await client.send(.post, "/v1/consents/batch", bearer: server.secret, json: batchJSON([
                eventJSON(id: first, subject: "user-1"),
                eventJSON(subject: nil),
                #"{"eventId": "not-a-uuid", "subjectId": "user-1", "collectedAt": "2026-01-01T00:00:00Z", "purposeConsents": [1], "proof": \#(proofJSON)}"#,
                eventJSON(subject: "user-1", extra: "\"tcString\": \"CQSbk4AQ\""),
                eventJSON(id: earlier, subject: "user-9", extra: "\"purposeConsents\": [7]"),
                eventJSON(id: second, subject: "user-2"),
            ]))
            #expect(response.status == .ok)
            let results = try #require(response.batch).results
            #expect(results.map(\.status) == [201, 400, 400, 422, 409, 201])
            #expect(results.map(\.error?.code) == [nil, "missing_field", "invalid_field", "invalid_consent_string", "event_id_conflict", nil])
            #expect(results.map(\.error?.field) == [nil, "subjectId", "eventId", "tcString", "eventId", nil])
            #expect(results[0].eventId == first.uuidString)
            #expect(results[0].result?.eventId == first.uuidString.lowercased())
            #expect(results[0].result?.outcome == .current)
            #expect(results[2].eventId == "not-a-uuid")
            #expect(results[1].result == nil && results[0].error == nil)

            #expect(try await eventCount(client, server, subject: "user-1") == 1)
            #expect(try await eventCount(client, server, subject: "user-2") == 1)
            #expect(try await eventCount(client, server, subject: "user-9") == 1)
            let state = try await client.send(.get, "/v1/subjects/user-1", bearer: server.secret)
            #expect(state.object["eventId"] as? String == first.uuidString.lowercased())
        }
    }

    @Test("an event is refused in a batch exactly as POST /v1/consents refuses it alone", arguments: [
        #"{"eventId": "\#(UUID())", "subjectId": "user-1", "collectedAt": "yesterday", "purposeConsents": [1], "proof": \#(proofJSON)}"#,
        #"{"eventId": "\#(UUID())", "subjectId": "user-1", "collectedAt": "2026-01-01T00:00:00Z", "purposeConsents": [25], "proof": \#(proofJSON)}"#,
        #"{"eventId": "\#(UUID())", "subjectId": "user-1", "collectedAt": "2026-01-01T00:00:00Z", "purposeConsents": [1], "colour": 1, "proof": \#(proofJSON)}"#,
        #"{"eventId": "\#(UUID())", "subjectId": "user-1", "collectedAt": "2026-01-01T00:00:00Z", "proof": \#(proofJSON)}"#,
        #"{"eventId": "\#(UUID())", "subjectId": "user-1", "collectedAt": "2026-01-01T00:00:00Z", "purposeConsents": [1]}"#,
        #"{"eventId": "\#(UUID())", "subjectId": "user-1", "collectedAt": "2026-01-01T00:00:00Z", "purposeConsents": [1], "purposeConsents": [2], "proof": \#(proofJSON)}"#,
        #"{"eventId": "\#(UUID())", "subjectId": "user-1", "collectedAt": "2026-01-01T00:00:00Z", "vendorConsents": [1e400], "proof": \#(proofJSON)}"#,
        #"{"eventId": "\#(UUID())", "subjectId": "user-1", "collectedAt": "2026-01-01T00:00:00Z", "purposeConsents": [1.5], "proof": \#(proofJSON)}"#,
        #"{"eventId": "\#(UUID())", "subjectId": "user\u0000x", "collectedAt": "2026-01-01T00:00:00Z", "purposeConsents": [1], "proof": \#(proofJSON)}"#,
        #"{"eventId": "\#(UUID())", "subjectId": "user-1", "collectedAt": "2026-01-01T00:00:00Z", "additionalConsent": "2~x~dv.", "proof": \#(proofJSON)}"#,
        #"{"eventId": 5, "subjectId": "user-1", "collectedAt": "2026-01-01T00:00:00Z", "purposeConsents": [1], "proof": \#(proofJSON)}"#,
        #"[]"#,
        #""text""#,
    ])
    func eventRefusedAsAlone(event: String) async throws {
        let server = try await TestServer.make()
        try await server.test { client async throws in
            let alone = try await client.send(.post, "/v1/consents", bearer: server.secret, json: event)
            let batch = try await client.send(.post, "/v1/consents/batch", bearer: server.secret, json: batchJSON([event, eventJSON()]))
            #expect(batch.status == .ok)
            let results = try #require(batch.batch).results
            #expect(results.count == 2)
            #expect(results[0].status == Int(alone.status.code))
            #expect(results[0].error?.code == alone.errorCode)
            #expect(results[0].error?.field == alone.errorField)
            #expect(results[0].error?.message == (alone.object["error"] as? [String: Any])?["message"] as? String)
            #expect(results[1].status == 201)
        }
    }

    @Test("events of one subject are appended in the order sent, and the last writer wins across them")
    func orderAndLastWriterWins() async throws {
        let server = try await TestServer.make()
        try await server.test { client async throws in
            let middle = UUID(), oldest = UUID(), newest = UUID()
            let response = try await client.send(.post, "/v1/consents/batch", bearer: server.secret, json: batchJSON([
                eventJSON(id: middle, collectedAt: "2026-02-01T00:00:00Z"),
                eventJSON(id: oldest, collectedAt: "2026-01-01T00:00:00Z", extra: "\"purposeConsents\": [1]"),
                eventJSON(id: newest, collectedAt: "2026-03-01T00:00:00Z", extra: "\"purposeConsents\": [3]"),
            ]))
            let results = try #require(response.batch).results
            #expect(results.map(\.status) == [201, 201, 201])
            #expect(results.map(\.result?.outcome) == [.current, .history, .current])
            // Each answer names the state that stood after its event, as single appends in this order would.
            #expect(results.map(\.result?.current.eventId) == [middle, middle, newest].map { $0.uuidString.lowercased() })
            let state = try await client.send(.get, "/v1/subjects/user-1", bearer: server.secret)
            #expect(state.object["eventId"] as? String == newest.uuidString.lowercased())
            let history = try await client.send(.get, "/v1/subjects/user-1/events", bearer: server.secret)
            let ids = (history.object["events"] as? [[String: Any]] ?? []).map { $0["eventId"] as? String }
            #expect(ids == [middle, oldest, newest].map { $0.uuidString.lowercased() })

            // A later batch with an older choice is kept as history; the newest still stands.
            let late = try await client.send(.post, "/v1/consents/batch", bearer: server.secret,
                                             json: batchJSON([eventJSON(collectedAt: "2026-02-15T00:00:00Z")]))
            #expect(try #require(late.batch).results.first?.result?.outcome == .history)
            #expect(try #require(late.batch).results.first?.result?.current.eventId == newest.uuidString.lowercased())
        }
    }

    @Test("a batch sent again answers 200 with the first answers, and nothing is stored twice")
    func retryOfTheWholeBatch() async throws {
        let server = try await TestServer.make()
        try await server.test { client async throws in
            let body = batchJSON([
                eventJSON(subject: "user-1", collectedAt: "2026-01-01T00:00:00Z"),
                eventJSON(subject: "user-2"),
                eventJSON(subject: "user-1", collectedAt: "2026-01-02T00:00:00Z"),
                eventJSON(subject: "user-1", extra: "\"tcString\": \"AAAA\""),
            ])
            let first = try #require(try await client.send(.post, "/v1/consents/batch", bearer: server.secret, json: body).batch).results
            #expect(first.map(\.status) == [201, 201, 201, 422])
            let again = try await client.send(.post, "/v1/consents/batch", bearer: server.secret, json: body)
            #expect(again.status == .ok)
            let second = try #require(again.batch).results
            #expect(second.map(\.status) == [200, 200, 200, 422])
            #expect(second.map(\.result) == first.map(\.result))
            #expect(second.map(\.eventId) == first.map(\.eventId))
            #expect(try await eventCount(client, server, subject: "user-1") == 2)
            #expect(try await eventCount(client, server, subject: "user-2") == 1)
            // The same event id twice in one batch: the second is a retry of the first.
            let id = UUID()
            let twice = try await client.send(.post, "/v1/consents/batch", bearer: server.secret,
                                              json: batchJSON([eventJSON(id: id, subject: "user-3"), eventJSON(id: id, subject: "user-3")]))
            let results = try #require(twice.batch).results
            #expect(results.map(\.status) == [201, 200])
            #expect(results[0].result == results[1].result)
            #expect(try await eventCount(client, server, subject: "user-3") == 1)
        }
    }

    @Test("a subject token writes its own subject; an event for another subject, or none, is refused on its own")
    func subjectToken() async throws {
        let server = try await TestServer.make()
        try await server.test { client async throws in
            let minted = try await client.send(.post, "/v1/subjects/user-1/tokens", bearer: server.secret)
            let token = try #require(minted.object["token"] as? String)
            let response = try await client.send(.post, "/v1/consents/batch", bearer: token, json: batchJSON([
                eventJSON(subject: "user-1"), eventJSON(subject: "user-2"), eventJSON(subject: nil), eventJSON(subject: "user-1", collectedAt: "2026-01-03T00:00:00Z"),
            ]))
            #expect(response.status == .ok)
            let results = try #require(response.batch).results
            #expect(results.map(\.status) == [201, 403, 400, 201])
            #expect(results.map(\.error?.code) == [nil, "forbidden", "missing_field", nil])
            #expect(try await eventCount(client, server, subject: "user-1") == 2)
            #expect(try await client.send(.get, "/v1/subjects/user-2", bearer: server.secret).status == .notFound)
        }
    }

    @Test("a publishable key is refused for the whole batch (403 subject_credential_required), and nothing is stored")
    func publishableKeyRefused() async throws {
        let server = try await TestServer.make()
        try await server.test { client async throws in
            for events in [[eventJSON(subject: "victim")], [eventJSON(subject: nil)]] {
                let refused = try await client.send(.post, "/v1/consents/batch", bearer: server.publishable, json: batchJSON(events))
                #expect(refused.status == .forbidden)
                #expect(refused.errorCode == "subject_credential_required")
            }
            #expect(try await client.send(.post, "/v1/consents/batch", json: batchJSON([eventJSON()])).status == .unauthorized)
            #expect(try await client.send(.get, "/v1/subjects/victim", bearer: server.secret).status == .notFound)
            #expect(try await client.send(.get, "/v1/chain/verify", bearer: server.secret).object["eventsChecked"] as? Int == 0)
        }
    }

    @Test("a malformed envelope refuses the whole batch, naming what is wrong", arguments: [
        ("{", 400, "invalid_json", nil),
        (#"{"events": [{"eventId": }]}"#, 400, "invalid_json", nil),
        ("[]", 400, "invalid_json", nil),
        (#""events""#, 400, "invalid_json", nil),
        ("{}", 400, "missing_field", "events"),
        (#"{"events": {}}"#, 400, "invalid_field", "events"),
        (#"{"events": null}"#, 400, "invalid_field", "events"),
        (#"{"events": "[]"}"#, 400, "invalid_field", "events"),
        (#"{"events": []}"#, 400, "invalid_field", "events"),
        (#"{"events": [\#(eventJSON())], "force": true}"#, 400, "invalid_field", "force"),
        (#"{"events": [\#(eventJSON())], "": 1}"#, 400, "invalid_field", nil),
        (#"{"events": [], "events": [\#(eventJSON())]}"#, 400, "invalid_field", "events"),
        (#"{"events": [\#(eventJSON())], "\u0065vents": [\#(eventJSON())]}"#, 400, "invalid_field", "events"),
    ] as [(String, Int, String, String?)])
    func malformedEnvelope(body: String, status: Int, code: String, field: String?) async throws {
        let server = try await TestServer.make()
        try await server.test { client async throws in
            let response = try await client.send(.post, "/v1/consents/batch", bearer: server.secret, json: body)
            #expect(response.status.code == status)
            #expect(response.errorCode == code)
            #expect(response.errorField == field)
            #expect(try await client.send(.get, "/v1/chain/verify", bearer: server.secret).object["eventsChecked"] as? Int == 0)
        }
    }

    @Test("100 events make a batch; 101 are refused as a whole")
    func maximumCount() async throws {
        let server = try await TestServer.make()
        try await server.test { client async throws in
            let events = (0..<ConsentBatchRequest.maximumCount + 1).map { _ in eventJSON(extra: "\"tcString\": \"\(validTCString)\"") }
            let tooMany = try await client.send(.post, "/v1/consents/batch", bearer: server.secret, json: batchJSON(events))
            #expect(tooMany.status == .badRequest)
            #expect(tooMany.errorCode == "invalid_field")
            #expect(tooMany.errorField == "events")
            #expect(try await eventCount(client, server, subject: "user-1") == 0)
            let full = try await client.send(.post, "/v1/consents/batch", bearer: server.secret, json: batchJSON(Array(events.dropLast())))
            #expect(full.status == .ok)
            #expect(try #require(full.batch).results.map(\.status) == Array(repeating: 201, count: 100))
            #expect(try await eventCount(client, server, subject: "user-1") == 100)
        }
    }

    @Test("the batch body may hold 100 events of the body limit; an event over that limit is refused on its own (413)")
    func bodyLimits() async throws {
        let server = try await TestServer.make { $0.bodyLimit = 1024 }
        #expect(server.consentd.settings.batchBodyLimit == 1024 * 101)
        try await server.test { client async throws in
            let large = eventJSON(extra: "\"additionalConsent\": \"2~\(Array(repeating: "1", count: 400).joined(separator: "."))~dv.\"")
            #expect(large.utf8.count > 1024)
            let small = (0..<100).map { _ in eventJSON(extra: "\"additionalConsent\": \"2~\(Array(repeating: "1", count: 340).joined(separator: "."))~dv.\"") }
            #expect(small.allSatisfy { (900...1024).contains($0.utf8.count) })
            let full = try await client.send(.post, "/v1/consents/batch", bearer: server.secret, json: batchJSON(small))
            #expect(full.status == .ok)
            #expect(try #require(full.batch).results.allSatisfy { $0.status == 201 })

            let mixed = try await client.send(.post, "/v1/consents/batch", bearer: server.secret, json: batchJSON([large, eventJSON()]))
            let results = try #require(mixed.batch).results
            #expect(results.map(\.status) == [413, 201])
            #expect(results[0].error?.code == "payload_too_large")
            #expect(try await client.send(.post, "/v1/consents", bearer: server.secret, json: large).status == .contentTooLarge)

            // Up to the batch limit a body is read (the events are retries now); a byte more is 413.
            let limit = server.consentd.settings.batchBodyLimit
            let atLimit = batchJSON(small) + String(repeating: " ", count: limit - batchJSON(small).utf8.count)
            let retried = try await client.send(.post, "/v1/consents/batch", bearer: server.secret, json: atLimit)
            #expect(try #require(retried.batch).results.allSatisfy { $0.status == 200 })
            let tooLarge = try await client.send(.post, "/v1/consents/batch", bearer: server.secret, json: atLimit + " ")
            #expect(tooLarge.status == .contentTooLarge)
            #expect(tooLarge.errorCode == "payload_too_large")
            let text = try await client.send(.post, "/v1/consents/batch", bearer: server.secret, json: batchJSON([eventJSON()]),
                                             headers: [.contentType: "text/plain"])
            #expect(text.status == .unsupportedMediaType)
        }
    }

    @Test("an erased subject's events are refused (410); the rest of the batch is appended")
    func erasedSubject() async throws {
        let server = try await TestServer.make()
        try await server.test { client async throws in
            try await client.send(.post, "/v1/consents", bearer: server.secret, json: eventJSON(subject: "gone"))
            #expect(try await client.send(.delete, "/v1/subjects/gone", bearer: server.secret).status == .ok)
            let response = try await client.send(.post, "/v1/consents/batch", bearer: server.secret, json: batchJSON([
                eventJSON(subject: "gone"), eventJSON(subject: "kept"), eventJSON(subject: "gone", collectedAt: "2026-01-05T00:00:00Z"),
            ]))
            let results = try #require(response.batch).results
            #expect(results.map(\.status) == [410, 201, 410])
            #expect(results.map(\.error?.code) == ["subject_erased", nil, "subject_erased"])
            #expect(results[0].error?.field == "subjectId")
            #expect(try await client.send(.get, "/v1/subjects/gone", bearer: server.secret).status == .notFound)
            #expect(try await client.send(.post, "/v1/subjects/gone/restart", bearer: server.secret).status == .ok)
            let restarted = try await client.send(.post, "/v1/consents/batch", bearer: server.secret, json: batchJSON([eventJSON(subject: "gone")]))
            #expect(try #require(restarted.batch).results.map(\.status) == [201])
        }
    }

    @Test("the hash chain verifies after batches, single appends and an erasure")
    func chainVerifies() async throws {
        let server = try await TestServer.make()
        try await server.test { client async throws in
            var appended = 0
            for round in 0..<3 {
                let events = (0..<7).map { index in eventJSON(subject: "user-\(index % 3)", collectedAt: "2026-01-0\(round + 1)T00:00:0\(index)Z") }
                let results = try #require(try await client.send(.post, "/v1/consents/batch", bearer: server.secret, json: batchJSON(events)).batch).results
                appended += results.filter { $0.status == 201 }.count
                #expect(try await client.send(.post, "/v1/consents", bearer: server.secret, json: eventJSON(subject: "single-\(round)")).status == .created)
                appended += 1
            }
            #expect(appended == 24)
            #expect(try await client.send(.delete, "/v1/subjects/user-1", bearer: server.secret).status == .ok)
            let chain = try await client.send(.get, "/v1/chain/verify", bearer: server.secret)
            #expect(chain.object["valid"] as? Bool == true)
            #expect(chain.object["eventsChecked"] as? Int == 24)
        }
    }

    @Test("concurrent batches and single appends each keep their answers, and the chain verifies")
    func concurrentBatches() async throws {
        let server = try await TestServer.make()
        try await server.test { client async throws in
            try await withThrowingTaskGroup(of: [Int].self) { group in
                for batch in 0..<6 {
                    group.addTask {
                        let events = (0..<20).map { _ in eventJSON(subject: "user-\(batch)") }
                        return try #require(try await client.send(.post, "/v1/consents/batch", bearer: server.secret, json: batchJSON(events)).batch)
                            .results.map(\.status)
                    }
                    group.addTask {
                        [Int(try await client.send(.post, "/v1/consents", bearer: server.secret, json: eventJSON(subject: "single-\(batch)")).status.code)]
                    }
                }
                for try await statuses in group {
                    #expect(statuses.allSatisfy { $0 == 201 })
                }
            }
            let chain = try await client.send(.get, "/v1/chain/verify", bearer: server.secret)
            #expect(chain.object["valid"] as? Bool == true)
            #expect(chain.object["eventsChecked"] as? Int == 126)
        }
    }
}

/// A batch body holding `events` (each a JSON text).
func batchJSON(_ events: [String]) -> String {
    #"{"events": ["# + events.joined(separator: ", ") + "]}"
}

/// A TC string that decodes.
let validTCString = "CQSbk4AQSbk4ANwAAAENAwCgAAAAAAAAAAYgACPAAAAA.IDKQA4AAgAKAGQAygAAA.YAAAAAAAAAAA"

/// How many events `GET /v1/subjects/{subject}/events` lists.
func eventCount(_ client: some TestClientProtocol, _ server: TestServer, subject: String) async throws -> Int {
    let response = try await client.send(.get, "/v1/subjects/\(subject)/events?limit=500", bearer: server.secret)
    if response.status == .notFound { return 0 }
    return (response.object["events"] as? [Any])?.count ?? -1
}

extension TestResponse {
    /// The body as the shared batch answer type; nil when it is not one.
    var batch: ConsentBatchResponse? {
        try? JSONDecoder().decode(ConsentBatchResponse.self, from: Data(body.readableBytesView))
    }
}
