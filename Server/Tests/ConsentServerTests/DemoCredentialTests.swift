@testable import ConsentServer
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

/// H2 and L7 of issue 24: the demo is exactly as safe as a real site. The playground's results
/// (`POST /demo/result`) are written by the rules of every write: its page key creates a visitor's
/// subject, only that visitor's token writes it again, erased means erased, and the rate limits
/// hold; a revoked demo key is never revived. Against the real server on loopback.
@Suite("The demo's credentials")
struct DemoCredentialTests {
    static let accept = #"{"protocol":1,"type":"result","action":"acceptAll","layer":1,"language":"en","noticeVersion":3}"#
    static let reject = #"{"protocol":1,"type":"result","action":"rejectAll","layer":1,"language":"en","noticeVersion":3}"#

    /// The playground's page key, as the page reads it from its script tag.
    static func playgroundKey(_ client: some TestClientProtocol) async throws -> String {
        let page = String(buffer: try await client.send(.get, "/demo/playground").body)
        let marker = try #require(page.range(of: #"data-key=""#), "the playground page carries its key")
        return String(page[marker.upperBound...].prefix { $0 != "\"" })
    }

    /// A playground result: the notice's message with `credential` and, with a token, `subjectId`.
    static func result(_ client: some TestClientProtocol, credential: String?, subjectId: String? = nil,
                       message: String = accept) async throws -> TestResponse {
        var fields = [#""options":{"vendors":"20"}"#, #""message":\#(message)"#]
        if let credential { fields.append(#""credential":"\#(credential)""#) }
        if let subjectId { fields.append(#""subjectId":"\#(subjectId)""#) }
        return try await client.send(.post, "/demo/result", json: "{" + fields.joined(separator: ",") + "}")
    }

    /// A visitor of the demo website who rejected everything (what cmp.js sends).
    static func webVisitor(_ client: some TestClientProtocol, siteKey: String) async throws -> (subjectId: String, token: String) {
        let message = #"{"protocol":1,"type":"result","action":"rejectAll","layer":1,"language":"en","noticeVersion":0}"#
        let chosen = try await client.send(.post, "/v1/web/choices", json: #"{"credential":"\#(siteKey)","language":"en","message":\#(message)}"#,
                                           headers: [.contentType: "text/plain"])
        #expect(chosen.status == .created)
        return (try #require(chosen.object["subjectId"] as? String), try #require(chosen.object["subjectToken"] as? String))
    }

    @Test("h2: a result with no credential, or a key that is not the playground's, writes nothing; the site's visitors are out of reach")
    func h2DemoResultWithoutCredentialWritesNothing() async throws {
        let server = try await TestServer.make()
        try await server.live { client in
            let siteKey = try await server.consentd.demoSite.key(server.consentd.keys)
            let visitor = try await Self.webVisitor(client, siteKey: siteKey)
            let none = try await Self.result(client, credential: nil, subjectId: visitor.subjectId)
            #expect(none.status == .badRequest && none.errorField == "credential")
            let site = try await Self.result(client, credential: siteKey, subjectId: visitor.subjectId)
            #expect(site.status == .forbidden, "the site's key is not the playground's")
            let playground = try await Self.result(client, credential: try await Self.playgroundKey(client), subjectId: visitor.subjectId)
            #expect(playground.status == .forbidden && playground.errorCode == "subject_credential_required")
            let state = try await server.consentd.store.current(appId: DemoSite.appId, subjectId: visitor.subjectId)
            #expect(state?.consent.proof.method == .rejectAll, "the visitor's choice stands")
        }
    }

    @Test("h2: the playground's key creates a subject of its own app and returns its token, which alone writes it again")
    func h2PlaygroundKeyCreatesASubjectOnlyItsTokenWrites() async throws {
        let server = try await TestServer.make()
        try await server.live { client in
            let key = try await Self.playgroundKey(client)
            let first = try await Self.result(client, credential: key)
            #expect(first.status == .ok)
            let event = try #require(first.object["event"] as? [String: Any])
            let subjectId = try #require(event["subjectId"] as? String)
            let token = try #require(first.object["subjectToken"] as? String)
            #expect(try await server.consentd.store.current(appId: NoticeDemo.appId, subjectId: subjectId)?.consent.proof.method == .acceptAll)
            #expect(try await server.consentd.store.current(appId: DemoSite.appId, subjectId: subjectId) == nil,
                    "the playground's subjects are not the demo website's")

            let again = try await Self.result(client, credential: token, subjectId: subjectId, message: Self.reject)
            #expect(again.status == .ok && again.object["subjectToken"] == nil)
            #expect(try await server.consentd.store.current(appId: NoticeDemo.appId, subjectId: subjectId)?.consent.proof.method == .rejectAll)
            let other = try await Self.result(client, credential: token, subjectId: "someone-else")
            #expect(other.status == .forbidden)
            let bare = try await Self.result(client, credential: token)
            #expect(bare.status == .badRequest && bare.errorField == "subjectId")
        }
    }

    @Test("h2: a playground subject erased stays erased for its token")
    func h2ErasedPlaygroundSubjectStaysErased() async throws {
        let server = try await TestServer.make()
        let secret = try await server.consentd.keys.create(appId: NoticeDemo.appId, kind: .secret, label: "backend").token
        try await server.live { client in
            let first = try await Self.result(client, credential: try await Self.playgroundKey(client))
            let subjectId = try #require((first.object["event"] as? [String: Any])?["subjectId"] as? String)
            let token = try #require(first.object["subjectToken"] as? String)
            #expect(try await client.send(.delete, "/v1/subjects/\(subjectId)", bearer: secret).status == .ok)
            let after = try await Self.result(client, credential: token, subjectId: subjectId)
            #expect(after.status == .gone && after.errorCode == "subject_erased")
            #expect(try await server.consentd.store.current(appId: NoticeDemo.appId, subjectId: subjectId) == nil)
        }
    }

    @Test("h2: the playground's results are under the key's rate limit")
    func h2DemoResultIsRateLimited() async throws {
        let server = try await TestServer.make { $0.rateLimitPerKey = RateLimit(perSecond: 0.01, burst: 2) }
        try await server.live { client in
            let key = try await Self.playgroundKey(client)
            var statuses: [Int] = []
            for _ in 0..<4 { statuses.append(Int(try await Self.result(client, credential: key).status.code)) }
            #expect(statuses.prefix(2).allSatisfy { $0 == 200 } && statuses.suffix(2).allSatisfy { $0 == 429 }, "\(statuses)")
        }
    }

    @Test("l7: a revoked demo key is never revived: the page gets a new key id, the old key's tokens stay dead, also after a restart")
    func l7RevokedDemoKeyIsNotRevived() async throws {
        let server = try await TestServer.make { $0.keyCacheSeconds = 0 }
        try await server.live { client in
            let key = try await server.consentd.demoSite.key(server.consentd.keys)
            let visitor = try await Self.webVisitor(client, siteKey: key)
            let oldKeyId = try #require(APIKeys.parse(key)?.keyId)
            #expect(try await server.consentd.keys.revoke(oldKeyId))
            let read = try await client.send(.get, "/v1/subjects/\(visitor.subjectId)", bearer: visitor.token)
            #expect(read.status == .unauthorized)

            // The page, in this run and after a restart (a new DemoSite over the same database).
            let page = String(buffer: try await client.send(.get, "/demo").body)
            let restarted = try await DemoSite().key(server.consentd.keys)
            for shown in [page, restarted] {
                #expect(!shown.contains(oldKeyId), "the revoked key id is not handed out again")
            }
            #expect(try await client.send(.get, "/v1/subjects/\(visitor.subjectId)", bearer: visitor.token).status == .unauthorized)
            let keys = try await server.consentd.keys.list(appId: DemoSite.appId)
            #expect(keys.first { $0.keyId == oldKeyId }?.revokedAt != nil, "the revoked key stays revoked")
            #expect(keys.filter { $0.revokedAt == nil }.count == 1, "one live page key: \(keys.map(\.keyId))")
            // The new key works for new visitors.
            _ = try await Self.webVisitor(client, siteKey: restarted)
        }
    }
}
