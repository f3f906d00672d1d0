@testable import ConsentServer
import ConsentRequests
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

/// M2 of issue 24: a retry of a subject-creating event answers the stored result, but a token
/// only to the key that created the subject, while it lives, within 24 hours of the first
/// answer. Against the real server on loopback.
@Suite("Retries of subject-creating events")
struct SubjectCreationRetryTests {
    @Test("m2: a retry with the same live key within the window gets the stored answer and a token")
    func m2RetryBySameKeyGetsAToken() async throws {
        let server = try await TestServer.make()
        try await server.live { client in
            let body = eventJSON(subject: nil)
            let first = try await client.send(.post, "/v1/consents", bearer: server.publishable, json: body)
            #expect(first.status == .created)
            let again = try await client.send(.post, "/v1/consents", bearer: server.publishable, json: body)
            #expect(again.status == .ok && again.object["subjectId"] as? String == first.object["subjectId"] as? String)
            let token = try #require(again.object["subjectToken"] as? String)
            let subject = try #require(again.object["subjectId"] as? String)
            #expect(try await client.send(.get, "/v1/subjects/\(subject)", bearer: token).status == .ok)
        }
    }

    @Test("m2: a retry through another publishable key of the app gets no token")
    func m2RetryByAnotherKeyGetsNoToken() async throws {
        let server = try await TestServer.make { $0.keyCacheSeconds = 0 }
        let other = try await server.consentd.keys.create(appId: server.appId, kind: .publishable, label: "second app").token
        try await server.live { client in
            let body = eventJSON(subject: nil)
            let first = try await client.send(.post, "/v1/consents", bearer: other, json: body)
            let subject = try #require(first.object["subjectId"] as? String)
            #expect(first.object["subjectToken"] is String)
            let replayed = try await client.send(.post, "/v1/consents", bearer: server.publishable, json: body)
            #expect(replayed.status == .ok && replayed.object["subjectId"] as? String == subject)
            #expect(replayed.object["subjectToken"] == nil, "the body alone is no credential for the subject")

            // The creating key revoked: its own retries fail, and the other key's still get no token.
            #expect(try await server.consentd.keys.revoke(other))
            #expect(try await client.send(.post, "/v1/consents", bearer: other, json: body).status == .unauthorized)
            let afterRevocation = try await client.send(.post, "/v1/consents", bearer: server.publishable, json: body)
            #expect(afterRevocation.status == .ok && afterRevocation.object["subjectToken"] == nil)
        }
    }

    @Test("m2: a retry more than 24 hours after the first answer gets the stored answer without a token")
    func m2RetryAfterTheWindowGetsNoToken() async throws {
        let server = try await TestServer.make()
        let body = eventJSON(subject: nil)
        let keyId = try #require(APIKeys.parse(server.publishable)?.keyId)
        let event = try CheckedConsentEvent.decode(Data(body.utf8))
        let stored = try await server.consentd.store.append(appId: server.appId, request: event, credential: .publishable, keyId: keyId,
                                                            receivedAt: Date(timeIntervalSinceNow: -25 * 3600))
        try await server.live { client in
            let late = try await client.send(.post, "/v1/consents", bearer: server.publishable, json: body)
            let subjectId = try stored.result().subjectId
            #expect(late.status == .ok && late.object["subjectId"] as? String == subjectId)
            #expect(late.object["subjectToken"] == nil)
        }
    }
}
