@testable import ConsentServer
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

/// M3 of issue 24: a subject token minted before an erasure never reads or writes again, also
/// after the backend started the subject anew. Against the real server on loopback.
@Suite("Tokens from before an erasure")
struct ErasedTokenTests {
    @Test("m3: a token from before the erasure cannot read the subject, before or after the backend restarts it")
    func m3TokenFromBeforeErasureCannotRead() async throws {
        let server = try await TestServer.make()
        try await server.live { client in
            let created = try await client.send(.post, "/v1/consents", bearer: server.publishable, json: eventJSON(subject: nil))
            let subject = try #require(created.object["subjectId"] as? String)
            let installation = try #require(created.object["subjectToken"] as? String)
            let session = try #require(try await client.send(.post, "/v1/subjects/\(subject)/tokens", bearer: server.secret).object["token"] as? String)
            for token in [installation, session] {
                #expect(try await client.send(.get, "/v1/subjects/\(subject)", bearer: token).status == .ok)
            }
            #expect(try await client.send(.delete, "/v1/subjects/\(subject)", bearer: server.secret).status == .ok)
            for token in [installation, session] {
                let read = try await client.send(.get, "/v1/subjects/\(subject)", bearer: token)
                #expect(read.status == .gone && read.errorCode == "subject_erased")
            }
            #expect(try await client.send(.post, "/v1/subjects/\(subject)/restart", bearer: server.secret).status == .ok)
            #expect(try await client.send(.post, "/v1/consents", bearer: server.secret,
                                          json: eventJSON(subject: subject, extra: #""purposeConsents": [1, 2, 3, 4, 5, 6, 7]"#)).status == .created)
            for token in [installation, session] {
                let read = try await client.send(.get, "/v1/subjects/\(subject)", bearer: token)
                #expect(read.status == .gone && read.errorCode == "subject_erased", "the state written after the restart stays out of reach")
                #expect(read.object["current"] == nil)
            }
        }
    }

    @Test("m3: a token from before the erasure cannot write the subject after the restart, on any route")
    func m3TokenFromBeforeErasureCannotWrite() async throws {
        let server = try await TestServer.make()
        try await server.live { client in
            let created = try await client.send(.post, "/v1/consents", bearer: server.publishable, json: eventJSON(subject: nil))
            let subject = try #require(created.object["subjectId"] as? String)
            let installation = try #require(created.object["subjectToken"] as? String)
            #expect(try await client.send(.delete, "/v1/subjects/\(subject)", bearer: server.secret).status == .ok)
            #expect(try await client.send(.post, "/v1/subjects/\(subject)/restart", bearer: server.secret).status == .ok)
            let single = try await client.send(.post, "/v1/consents", bearer: installation, json: eventJSON(subject: subject))
            #expect(single.status == .gone && single.errorCode == "subject_erased")
            let batch = try await client.send(.post, "/v1/consents/batch", bearer: installation,
                                              json: #"{"events": [\#(eventJSON(subject: subject))]}"#)
            #expect(batch.status == .gone && batch.errorCode == "subject_erased")
        }
    }

    @Test("m3: a token minted after the restart reads and writes the subject")
    func m3TokenMintedAfterRestartWorks() async throws {
        let server = try await TestServer.make()
        try await server.live { client in
            #expect(try await client.send(.post, "/v1/consents", bearer: server.secret, json: eventJSON(subject: "user-9")).status == .created)
            #expect(try await client.send(.delete, "/v1/subjects/user-9", bearer: server.secret).status == .ok)
            #expect(try await client.send(.post, "/v1/subjects/user-9/restart", bearer: server.secret).status == .ok)
            let after = try #require(try await client.send(.post, "/v1/subjects/user-9/tokens", bearer: server.secret).object["token"] as? String)
            #expect(try await client.send(.post, "/v1/consents", bearer: after, json: eventJSON(subject: "user-9")).status == .created)
            #expect(try await client.send(.get, "/v1/subjects/user-9", bearer: after).status == .ok)
        }
    }
}
