@testable import ConsentServer
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

/// L8 of issue 24: cheap CPU amplifiers without a credential. The demo builds a bounded number
/// of notices at once, and trimmed vendor lists are cached only for the languages consentd holds.
/// Against the real server on loopback.
@Suite("Demo and vendor-list amplifiers")
struct DemoAmplifierTests {
    @Test("l8: while the demo builds as many notices as it may, another /demo/document is refused with 429, and served once one ends")
    func l8DemoDocumentBuildsAreCapped() async throws {
        let server = try await TestServer.make()
        try await server.live { client in
            let builds = server.consentd.demo.builds
            for _ in 0..<builds.limit { #expect(builds.acquire()) }
            let busy = try await client.send(.post, "/demo/document", json: #"{"vendors":"all"}"#)
            #expect(busy.status == .tooManyRequests && busy.errorCode == "demo_busy" && busy.headers[.retryAfter] == "1")
            builds.release()
            #expect(try await client.send(.post, "/demo/document", json: #"{"vendors":"all"}"#).status == .ok)
            for _ in 1..<builds.limit { builds.release() }
        }
    }

    @Test("l8: language tags consentd holds no translation for are answered from the English list's cache entry")
    func l8TrimmedListsAreCachedOnlyForHeldLanguages() async throws {
        let server = try await TestServer.make()
        try await server.live { client in
            let tags = (0..<20).map { "xx-" + String(Character(UnicodeScalar(UInt8(ascii: "a") + UInt8($0)))) + "zz" }
            for tag in tags {
                let answer = try await client.send(.get, "/v1/vendor-list/trimmed?publisherIds=pub-news&language=\(tag)", bearer: server.publishable)
                #expect(answer.status == .ok)
                #expect((answer.object["languageFallback"] as? [String: Any])?["requested"] as? String == tag.uppercased())
                #expect(answer.object["language"] as? String == "EN")
            }
            #expect(server.consentd.catalog.cachedTrimmedCount == 1, "one English list for twenty made-up tags")
            let english = try await client.send(.get, "/v1/vendor-list/trimmed?publisherIds=pub-news&language=en", bearer: server.publishable)
            #expect(english.object["languageFallback"] == nil)
            #expect(server.consentd.catalog.cachedTrimmedCount == 1)
        }
    }
}
