@testable import ConsentServer
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

/// M6 of issue 24 (quotas): a subject a publishable key created may store a bounded number of
/// events and bytes a day through its token. Against the real server on loopback.
@Suite("Anonymous subjects' quota")
struct AnonymousQuotaTests {
    /// A subject made with the publishable key: its id and token.
    static func anonymous(_ client: some TestClientProtocol, _ server: TestServer) async throws -> (subject: String, token: String) {
        let created = try await client.send(.post, "/v1/consents", bearer: server.publishable, json: eventJSON(subject: nil))
        #expect(created.status == .created)
        return (try #require(created.object["subjectId"] as? String), try #require(created.object["subjectToken"] as? String))
    }

    @Test("m6: an anonymous subject's token stores its quota of events a day, then 429 subject_quota_exceeded")
    func m6AnonymousSubjectEventQuota() async throws {
        let server = try await TestServer.make { $0.anonymousSubjectEventsPerDay = 5 }
        try await server.live { client in
            let (subject, token) = try await Self.anonymous(client, server)
            for _ in 0..<4 {
                #expect(try await client.send(.post, "/v1/consents", bearer: token, json: eventJSON(subject: subject)).status == .created)
            }
            let over = try await client.send(.post, "/v1/consents", bearer: token, json: eventJSON(subject: subject))
            #expect(over.status == .tooManyRequests && over.errorCode == "subject_quota_exceeded")
            let batch = try await client.send(.post, "/v1/consents/batch", bearer: token, json: #"{"events": [\#(eventJSON(subject: subject))]}"#)
            #expect(try #require(batch.batch).results.map(\.status) == [429])
        }
    }

    @Test("m6: an anonymous subject's token stores its quota of bytes a day, then 413 subject_quota_exceeded")
    func m6AnonymousSubjectByteQuota() async throws {
        let server = try await TestServer.make { $0.anonymousSubjectBytesPerDay = 2000 }
        try await server.live { client in
            let (subject, token) = try await Self.anonymous(client, server)
            var statuses: [Int] = []
            for _ in 0..<20 {
                let event = eventJSON(subject: subject)
                    .replacingOccurrences(of: #""sdkVersion": "1.0.0""#, with: #""sdkVersion": "\#(String(repeating: "9", count: 100))""#)
                statuses.append(Int(try await client.send(.post, "/v1/consents", bearer: token, json: event).status.code))
                if statuses.last == 413 { break }
            }
            #expect(statuses.first == 201 && statuses.last == 413, "\(statuses)")
        }
    }

    @Test("m6: the secret key and the backend's session tokens are not bound by the anonymous quota")
    func m6IdentifiedWritesHaveNoAnonymousQuota() async throws {
        let server = try await TestServer.make { $0.anonymousSubjectEventsPerDay = 2 }
        try await server.live { client in
            let session = try #require(try await client.send(.post, "/v1/subjects/user-1/tokens", bearer: server.secret).object["token"] as? String)
            for bearer in [server.secret, session, server.secret, session] {
                #expect(try await client.send(.post, "/v1/consents", bearer: bearer, json: eventJSON(subject: "user-1")).status == .created)
            }
        }
    }
}
