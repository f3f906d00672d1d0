@testable import ConsentServer
import ConsentKit
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import TCF
import Testing

/// L2 of issue 24: a TC string made "in the future" never expires, so the web CMP does not take
/// it: a page view with one is no decision (the visitor is asked again), and an app's consent
/// with one is refused. Against the real server on loopback.
@Suite("TC strings from the future")
struct WebStringTimeTests {
    /// A string and AC string agreeing to everything the demo site shows, made at `date`.
    static func agreed(_ server: TestServer, at date: Date) throws -> (tc: String, ac: String) {
        let web = server.consentd.web
        let scope = try web.scope(try web.site(appId: DemoSite.appId), language: "en")
        let state = ConsentState.agreeToAll(scope: scope, at: date)
        return (try state.tcString(cmp: web.cmp).encoded(),
                AdditionalConsent.string(consented: state.adTechProviderConsents, disclosed: state.disclosedAdTechProviders))
    }

    static func web(_ client: some TestClientProtocol, _ path: String, _ body: String) async throws -> TestResponse {
        try await client.send(.post, path, json: body, headers: [.contentType: "text/plain"])
    }

    @Test("l2: a page view with a string created in the future is no decision: the visitor is asked again")
    func l2FutureStringIsNoDecision() async throws {
        let server = try await TestServer.make()
        try await server.live { client in
            let key = try await server.consentd.demoSite.key(server.consentd.keys)
            let now = try Self.agreed(server, at: Date())
            let held = try await Self.web(client, "/v1/web/session",
                                          #"{"credential":"\#(key)","debugRegion":"eea","tcString":"\#(now.tc)","addtlConsent":"\#(now.ac)"}"#)
            #expect(held.object["ask"] is NSNull, "a string made now holds: \(held.object["ask"] ?? "")")
            let future = try Self.agreed(server, at: Date(timeIntervalSince1970: 4_102_444_800))  // 2100-01-01
            let asked = try await Self.web(client, "/v1/web/session",
                                           #"{"credential":"\#(key)","debugRegion":"eea","tcString":"\#(future.tc)","addtlConsent":"\#(future.ac)"}"#)
            #expect(asked.object["ask"] as? String == "noDecision")
            #expect(asked.object["tcData"] is NSNull)
            #expect((asked.object["storedStringRefused"] as? String)?.contains("Created") == true)
        }
    }

    @Test("l2: an app's consent whose string was created in the future is refused")
    func l2AppConsentFromTheFutureIsRefused() async throws {
        let server = try await TestServer.make()
        try await server.live { client in
            let key = try await server.consentd.demoSite.key(server.consentd.keys)
            // TC strings carry days (the encoder rounds its times to the day): two days ahead.
            let future = try Self.agreed(server, at: Date(timeIntervalSinceNow: 2 * 86_400))
            // The app's consent comes with the app's own credential (M4).
            let token = try await WebAppConsentTests.appToken(client, server, subjectId: "app-user-1")
            func handOver(_ tc: String) -> String {
                #"{"credential":"\#(key)","appConsent":{"tcString":"\#(tc)","subjectToken":"\#(token)","subjectId":"app-user-1"}}"#
            }
            let refused = try await Self.web(client, "/v1/web/choices", handOver(future.tc))
            #expect(refused.status == .unprocessableContent && refused.errorField == "appConsent.tcString")
            let skewed = try Self.agreed(server, at: Date(timeIntervalSinceNow: 300))
            #expect(try await Self.web(client, "/v1/web/choices", handOver(skewed.tc)).status == .created,
                    "within the clock skew of events")
        }
    }
}
