@testable import ConsentServer
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// Withdrawal events (`proof.method` `withdrawal` or `underAge`): a decision taken back is an
/// event that carries no consent, and the subject then has no decision (seed 002: every changed
/// consent is pushed).
@Suite("Withdrawal events")
struct WithdrawalEventTests {
    /// An event with no consent field, made `method` at `collectedAt`.
    private func withdrawalJSON(id: UUID = UUID(), method: String = "withdrawal", collectedAt: String, extra: String = "") -> String {
        """
        {"eventId": "\(id.uuidString)", "subjectId": "user-1", "collectedAt": "\(collectedAt)", \(extra)
         "proof": {"noticeId": "main", "noticeVersion": "2", "language": "de", "sdkVersion": "1.0.0", "platform": "ios", "method": "\(method)"}}
        """
    }

    @Test("002-11: consentd accepts a withdrawal with no consent; the subject then has no decision, and its state and export show the withdrawal",
          arguments: ["withdrawal", "underAge"])
    func withdrawalLeavesNoDecision(method: String) async throws {
        let server = try await TestServer.make()
        try await server.test { client async throws in
            let decided = try await client.send(.post, "/v1/consents", bearer: server.secret, json: eventJSON(collectedAt: "2026-01-02T03:04:05.678Z"))
            #expect(decided.status == .created)
            let id = UUID()
            let withdrawn = try await client.send(.post, "/v1/consents", bearer: server.secret,
                                                  json: withdrawalJSON(id: id, method: method, collectedAt: "2026-01-02T04:00:00.000Z"))
            #expect(withdrawn.status == .created)
            #expect(withdrawn.object["outcome"] as? String == "current")
            let state = try await client.send(.get, "/v1/subjects/user-1", bearer: server.secret)
            #expect(state.status == .ok)
            #expect(state.object["eventId"] as? String == id.uuidString.lowercased())
            let consent = try #require(state.object["consent"] as? [String: Any])
            #expect(Set(consent.keys) == ["proof"])
            #expect((consent["proof"] as? [String: Any])?["method"] as? String == method)
            let export = try await client.send(.get, "/v1/subjects/user-1/export", bearer: server.secret)
            #expect(export.status == .ok)
            let current = try #require(export.object["current"] as? [String: Any])
            #expect(current["eventId"] as? String == id.uuidString.lowercased())
            #expect(Set((current["consent"] as? [String: Any] ?? [:]).keys) == ["proof"])
            #expect((export.object["events"] as? [[String: Any]])?.count == 2)
        }
    }

    @Test("002-11: a withdrawal that carries consent is refused, at proof.method")
    func withdrawalWithConsentRefused() async throws {
        let server = try await TestServer.make()
        try await server.test { client async throws in
            let refused = try await client.send(.post, "/v1/consents", bearer: server.secret,
                                                json: withdrawalJSON(collectedAt: "2026-01-02T04:00:00.000Z", extra: "\"purposeConsents\": [1],"))
            #expect(refused.status == .badRequest)
            #expect(refused.errorCode == "invalid_field")
            #expect(refused.errorField == "proof.method")
            #expect(try await client.send(.get, "/v1/subjects/user-1", bearer: server.secret).status == .notFound)
        }
    }

    @Test("002-11: a decision older than the withdrawal stays history; a newer one is the subject's decision again")
    func orderedLikeEveryEvent() async throws {
        let server = try await TestServer.make()
        try await server.test { client async throws in
            let withdrawal = UUID()
            try await client.send(.post, "/v1/consents", bearer: server.secret, json: withdrawalJSON(id: withdrawal, collectedAt: "2026-01-02T04:00:00.000Z"))
            let older = try await client.send(.post, "/v1/consents", bearer: server.secret, json: eventJSON(collectedAt: "2026-01-02T03:00:00.000Z"))
            #expect(older.object["outcome"] as? String == "history")
            #expect((older.object["current"] as? [String: Any])?["eventId"] as? String == withdrawal.uuidString.lowercased())
            let newer = try await client.send(.post, "/v1/consents", bearer: server.secret, json: eventJSON(collectedAt: "2026-01-02T05:00:00.000Z"))
            #expect(newer.object["outcome"] as? String == "current")
            let state = try await client.send(.get, "/v1/subjects/user-1", bearer: server.secret)
            #expect((state.object["consent"] as? [String: Any])?["purposeConsents"] as? [Int] == [1, 2])
        }
    }
}
