@testable import ConsentServer
import ConsentKitFormats
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// `POST /v1/consents` and the subject routes, answers and refusals.
@Suite("Consent API")
struct ConsentAPITests {
    @Test("an event is appended (201), a retry answers the same (200), another body under its id is 409")
    func appendRetryConflict() async throws {
        let server = try await TestServer.make()
        try await server.test { client async throws in
            let id = UUID()
            let first = try await client.send(.post, "/v1/consents", bearer: server.secret, json: eventJSON(id: id))
            #expect(first.status == .created)
            #expect(first.object["outcome"] as? String == "current")
            #expect(first.object["eventId"] as? String == id.uuidString.lowercased())
            let again = try await client.send(.post, "/v1/consents", bearer: server.secret, json: eventJSON(id: id))
            #expect(again.status == .ok)
            #expect(NSDictionary(dictionary: again.object) == NSDictionary(dictionary: first.object))
            let other = try await client.send(.post, "/v1/consents", bearer: server.secret,
                                              json: eventJSON(id: id, extra: "\"purposeConsents\": [1]"))
            #expect(other.status == .conflict)
            #expect(other.errorCode == "event_id_conflict")
        }
    }

    @Test("an older event answers with the newer state it lost to")
    func olderEventAnswersWithWinner() async throws {
        let server = try await TestServer.make()
        try await server.test { client async throws in
            let newer = UUID()
            try await client.send(.post, "/v1/consents", bearer: server.secret, json: eventJSON(id: newer, collectedAt: "2026-03-01T00:00:00Z"))
            let older = try await client.send(.post, "/v1/consents", bearer: server.secret,
                                              json: eventJSON(collectedAt: "2026-02-01T00:00:00+01:00", extra: "\"googleAdsChoice\": \"adFree\""))
            #expect(older.status == .created)
            #expect(older.object["outcome"] as? String == "history")
            #expect((older.object["current"] as? [String: Any])?["eventId"] as? String == newer.uuidString.lowercased())
        }
    }

    @Test("without a subject id the server creates one and returns it")
    func subjectIsCreated() async throws {
        let server = try await TestServer.make()
        try await server.test { client async throws in
            let response = try await client.send(.post, "/v1/consents", bearer: server.publishable, json: eventJSON(subject: nil))
            let subject = try #require(response.object["subjectId"] as? String)
            #expect(subject.hasPrefix("sub_"))
            let state = try await client.send(.get, "/v1/subjects/\(subject)", bearer: server.secret)
            #expect(state.status == .ok)
        }
    }

    @Test("a publishable key alone cannot write for a subject id, so it cannot overwrite anyone's consent")
    func publishableKeyCannotOverwrite() async throws {
        let server = try await TestServer.make()
        try await server.test { client async throws in
            let original = try await client.send(.post, "/v1/consents", bearer: server.secret,
                                                 json: eventJSON(subject: "victim", collectedAt: "2026-01-01T00:00:00Z"))
            #expect(original.status == .created)
            let later = ISO8601.format(Date())
            let attack = try await client.send(.post, "/v1/consents", bearer: server.publishable,
                                               json: eventJSON(subject: "victim", collectedAt: later, extra: "\"purposeConsents\": [1]"))
            #expect(attack.status == .forbidden)
            #expect(attack.errorCode == "subject_credential_required")
            #expect(attack.errorField == "subjectId")
            let state = try await client.send(.get, "/v1/subjects/victim", bearer: server.secret)
            #expect(state.object["eventId"] as? String == original.object["eventId"] as? String)
        }
    }

    @Test("a subject consentd creates comes with an installation token that writes it, and only it")
    func installationToken() async throws {
        let server = try await TestServer.make()
        try await server.test { client async throws in
            let id = UUID()
            let created = try await client.send(.post, "/v1/consents", bearer: server.publishable, json: eventJSON(id: id, subject: nil))
            #expect(created.status == .created)
            let subject = try #require(created.object["subjectId"] as? String)
            let token = try #require(created.object["subjectToken"] as? String)
            #expect(token.hasPrefix("ckt_"))
            // A retry answers the same subject and the same token.
            let again = try await client.send(.post, "/v1/consents", bearer: server.publishable, json: eventJSON(id: id, subject: nil))
            #expect(again.status == .ok)
            #expect(again.object["subjectId"] as? String == subject)
            #expect(again.object["subjectToken"] as? String == token)

            let next = try await client.send(.post, "/v1/consents", bearer: token,
                                             json: eventJSON(subject: subject, collectedAt: "2026-01-02T00:00:00Z"))
            #expect(next.status == .created)
            #expect(next.object["subjectToken"] == nil)
            #expect(try await client.send(.post, "/v1/consents", bearer: token, json: eventJSON(subject: "someone-else")).status == .forbidden)
            #expect(try await client.send(.get, "/v1/subjects/\(subject)", bearer: token).status == .ok)
            #expect(try await client.send(.get, "/v1/subjects/someone-else", bearer: token).status == .forbidden)
        }
    }

    @Test("a revoked key's tokens die with it: session and installation tokens alike")
    func tokensDieWithTheirKey() async throws {
        let server = try await TestServer.make { $0.keyCacheSeconds = 0 }
        try await server.test { client async throws in
            let minted = try await client.send(.post, "/v1/subjects/user-1/tokens", bearer: server.secret)
            let session = try #require(minted.object["token"] as? String)
            let created = try await client.send(.post, "/v1/consents", bearer: server.publishable, json: eventJSON(subject: nil))
            let installation = try #require(created.object["subjectToken"] as? String)
            let subject = try #require(created.object["subjectId"] as? String)
            #expect(try await client.send(.post, "/v1/consents", bearer: session, json: eventJSON()).status == .created)

            try await server.consentd.keys.revoke(server.secret)
            let refused = try await client.send(.post, "/v1/consents", bearer: session, json: eventJSON())
            #expect(refused.status == .unauthorized)
            #expect((refused.object["error"] as? [String: Any])?["message"] as? String == "the key that minted this subject token was revoked")
            #expect(try await client.send(.get, "/v1/subjects/user-1", bearer: session).status == .unauthorized)
            // The publishable key lives on, and so does its installation token.
            #expect(try await client.send(.post, "/v1/consents", bearer: installation, json: eventJSON(subject: subject)).status == .created)
            try await server.consentd.keys.revoke(server.publishable)
            #expect(try await client.send(.post, "/v1/consents", bearer: installation, json: eventJSON(subject: subject)).status == .unauthorized)
        }
    }

    @Test("an erased subject stays erased until the backend starts it anew; older credentials never write it again")
    func erasedSubjectStaysErased() async throws {
        let server = try await TestServer.make()
        try await server.test { client async throws in
            let created = try await client.send(.post, "/v1/consents", bearer: server.publishable, json: eventJSON(subject: nil))
            let subject = try #require(created.object["subjectId"] as? String)
            let installation = try #require(created.object["subjectToken"] as? String)
            let minted = try await client.send(.post, "/v1/subjects/\(subject)/tokens", bearer: server.secret)
            let before = try #require(minted.object["token"] as? String)
            #expect(try await client.send(.post, "/v1/subjects/\(subject)/restart", bearer: server.secret).status == .notFound)

            #expect(try await client.send(.delete, "/v1/subjects/\(subject)", bearer: server.secret).status == .ok)
            for bearer in [installation, before, server.secret] {
                let refused = try await client.send(.post, "/v1/consents", bearer: bearer, json: eventJSON(subject: subject))
                #expect(refused.status == .gone)
                #expect(refused.errorCode == "subject_erased")
            }
            #expect(try await client.send(.get, "/v1/subjects/\(subject)", bearer: server.secret).status == .notFound)
            #expect(try await client.send(.post, "/v1/subjects/\(subject)/restart", bearer: server.publishable).status == .forbidden)

            let restarted = try await client.send(.post, "/v1/subjects/\(subject)/restart", bearer: server.secret)
            #expect(restarted.status == .ok)
            #expect(restarted.object["subjectId"] as? String == subject)
            for bearer in [installation, before] {
                #expect(try await client.send(.post, "/v1/consents", bearer: bearer, json: eventJSON(subject: subject)).status == .gone)
            }
            let after = try #require(try await client.send(.post, "/v1/subjects/\(subject)/tokens", bearer: server.secret).object["token"] as? String)
            #expect(try await client.send(.post, "/v1/consents", bearer: after, json: eventJSON(subject: subject)).status == .created)
            #expect(try await client.send(.post, "/v1/consents", bearer: server.secret, json: eventJSON(subject: subject)).status == .created)
        }
    }

    @Test("bad bodies are refused with the field at fault", arguments: [
        ("{", 400, "invalid_json", nil),
        ("[]", 400, "invalid_json", nil),
        (#"{"eventId": "not-a-uuid", "collectedAt": "2026-01-01T00:00:00Z", "purposeConsents": [1], "proof": \#(proofJSON)}"#, 400, "invalid_field", "eventId"),
        (#"{"eventId": "\#(UUID())", "collectedAt": "yesterday", "purposeConsents": [1], "proof": \#(proofJSON)}"#, 400, "invalid_field", "collectedAt"),
        (#"{"eventId": "\#(UUID())", "collectedAt": "2999-01-01T00:00:00Z", "purposeConsents": [1], "proof": \#(proofJSON)}"#, 400, "invalid_field", "collectedAt"),
        (#"{"eventId": "\#(UUID())", "collectedAt": "2026-01-01T00:00:00Z", "purposeConsents": [0], "proof": \#(proofJSON)}"#, 400, "invalid_field", "purposeConsents[0]"),
        (#"{"eventId": "\#(UUID())", "collectedAt": "2026-01-01T00:00:00Z", "vendorConsents": ["755"], "proof": \#(proofJSON)}"#, 400, "invalid_field", "vendorConsents[0]"),
        (#"{"eventId": "\#(UUID())", "collectedAt": "2026-01-01T00:00:00Z", "purposeConsents": [1], "colour": 1, "proof": \#(proofJSON)}"#, 400, "invalid_field", "colour"),
        (#"{"eventId": "\#(UUID())", "collectedAt": "2026-01-01T00:00:00Z", "proof": \#(proofJSON)}"#, 400, "missing_field", nil),
        (#"{"eventId": "\#(UUID())", "collectedAt": "2026-01-01T00:00:00Z", "purposeConsents": [1]}"#, 400, "missing_field", "proof"),
        (#"{"eventId": "\#(UUID())", "collectedAt": "2026-01-01T00:00:00Z", "googleAdsChoice": "maybe", "proof": \#(proofJSON)}"#, 400, "invalid_field", "googleAdsChoice"),
        (#"{"eventId": "\#(UUID())", "collectedAt": "2026-01-01T00:00:00Z", "tcString": "CQSbk4AQ", "proof": \#(proofJSON)}"#, 422, "invalid_consent_string", "tcString"),
        (#"{"eventId": "\#(UUID())", "collectedAt": "2026-01-01T00:00:00Z", "consentStringV1": "BOEFEAyO", "proof": \#(proofJSON)}"#, 422, "invalid_consent_string", "consentStringV1"),
        (#"{"eventId": "\#(UUID())", "collectedAt": "2026-01-01T00:00:00Z", "additionalConsent": "2~x~dv.", "proof": \#(proofJSON)}"#, 422, "invalid_consent_string", "additionalConsent"),
        // Issue 14: input accepted that should not have been.
        (#"{"eventId": "\#(UUID())", "collectedAt": "2026-01-01T00:00:00Z", "purposeConsents": [100], "proof": \#(proofJSON)}"#, 400, "invalid_field", "purposeConsents[0]"),
        (#"{"eventId": "\#(UUID())", "collectedAt": "2026-01-01T00:00:00Z", "purposeConsents": [1, 65535], "proof": \#(proofJSON)}"#, 400, "invalid_field", "purposeConsents[1]"),
        (#"{"eventId": "\#(UUID())", "collectedAt": "2026-01-01T00:00:00Z", "purposeLegitimateInterests": [25], "proof": \#(proofJSON)}"#, 400, "invalid_field", "purposeLegitimateInterests[0]"),
        (#"{"eventId": "\#(UUID())", "collectedAt": "2026-01-01T00:00:00Z", "specialFeatureOptins": [13], "proof": \#(proofJSON)}"#, 400, "invalid_field", "specialFeatureOptins[0]"),
        (#"{"eventId": "\#(UUID())", "collectedAt": "2026-01-01T00:00:00Z", "additionalConsent": "1", "proof": \#(proofJSON)}"#, 422, "invalid_consent_string", "additionalConsent"),
        (#"{"eventId": "\#(UUID())", "collectedAt": "2026-01-01T00:00:00Z", "additionalConsent": "2~+5~dv.", "proof": \#(proofJSON)}"#, 422, "invalid_consent_string", "additionalConsent"),
        (#"{"eventId": "\#(UUID())", "collectedAt": "2026-01-01T00:00:00Z", "additionalConsent": "2~99999999999~dv.", "proof": \#(proofJSON)}"#, 422, "invalid_consent_string", "additionalConsent"),
        (#"{"eventId": "\#(UUID())", "collectedAt": "2026-01-01T00:00:00Z", "purposeConsents": [1], "proof": {"noticeId": "main", "noticeVersion": "2", "language": "12", "sdkVersion": "1.0.0", "platform": "ios", "method": "custom"}}"#, 400, "invalid_field", "proof.language"),
        (#"{"eventId": "\#(UUID())", "collectedAt": "2026-01-01T00:00:00Z", "subjectId": "user\u0000x", "purposeConsents": [1], "proof": \#(proofJSON)}"#, 400, "invalid_field", "subjectId"),
        (#"{"eventId": "\#(UUID())", "collectedAt": "2026-01-01T00:00:00Z", "subjectId": "user\u001b[31m", "purposeConsents": [1], "proof": \#(proofJSON)}"#, 400, "invalid_field", "subjectId"),
        (#"{"eventId": "\#(UUID())", "collectedAt": "2026-01-01T00:00:00Z", "purposeConsents": [1], "proof": {"noticeId": "ma\u0000in", "noticeVersion": "2", "language": "de", "sdkVersion": "1.0.0", "platform": "ios", "method": "custom"}}"#, 400, "invalid_field", "proof.noticeId"),
        (#"{"eventId": "\#(UUID())", "collectedAt": "2026-01-01T00:00:00Z", "purposeConsents": [1], "purposeConsents": [1, 2, 3, 4], "proof": \#(proofJSON)}"#, 400, "invalid_field", "purposeConsents"),
        (#"{"eventId": "\#(UUID())", "collectedAt": "2026-01-01T00:00:00Z", "purposeConsents": [1], "proof": {"noticeId": "main", "noticeVersion": "2", "language": "de", "sdkVersion": "1.0.0", "platform": "ios", "method": "custom", "method": "acceptAll"}}"#, 400, "invalid_field", "proof.method"),
        (#"{"eventId": "\#(UUID())", "collectedAt": "2026-01-01T00:00:00Z", "purposeConsents": [1.5], "proof": \#(proofJSON)}"#, 400, "invalid_field", "purposeConsents[0]"),
        (#"{"eventId": "\#(UUID())", "collectedAt": "2026-01-01T00:00:00Z", "vendorConsents": [1e400], "proof": \#(proofJSON)}"#, 400, "invalid_field", "vendorConsents[0]"),
        (#"{"eventId": "\#(UUID())", "collectedAt": "2026-01-01T00:00:00Z", "vendorConsents": [99999999999999999999999], "proof": \#(proofJSON)}"#, 400, "invalid_field", "vendorConsents[0]"),
    ] as [(String, Int, String, String?)])
    func badBodies(body: String, status: Int, code: String, field: String?) async throws {
        let server = try await TestServer.make()
        try await server.test { client async throws in
            let response = try await client.send(.post, "/v1/consents", bearer: server.secret, json: body)
            #expect(response.status.code == status)
            #expect(response.errorCode == code)
            #expect(response.errorField == field)
        }
    }

    @Test("a valid TC string, v1 string and AC string are accepted and kept")
    func consentStringsAreKept() async throws {
        let server = try await TestServer.make()
        try await server.test { client async throws in
            let tc = "CQSbk4AQSbk4ANwAAAENAwCgAAAAAAAAAAYgACPAAAAA.IDKQA4AAgAKAGQAygAAA.YAAAAAAAAAAA"
            let v1 = "BOEFEAyOEFEAyAHABDENAI4AAAB9vABAASA"
            let response = try await client.send(.post, "/v1/consents", bearer: server.secret, json: eventJSON(
                extra: "\"tcString\": \"\(tc)\", \"consentStringV1\": \"\(v1)\", \"additionalConsent\": \"2~89.1301~dv.\", \"googleAdsChoice\": \"nonPersonalized\""))
            #expect(response.status == .created)
            let state = try await client.send(.get, "/v1/subjects/user-1", bearer: server.secret)
            let consent = try #require((state.object["consent"] as? [String: Any]))
            #expect(consent["tcString"] as? String == tc)
            #expect(consent["consentStringV1"] as? String == v1)
            #expect(consent["additionalConsent"] as? String == "2~89.1301~dv.")
            #expect(consent["googleAdsChoice"] as? String == "nonPersonalized")
        }
    }

    @Test("other media types are 415, bodies over the limit 413")
    func mediaTypeAndSize() async throws {
        let server = try await TestServer.make { $0.bodyLimit = 1024 }
        try await server.test { client async throws in
            let text = try await client.send(.post, "/v1/consents", bearer: server.secret, json: eventJSON(),
                                             headers: [.contentType: "text/plain"])
            #expect(text.status == .unsupportedMediaType)
            #expect(text.errorCode == "unsupported_media_type")
            for type in ["application/jsonfoo", "application/json-seq", "application/json5; charset=utf-8"] {
                let near = try await client.send(.post, "/v1/consents", bearer: server.secret, json: eventJSON(), headers: [.contentType: type])
                #expect(near.status == .unsupportedMediaType, "\(type)")
            }
            for type in ["application/json; charset=utf-8", "Application/JSON"] {
                let json = try await client.send(.post, "/v1/consents", bearer: server.secret, json: eventJSON(), headers: [.contentType: type])
                #expect(json.status == .created, "\(type)")
            }
            let big = try await client.send(.post, "/v1/consents", bearer: server.secret,
                                            json: eventJSON(extra: "\"additionalConsent\": \"2~\(Array(repeating: "1", count: 600).joined(separator: "."))\""))
            #expect(big.status == .contentTooLarge)
            #expect(big.errorCode == "payload_too_large")
        }
    }

    @Test("credentials: none or unknown is 401, the wrong kind 403")
    func credentials() async throws {
        let server = try await TestServer.make()
        try await server.test { client async throws in
            #expect(try await client.send(.post, "/v1/consents", json: eventJSON()).status == .unauthorized)
            let forged = "ck_pub_" + String(server.publishable.dropFirst(7).prefix(12)) + "_" + String(repeating: "a", count: 32)
            #expect(try await client.send(.post, "/v1/consents", bearer: forged, json: eventJSON()).status == .unauthorized)
            #expect(try await client.send(.get, "/v1/subjects/user-1", bearer: "nonsense").status == .unauthorized)
            let forbidden = try await client.send(.get, "/v1/subjects/user-1", bearer: server.publishable)
            #expect(forbidden.status == .forbidden)
            #expect(forbidden.errorCode == "forbidden")
            for path in ["/v1/subjects/user-1/events", "/v1/subjects/user-1/export", "/v1/chain/verify"] {
                #expect(try await client.send(.get, path, bearer: server.publishable).status == .forbidden)
            }
            #expect(try await client.send(.delete, "/v1/subjects/user-1", bearer: server.publishable).status == .forbidden)
            #expect(try await client.send(.post, "/v1/subjects/user-1/tokens", bearer: server.publishable).status == .forbidden)
        }
    }

    @Test("a revoked key stops working")
    func revokedKey() async throws {
        let server = try await TestServer.make { $0.keyCacheSeconds = 0 }
        try await server.test { client async throws in
            #expect(try await client.send(.post, "/v1/consents", bearer: server.publishable, json: eventJSON(subject: nil)).status == .created)
            try await server.consentd.keys.revoke(server.publishable)
            #expect(try await client.send(.post, "/v1/consents", bearer: server.publishable, json: eventJSON(subject: nil)).status == .unauthorized)
        }
    }

    @Test("a subject token reads and writes its own subject only")
    func subjectTokens() async throws {
        let server = try await TestServer.make()
        try await server.test { client async throws in
            let minted = try await client.send(.post, "/v1/subjects/user-1/tokens", bearer: server.secret, json: #"{"ttlSeconds": 120}"#)
            #expect(minted.status == .created)
            let token = try #require(minted.object["token"] as? String)
            #expect(try await client.send(.post, "/v1/consents", bearer: token, json: eventJSON()).status == .created)
            #expect(try await client.send(.get, "/v1/subjects/user-1", bearer: token).status == .ok)
            #expect(try await client.send(.get, "/v1/subjects/user-2", bearer: token).status == .forbidden)
            #expect(try await client.send(.post, "/v1/consents", bearer: token, json: eventJSON(subject: "user-2")).status == .forbidden)
            #expect(try await client.send(.post, "/v1/consents", bearer: token, json: eventJSON(subject: nil)).status == .badRequest)
            #expect(try await client.send(.get, "/v1/subjects/user-1/events", bearer: token).status == .forbidden)
            #expect(try await client.send(.get, "/v1/subjects/user-1", bearer: token + "x").status == .unauthorized)
            let keyId = try #require(APIKeys.parse(server.secret)?.keyId)
            let expired = SubjectToken(appId: server.appId, subjectHash: testSecret.subjectHash(appId: server.appId, subjectId: "user-1"),
                                       keyId: keyId, issuedAt: 0, expiresAt: Int64(Date().timeIntervalSince1970) - 1)
            #expect(try await client.send(.get, "/v1/subjects/user-1", bearer: expired.encoded(with: testSecret)).status == .unauthorized)
            let tooLong = try await client.send(.post, "/v1/subjects/user-1/tokens", bearer: server.secret, json: #"{"ttlSeconds": 90000}"#)
            #expect(tooLong.status == .badRequest)
            #expect(tooLong.errorField == "ttlSeconds")
        }
    }

    @Test("state, history, export and erasure of a subject")
    func subjectLifecycle() async throws {
        let server = try await TestServer.make()
        try await server.test { client async throws in
            #expect(try await client.send(.get, "/v1/subjects/alice%40example.com", bearer: server.secret).status == .notFound)
            for minute in 0..<3 {
                let response = try await client.send(.post, "/v1/consents", bearer: server.secret,
                                                     json: eventJSON(subject: "alice@example.com", collectedAt: "2026-01-01T00:0\(minute):00Z"))
                #expect(response.status == .created)
            }
            let state = try await client.send(.get, "/v1/subjects/alice%40example.com", bearer: server.secret)
            #expect(state.status == .ok)
            #expect(state.object["subjectId"] as? String == "alice@example.com")
            let page = try await client.send(.get, "/v1/subjects/alice%40example.com/events?limit=2", bearer: server.secret)
            #expect((page.object["events"] as? [Any])?.count == 2)
            let cursor = try #require(page.object["nextCursor"] as? String)
            let rest = try await client.send(.get, "/v1/subjects/alice%40example.com/events?limit=2&cursor=\(cursor)", bearer: server.secret)
            #expect((rest.object["events"] as? [Any])?.count == 1)
            #expect(rest.object["nextCursor"] is NSNull)
            #expect(try await client.send(.get, "/v1/subjects/alice%40example.com/events?limit=0", bearer: server.secret).status == .badRequest)
            #expect(try await client.send(.get, "/v1/subjects/alice%40example.com/events?cursor=zz", bearer: server.secret).status == .badRequest)
            let export = try await client.send(.get, "/v1/subjects/alice%40example.com/export", bearer: server.secret)
            #expect((export.object["events"] as? [Any])?.count == 3)
            let erased = try await client.send(.delete, "/v1/subjects/alice%40example.com", bearer: server.secret)
            #expect(erased.status == .ok)
            #expect(erased.object["eventsErased"] as? Int == 3)
            #expect(try await client.send(.get, "/v1/subjects/alice%40example.com", bearer: server.secret).status == .notFound)
            #expect(try await client.send(.get, "/v1/subjects/alice%40example.com/events", bearer: server.secret).status == .notFound)
            #expect(try await client.send(.get, "/v1/subjects/alice%40example.com/export", bearer: server.secret).status == .notFound)
            #expect(try await client.send(.delete, "/v1/subjects/alice%40example.com", bearer: server.secret).status == .notFound)
            let chain = try await client.send(.get, "/v1/chain/verify", bearer: server.secret)
            #expect(chain.object["valid"] as? Bool == true)
            #expect(chain.object["eventsChecked"] as? Int == 3)
            #expect(chain.object["firstBrokenLink"] is NSNull)
        }
    }

    @Test("per-key and per-IP limits answer 429 with Retry-After")
    func rateLimits() async throws {
        // A token every 100 s: the three requests below stay within one refill however slow the
        // machine is (at 0.5/s they once took over 2 s while other suites ran beside them).
        let server = try await TestServer.make { $0.rateLimitPerKey = RateLimit(perSecond: 0.01, burst: 2) }
        try await server.test { client async throws in
            for _ in 0..<2 {
                #expect(try await client.send(.get, "/v1/subjects/x", bearer: server.secret).status == .notFound)
            }
            let limited = try await client.send(.get, "/v1/subjects/x", bearer: server.secret)
            #expect(limited.status == .tooManyRequests)
            #expect(limited.errorCode == "rate_limited")
            // A whole token takes 100 s at 0.01/s, less the time the requests above took; the exact
            // arithmetic is checked with a fake clock in SettingsTests.
            #expect((1...100).contains(Int(limited.headers[.retryAfter] ?? "") ?? 0))
            // Another key of the same app has its own bucket.
            #expect(try await client.send(.get, "/v1/subjects/x", bearer: server.publishable).status == .forbidden)
        }
        let perIP = try await TestServer.make { $0.rateLimitPerIP = RateLimit(perSecond: 0.01, burst: 1) }
        try await perIP.test { client async throws in
            #expect(try await client.send(.get, "/v1/vendor-list.json").status == .ok)
            #expect(try await client.send(.get, "/v1/vendor-list.json").status == .tooManyRequests)
            // Every route, /health too (issue 24, H3).
            #expect(try await client.send(.get, "/health").status == .tooManyRequests)
        }
    }

    @Test("unknown routes and methods answer JSON errors, not 500")
    func unknownRoutes() async throws {
        let server = try await TestServer.make()
        try await server.test { client async throws in
            let missing = try await client.send(.get, "/v1/nothing-here")
            #expect(missing.status == .notFound)
            #expect(missing.errorCode == "not_found")
            let wrongMethod = try await client.send(.put, "/v1/consents", bearer: server.publishable, json: "{}")
            #expect(wrongMethod.status.code < 500)
            #expect(wrongMethod.errorCode != nil)
        }
    }
}

let proofJSON = #"{"noticeId": "main", "noticeVersion": "2", "language": "de", "sdkVersion": "1.0.0", "platform": "ios", "method": "custom"}"#

extension ConsentAPITests {
    @Test("cursors are decimal positions; a null token lifetime is refused")
    func cursorAndLifetimeEdges() async throws {
        let server = try await TestServer.make()
        try await server.test { client async throws in
            try await client.send(.post, "/v1/consents", bearer: server.secret, json: eventJSON())
            let long = String(repeating: "0", count: 65)
            #expect(try await client.send(.get, "/v1/subjects/user-1/events?cursor=\(long)", bearer: server.secret).status == .badRequest)
            #expect(try await client.send(.get, "/v1/subjects/user-1/events?cursor=-1", bearer: server.secret).status == .badRequest)
            #expect(try await client.send(.get, "/v1/subjects/user-1/events?cursor=0", bearer: server.secret).status == .ok)
            let null = try await client.send(.post, "/v1/subjects/user-1/tokens", bearer: server.secret, json: #"{"ttlSeconds": null}"#)
            #expect(null.status == .badRequest)
            #expect(null.errorField == "ttlSeconds")
        }
    }
}
