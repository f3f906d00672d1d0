@testable import ConsentServer
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

/// L4 of issue 24 (server side): a website visitor's token expires (30 days by default), the
/// page's session call renews one close to expiry, and an expired one is refused with a message
/// that says to use the page key again. Against the real server on loopback.
@Suite("Web visitors' token lifetime")
struct WebTokenLifetimeTests {
    static let reject = #"{"protocol":1,"type":"result","action":"rejectAll","layer":1,"language":"en","noticeVersion":0}"#

    static func web(_ client: some TestClientProtocol, _ path: String, _ body: String) async throws -> TestResponse {
        try await client.send(.post, path, json: body, headers: [.contentType: "text/plain"])
    }

    @Test("l4: the token a page key gets for its visitor expires after the web token lifetime")
    func l4WebTokenHasALifetime() async throws {
        let server = try await TestServer.make()
        try await server.live { client in
            let key = try await server.consentd.demoSite.key(server.consentd.keys)
            let chosen = try await Self.web(client, "/v1/web/choices", #"{"credential":"\#(key)","message":\#(Self.reject)}"#)
            let text = try #require(chosen.object["subjectToken"] as? String)
            let token = try #require(SubjectToken.verify(text, with: server.consentd.secret))
            let expiresAt = try #require(token.expiresAt)
            #expect(abs(Double(expiresAt) - Date().timeIntervalSince1970 - 30 * 86_400) < 60)
        }
    }

    @Test("l4: an expired visitor token is refused with 401, telling the page to use its key again")
    func l4ExpiredWebTokenIsRefused() async throws {
        let server = try await TestServer.make { $0.webTokenLifetime = .seconds(1) }
        try await server.live { client in
            let key = try await server.consentd.demoSite.key(server.consentd.keys)
            let chosen = try await Self.web(client, "/v1/web/choices", #"{"credential":"\#(key)","message":\#(Self.reject)}"#)
            let token = try #require(chosen.object["subjectToken"] as? String)
            try await Task.sleep(for: .seconds(2.2))
            let expired = try await Self.web(client, "/v1/web/session", #"{"credential":"\#(token)","debugRegion":"eea"}"#)
            #expect(expired.status == .unauthorized && expired.errorCode == "subject_token_expired")
            #expect(((expired.object["error"] as? [String: Any])?["message"] as? String)?.contains("publishable key") == true)
        }
    }

    @Test("l4: a page view with a visitor token in the last third of its life gets a renewed one; a fresh one is not renewed")
    func l4SessionRenewsATokenCloseToExpiry() async throws {
        let server = try await TestServer.make()
        try await server.live { client in
            let key = try await server.consentd.demoSite.key(server.consentd.keys)
            let chosen = try await Self.web(client, "/v1/web/choices", #"{"credential":"\#(key)","message":\#(Self.reject)}"#)
            let fresh = try #require(chosen.object["subjectToken"] as? String)
            let subjectId = try #require(chosen.object["subjectId"] as? String)
            let quiet = try await Self.web(client, "/v1/web/session", #"{"credential":"\#(fresh)","debugRegion":"eea"}"#)
            #expect(quiet.status == .ok && quiet.object["subjectToken"] == nil)

            let minted = try #require(SubjectToken.verify(fresh, with: server.consentd.secret))
            let now = Date()
            let ageing = SubjectToken(appId: minted.appId, subjectHash: minted.subjectHash, keyId: minted.keyId,
                                      issuedAt: minted.issuedAt, expiresAt: Int64(now.timeIntervalSince1970) + 2 * 86_400).encoded(with: server.consentd.secret)
            let renewedAnswer = try await Self.web(client, "/v1/web/session", #"{"credential":"\#(ageing)","debugRegion":"eea"}"#)
            let renewed = try #require(renewedAnswer.object["subjectToken"] as? String)
            let token = try #require(SubjectToken.verify(renewed, with: server.consentd.secret))
            #expect(token.subjectHash == minted.subjectHash && token.keyId == minted.keyId)
            #expect(abs(Double(try #require(token.expiresAt)) - now.timeIntervalSince1970 - 30 * 86_400) < 60)
            let again = try await Self.web(client, "/v1/web/choices",
                                           #"{"credential":"\#(renewed)","subjectId":"\#(subjectId)","reopen":true,"message":\#(Self.reject)}"#)
            #expect(again.status == .created)
        }
    }

    @Test("l4: the backend's session tokens are never renewed into visitor tokens")
    func l4BackendSessionTokenIsNotRenewed() async throws {
        let server = try await TestServer.make()
        let secret = try await server.consentd.keys.create(appId: DemoSite.appId, kind: .secret, label: "backend").token
        try await server.live { client in
            let minted = try await client.send(.post, "/v1/subjects/user-1/tokens", bearer: secret)
            let session = try #require(minted.object["token"] as? String)
            let answer = try await Self.web(client, "/v1/web/session", #"{"credential":"\#(session)","debugRegion":"eea"}"#)
            #expect(answer.status == .ok && answer.object["subjectToken"] == nil)
        }
    }
}
