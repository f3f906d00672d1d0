@testable import ConsentServer
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Synchronization
import Testing

/// L8 of issue 24: cheap CPU amplifiers without a credential. The demo builds a bounded number
/// of notices at once, and trimmed vendor lists are cached only for the languages consentd holds.
/// Against the real server on loopback.
@Suite("Demo and vendor-list amplifiers")
struct DemoAmplifierTests {
    @Test("l8: while every build slot is taken, a /demo/document waits for one instead of running beside them")
    func l8DemoDocumentBuildsAreCapped() async throws {
        let server = try await TestServer.make()
        try await server.live { client in
            let gate = server.consentd.guards.cpuWork
            // Other addresses hold every slot.
            for slot in 0..<gate.limit { try await gate.acquire(address: "192.0.2.\(slot)") }
            let answered = Mutex(false)
            let document = Task {
                let answer = try await client.send(.post, "/demo/document", json: #"{"vendors":"all"}"#)
                answered.withLock { $0 = true }
                return answer.status
            }
            try await Task.sleep(for: .milliseconds(500))
            #expect(!answered.withLock { $0 }, "no notice is built while the slots are taken")
            for slot in 0..<gate.limit { gate.release(address: "192.0.2.\(slot)") }
            #expect(try await document.value == .ok)
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
