@testable import ConsentServer
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

/// `Server/openapi.yaml` stays true: the server has exactly its operations, and answers (status,
/// content type, body shape) that it documents.
@Suite("OpenAPI contract")
struct OpenAPIContractTests {
    @Test("the router and openapi.yaml declare the same operations")
    func sameOperations() async throws {
        let server = try await TestServer.make()
        let routes = Set(server.consentd.router().routes.map { "\($0.method) \($0.path)" })
        await server.consentd.close()
        #expect(routes == OpenAPIContract.shared.operations)
    }

    @Test("every answer to a tour of the API is documented")
    func answersAreDocumented() async throws {
        let server = try await TestServer.make { $0.bodyLimit = 2048 }
        try await server.test { client async throws in
            let pub = server.publishable, sec = server.secret
            var problems: [String] = []
            @discardableResult func check(_ method: HTTPRequest.Method, _ uri: String, _ template: String, bearer: String? = nil, json: String? = nil,
                       headers: HTTPFields = [:], expect status: Int) async throws -> TestResponse {
                let response = try await client.send(method, uri, bearer: bearer, json: json, headers: headers)
                if response.status.code != status {
                    problems.append("\(method) \(uri): expected \(status), got \(response.status.code)")
                }
                problems += OpenAPIContract.shared.problems(
                    method: method.rawValue, template: template, status: response.status.code,
                    contentType: response.headers[.contentType], body: Data(response.body.readableBytesView))
                return response
            }
            try await check(.get, "/health", "/health", expect: 200)
            try await check(.get, "/metrics", "/metrics", expect: 200)
            try await check(.get, "/v1/config?publisherIds=pub-news", "/v1/config", bearer: pub, expect: 200)
            try await check(.get, "/v1/config?publisherIds=pub-news", "/v1/config", bearer: pub,
                            headers: [HTTPField.Name("CF-IPCountry")!: "DE"], expect: 200)
            try await check(.get, "/v1/config?publisherIds=nope", "/v1/config", bearer: pub, expect: 400)
            try await check(.get, "/v1/config?publisherIds=pub-news", "/v1/config", expect: 401)
            let list = try await check(.get, "/v1/vendor-list.json", "/v1/vendor-list.json", expect: 200)
            try await check(.get, "/v1/vendor-list.json", "/v1/vendor-list.json", headers: [.ifNoneMatch: list.headers[.eTag] ?? ""], expect: 304)
            try await check(.get, "/v1/vendor-list/translations/fr", "/v1/vendor-list/translations/{language}", expect: 404)
            try server.consentd.catalog.replaceTranslation("fr", with: VendorListUpdatesTests.translation(of: server.consentd.catalog.document.body, prefix: "FR "))
            try await check(.get, "/v1/vendor-list/translations/fr", "/v1/vendor-list/translations/{language}", expect: 200)
            try await check(.get, "/v1/vendor-list/translations/sv", "/v1/vendor-list/translations/{language}", expect: 404)
            try await check(.get, "/v1/vendor-list/translations/x", "/v1/vendor-list/translations/{language}", expect: 400)
            try await check(.get, "/v1/vendor-list/trimmed?publisherIds=pub-news&language=fr", "/v1/vendor-list/trimmed", bearer: pub, expect: 200)
            try await check(.get, "/v1/vendor-list/trimmed?publisherIds=x", "/v1/vendor-list/trimmed", bearer: pub, expect: 400)
            let id = UUID()
            try await check(.post, "/v1/consents", "/v1/consents", bearer: sec, json: eventJSON(id: id), expect: 201)
            try await check(.post, "/v1/consents", "/v1/consents", bearer: sec, json: eventJSON(id: id), expect: 200)
            try await check(.post, "/v1/consents", "/v1/consents", bearer: sec, json: eventJSON(id: id, subject: "other"), expect: 409)
            try await check(.post, "/v1/consents", "/v1/consents", bearer: sec, json: "{}", expect: 400)
            try await check(.post, "/v1/consents", "/v1/consents", bearer: sec, json: eventJSON(extra: "\"tcString\": \"AAAA\""), expect: 422)
            try await check(.post, "/v1/consents", "/v1/consents", bearer: sec, json: eventJSON(), headers: [.contentType: "text/plain"], expect: 415)
            try await check(.post, "/v1/consents", "/v1/consents", bearer: sec,
                            json: eventJSON(extra: "\"additionalConsent\": \"2~\(Array(repeating: "7", count: 1200).joined(separator: "."))\""), expect: 413)
            try await check(.post, "/v1/consents", "/v1/consents", json: eventJSON(), expect: 401)
            try await check(.post, "/v1/consents", "/v1/consents", bearer: pub, json: eventJSON(), expect: 403)
            try await check(.post, "/v1/consents", "/v1/consents", bearer: pub, json: eventJSON(subject: nil), expect: 201)
            let batch = "/v1/consents/batch"
            let overLimit = eventJSON(extra: "\"additionalConsent\": \"2~\(Array(repeating: "7", count: 1200).joined(separator: "."))\"")
            try await check(.post, batch, batch, bearer: sec, json: batchJSON([
                eventJSON(subject: "user-2"), eventJSON(id: id), eventJSON(id: id, subject: "other"), eventJSON(subject: nil),
                eventJSON(extra: "\"tcString\": \"AAAA\""), overLimit, "[]",
            ]), expect: 200)
            try await check(.post, batch, batch, bearer: sec, json: "{}", expect: 400)
            try await check(.post, batch, batch, bearer: sec, json: #"{"events": []}"#, expect: 400)
            try await check(.post, batch, batch, bearer: sec, json: batchJSON([eventJSON()]) + String(repeating: " ", count: 2048 * 101), expect: 413)
            try await check(.post, batch, batch, bearer: sec, json: batchJSON([eventJSON()]), headers: [.contentType: "text/plain"], expect: 415)
            try await check(.post, batch, batch, json: batchJSON([eventJSON()]), expect: 401)
            try await check(.post, batch, batch, bearer: pub, json: batchJSON([eventJSON()]), expect: 403)
            try await check(.get, "/v1/subjects/user-1", "/v1/subjects/{subjectId}", bearer: sec, expect: 200)
            try await check(.get, "/v1/subjects/user-1", "/v1/subjects/{subjectId}", bearer: pub, expect: 403)
            try await check(.get, "/v1/subjects/nobody", "/v1/subjects/{subjectId}", bearer: sec, expect: 404)
            try await check(.get, "/v1/subjects/user-1/events?limit=1", "/v1/subjects/{subjectId}/events", bearer: sec, expect: 200)
            try await check(.get, "/v1/subjects/user-1/events?limit=900", "/v1/subjects/{subjectId}/events", bearer: sec, expect: 400)
            try await check(.get, "/v1/subjects/user-1/export", "/v1/subjects/{subjectId}/export", bearer: sec, expect: 200)
            let token = try await check(.post, "/v1/subjects/user-1/tokens", "/v1/subjects/{subjectId}/tokens", bearer: sec,
                                        json: #"{"ttlSeconds": 60}"#, expect: 201)
            try await check(.get, "/v1/subjects/user-1", "/v1/subjects/{subjectId}", bearer: token.object["token"] as? String, expect: 200)
            try await check(.post, "/v1/subjects/user-1/tokens", "/v1/subjects/{subjectId}/tokens", bearer: sec, expect: 201)
            try await check(.get, "/v1/chain/verify", "/v1/chain/verify", bearer: sec, expect: 200)
            try await check(.get, "/v1/analytics/choices?by=region&granularity=week", "/v1/analytics/{report}", bearer: sec, expect: 200)
            try await check(.get, "/v1/analytics/vendors?format=csv", "/v1/analytics/{report}", bearer: sec, expect: 200)
            try await check(.get, "/v1/analytics/choices?limit=0", "/v1/analytics/{report}", bearer: sec, expect: 400)
            try await check(.get, "/v1/analytics/choices", "/v1/analytics/{report}", bearer: pub, expect: 403)
            try await check(.get, "/v1/analytics/choices", "/v1/analytics/{report}", expect: 401)
            try await check(.get, "/v1/analytics/nope", "/v1/analytics/{report}", bearer: sec, expect: 404)
            let closed = "/v1/analytics/closed", close = #"{"noticeVersion": "3", "language": "de", "platform": "ios"}"#
            try await check(.post, closed, closed, bearer: pub, json: close, expect: 204)
            try await check(.post, closed, closed, bearer: sec, json: #"{"noticeVersion": "3", "language": "de"}"#, expect: 400)
            try await check(.post, closed, closed, json: close, expect: 401)
            try await check(.post, closed, closed, bearer: pub, json: close, headers: [.contentType: "text/plain"], expect: 415)
            try await check(.post, closed, closed, bearer: pub, json: close + String(repeating: " ", count: 2048), expect: 413)
            try await check(.delete, "/v1/subjects/user-1", "/v1/subjects/{subjectId}", bearer: sec, expect: 200)
            try await check(.delete, "/v1/subjects/user-1", "/v1/subjects/{subjectId}", bearer: sec, expect: 404)
            try await check(.post, "/v1/consents", "/v1/consents", bearer: sec, json: eventJSON(), expect: 410)
            let erased = try await check(.post, batch, batch, bearer: sec, json: batchJSON([eventJSON()]), expect: 200)
            #expect(erased.batch?.results.map(\.status) == [410])
            try await check(.post, "/v1/subjects/user-1/restart", "/v1/subjects/{subjectId}/restart", bearer: pub, expect: 403)
            try await check(.post, "/v1/subjects/user-1/restart", "/v1/subjects/{subjectId}/restart", bearer: sec, expect: 200)
            try await check(.post, "/v1/subjects/nobody/restart", "/v1/subjects/{subjectId}/restart", bearer: sec, expect: 404)
            #expect(problems == [])
        }
    }

    @Test("the checker itself notices an undocumented status, a missing field and a wrong type")
    func checkerNoticesMismatches() {
        let contract = OpenAPIContract.shared
        #expect(!contract.problems(method: "GET", template: "/health", status: 418, contentType: "application/json", body: Data("{}".utf8)).isEmpty)
        #expect(!contract.problems(method: "GET", template: "/health", status: 200, contentType: "application/json",
                                   body: Data(#"{"status": "ok"}"#.utf8)).isEmpty)
        #expect(!contract.problems(method: "GET", template: "/health", status: 200, contentType: "application/json",
                                   body: Data(#"{"status": "ok", "database": 1}"#.utf8)).isEmpty)
        #expect(contract.problems(method: "GET", template: "/health", status: 200, contentType: "application/json",
                                  body: Data(#"{"status": "ok", "database": "sqlite"}"#.utf8)).isEmpty)
    }
}
