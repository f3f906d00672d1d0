@testable import ConsentServer
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

/// L6 of issue 24: the input checks the newer routes skipped. The web CMP's bodies are read as
/// strictly as `POST /v1/consents` (no repeated or unknown key), an app's AC string that does not
/// parse is refused, AC ids have one spelling, ids hold no invisible formatting characters, a
/// pretended region needs the operator's consent, and an app's key reads only its publishers.
/// Against the real server on loopback.
@Suite("Input rules")
struct InputRuleTests {
    static func web(_ client: some TestClientProtocol, _ path: String, _ body: String, country: String? = nil) async throws -> TestResponse {
        var headers: HTTPFields = [.contentType: "text/plain;charset=UTF-8"]
        if let country { headers[HTTPField.Name("CF-IPCountry")!] = country }
        return try await client.send(.post, path, json: body, headers: headers)
    }

    static let accept = #"{"protocol":1,"type":"result","action":"acceptAll","layer":1,"language":"en","noticeVersion":0}"#

    @Test("l6: a page view with a key twice or a key the route does not define is refused, naming it")
    func l6WebSessionRefusesRepeatedAndUnknownKeys() async throws {
        let server = try await TestServer.make()
        try await server.live { client in
            let key = try await server.consentd.demoSite.key(server.consentd.keys)
            let twice = try await Self.web(client, "/v1/web/session", #"{"credential":"\#(key)","debugRegion":"not_eea","debugRegion":"eea"}"#)
            #expect(twice.status == .badRequest && twice.errorField == "debugRegion")
            let unknown = try await Self.web(client, "/v1/web/session", #"{"credential":"\#(key)","credential2":"x"}"#)
            #expect(unknown.status == .badRequest && unknown.errorField == "credential2")
        }
    }

    @Test("l6: a choice with a key twice or a key the route does not define is refused, naming it")
    func l6WebChoicesRefusesRepeatedAndUnknownKeys() async throws {
        let server = try await TestServer.make()
        try await server.live { client in
            let key = try await server.consentd.demoSite.key(server.consentd.keys)
            let twice = try await Self.web(client, "/v1/web/choices",
                                           #"{"credential":"\#(key)","language":"en","language":"de","message":\#(Self.accept)}"#)
            #expect(twice.status == .badRequest && twice.errorField == "language")
            let unknown = try await Self.web(client, "/v1/web/choices", #"{"credential":"\#(key)","colour":1,"message":\#(Self.accept)}"#)
            #expect(unknown.status == .badRequest && unknown.errorField == "colour")
            let nested = try await Self.web(client, "/v1/web/choices", #"{"credential":"\#(key)","appConsent":{"tcString":"x","gdpr":1}}"#)
            #expect(nested.status == .badRequest && nested.errorField == "appConsent.gdpr")
        }
    }

    @Test("l6: an app's Additional Consent string that does not parse is refused, not dropped")
    func l6AppConsentACThatDoesNotParseIsRefused() async throws {
        let server = try await TestServer.make()
        try await server.live { client in
            let key = try await server.consentd.demoSite.key(server.consentd.keys)
            let made = try await Self.web(client, "/v1/web/choices", #"{"credential":"\#(key)","message":\#(Self.accept)}"#)
            let tcString = try #require(made.object["tcString"] as? String)
            let token = try await WebAppConsentTests.appToken(client, server, subjectId: "app-user-1")
            for ac in ["2~+5~dv.", "2~00089~dv."] {
                let refused = try await Self.web(client, "/v1/web/choices", #"""
                    {"credential":"\#(key)","appConsent":{"tcString":"\#(tcString)","addtlConsent":"\#(ac)","subjectToken":"\#(token)","subjectId":"app-user-1"}}
                    """#)
                #expect(refused.status == .unprocessableContent && refused.errorField == "appConsent.addtlConsent", "\(ac)")
            }
        }
    }

    @Test("l6: Additional Consent ids with leading zeros are refused")
    func l6ACIdsWithLeadingZerosAreRefused() async throws {
        let server = try await TestServer.make()
        try await server.live { client in
            for ac in ["2~00089~dv.", "2~89~dv.0001", "1~089"] {
                let answer = try await client.send(.post, "/v1/consents", bearer: server.secret,
                                                   json: eventJSON(extra: #""additionalConsent": "\#(ac)""#))
                #expect(answer.status == .unprocessableContent && answer.errorField == "additionalConsent", "\(ac)")
            }
            #expect(try await client.send(.post, "/v1/consents", bearer: server.secret,
                                          json: eventJSON(extra: #""additionalConsent": "2~89~dv.1051""#)).status == .created)
        }
    }

    @Test("l6: ids holding invisible formatting characters (U+202E, U+2028, U+200B) are refused")
    func l6FormatCharactersInIdsAreRefused() async throws {
        let server = try await TestServer.make()
        try await server.live { client in
            for character in ["\\u202e", "\\u2028", "\\u2029", "\\u200b", "\\ufeff"] {
                let subject = try await client.send(.post, "/v1/consents", bearer: server.secret, json: eventJSON(subject: "user\(character)1"))
                #expect(subject.status == .badRequest && subject.errorField == "subjectId", "\(character)")
                let notice = try await client.send(.post, "/v1/consents", bearer: server.secret,
                                                   json: eventJSON().replacingOccurrences(of: #""noticeId": "main""#, with: #""noticeId": "ma\#(character)in""#))
                #expect(notice.status == .badRequest && notice.errorField == "proof.noticeId", "\(character)")
            }
            #expect(try await client.send(.post, "/v1/consents", bearer: server.secret, json: eventJSON(subject: "Zoë-✓")).status == .created)
        }
    }

    @Test("l6: a pretended region is ignored unless the operator allows it")
    func l6DebugRegionNeedsTheOperatorsSetting() async throws {
        for allowed in [false, true] {
            let server = try await TestServer.make { $0.allowDebugRegion = allowed }
            try await server.live { client in
                let key = try await server.consentd.demoSite.key(server.consentd.keys)
                let session = try await Self.web(client, "/v1/web/session", #"{"credential":"\#(key)","debugRegion":"not_eea"}"#, country: "FR")
                #expect(session.object["gdprApplies"] as? Bool == !allowed, "allowed: \(allowed)")
                let config = try await client.send(.get, "/v1/config?publisherIds=pub-news&debug_geo=not_eea", bearer: server.publishable,
                                                   headers: [HTTPField.Name("CF-IPCountry")!: "FR"])
                #expect(config.object["gdprApplies"] as? Bool == !allowed, "allowed: \(allowed)")
            }
        }
    }

    @Test("l6: an app's key reads only the publishers configured for that app")
    func l6ConfigAnswersOnlyTheAppsOwnPublishers() async throws {
        let server = try await TestServer.make()
        let other = try await server.consentd.keys.create(appId: "com.example.other", kind: .publishable, label: "other app").token
        try await server.live { client in
            let foreign = try await client.send(.get, "/v1/config?publisherIds=pub-news", bearer: other)
            #expect(foreign.status == .forbidden && foreign.errorCode == "publisher_not_for_app")
            let trimmed = try await client.send(.get, "/v1/vendor-list/trimmed?publisherIds=pub-news", bearer: other)
            #expect(trimmed.status == .forbidden)
            #expect(try await client.send(.get, "/v1/config?publisherIds=pub-news", bearer: server.publishable).status == .ok)
        }
    }
}
