@testable import ConsentServer
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

extension OpenAPIContractTests {
    @Test("every answer of the console's configuration and key routes is documented")
    func consoleConfigurationAnswersAreDocumented() async throws {
        let fixture = try await ConfigFixture(.sqlite)
        let editor = try await fixture.console.createOperator(.editor)
        let analyst = try await fixture.console.createOperator(.analyst)
        try await fixture.server.live { client async throws in
            var problems: [String] = []
            @discardableResult func check(_ method: HTTPRequest.Method, _ uri: String, _ template: String, json: String? = nil,
                                          headers: HTTPFields, expect status: Int) async throws -> TestResponse {
                let response = try await client.send(method, uri, json: json, headers: headers)
                if response.status.code != status { problems.append("\(method) \(uri): expected \(status), got \(response.status.code)") }
                problems += OpenAPIContract.shared.problems(
                    method: method.rawValue, template: template, status: response.status.code,
                    contentType: response.headers[.contentType], body: Data(response.body.readableBytesView))
                return response
            }
            let session = try #require(ConsoleSessionCookie(try await client.signIn(editor, ConsoleAuthTests.password)))
            let other = try #require(ConsoleSessionCookie(try await client.signIn(analyst, ConsoleAuthTests.password)))
            let read = session.cookieHeader, write = session.stateChangingHeaders
            let publisher = "/v1/console/publishers/{publisherId}", provider = publisher + "/ad-tech-providers/{providerId}"
            try await check(.get, "/v1/console/config", "/v1/console/config", headers: read, expect: 200)
            try await check(.get, "/v1/console/config", "/v1/console/config", headers: other.cookieHeader, expect: 403)
            try await check(.get, "/v1/console/config", "/v1/console/config", headers: [:], expect: 401)
            try await check(.get, "/v1/console/publishers", "/v1/console/publishers", headers: read, expect: 200)
            try await check(.post, "/v1/console/publishers", "/v1/console/publishers", json: #"{"id": "pub-c", "name": "C", "us": {"approach": "national"}}"#,
                            headers: write, expect: 201)
            try await check(.post, "/v1/console/publishers", "/v1/console/publishers", json: #"{"id": "pub-c", "name": "C"}"#, headers: write, expect: 409)
            try await check(.post, "/v1/console/publishers", "/v1/console/publishers", json: #"{"id": "pub-d"}"#, headers: write, expect: 400)
            try await check(.post, "/v1/console/publishers", "/v1/console/publishers", json: #"{"id": "pub-d"}"#, headers: read, expect: 403)
            try await check(.post, "/v1/console/publishers", "/v1/console/publishers", json: "{}",
                            headers: write.merging([.contentType: "text/plain"]), expect: 415)
            let got = try await check(.get, "/v1/console/publishers/pub-c", publisher, headers: read, expect: 200)
            try await check(.get, "/v1/console/publishers/pub-x", publisher, headers: read, expect: 404)
            var stale = write
            stale[.ifMatch] = "\"0\""
            try await check(.put, "/v1/console/publishers/pub-c", publisher, json: #"{"name": "C2"}"#, headers: stale, expect: 412)
            var current = write
            let gotTag: String = try #require(got.headers[.eTag])
            current[.ifMatch] = gotTag
            try await check(.put, "/v1/console/publishers/pub-c", publisher, json: #"{"name": "C2"}"#, headers: current, expect: 200)
            try await check(.get, "/v1/console/publishers/pub-c/ad-tech-providers", publisher + "/ad-tech-providers", headers: read, expect: 200)
            try await check(.post, "/v1/console/publishers/pub-c/ad-tech-providers", publisher + "/ad-tech-providers",
                            json: #"{"id": 7, "name": "P", "privacyPolicyUrl": "https://p.example"}"#, headers: write, expect: 201)
            try await check(.put, "/v1/console/publishers/pub-c/ad-tech-providers/7", provider,
                            json: #"{"name": "P2", "privacyPolicyUrl": "https://p.example"}"#, headers: write, expect: 200)
            try await check(.delete, "/v1/console/publishers/pub-c/ad-tech-providers/7", provider, headers: write, expect: 204)
            try await check(.delete, "/v1/console/publishers/pub-c/ad-tech-providers/7", provider, headers: write, expect: 404)
            try await check(.get, "/v1/console/apps", "/v1/console/apps", headers: read, expect: 200)
            try await check(.post, "/v1/console/apps", "/v1/console/apps", json: #"{"appId": "com.c", "publisherIds": ["pub-c"]}"#, headers: write, expect: 201)
            try await check(.get, "/v1/console/apps/com.c", "/v1/console/apps/{appId}", headers: read, expect: 200)
            try await check(.put, "/v1/console/apps/com.c", "/v1/console/apps/{appId}", json: #"{"publisherIds": ["pub-news"]}"#, headers: write, expect: 200)
            try await check(.get, "/v1/console/websites", "/v1/console/websites", headers: read, expect: 200)
            try await check(.post, "/v1/console/websites", "/v1/console/websites", json: """
                {"appId": "c.example", "name": "C", "privacyPolicyUrl": "https://c.example/p", "publisherIds": ["pub-c"], "notice": {"layout": "banner"}}
                """, headers: write, expect: 201)
            try await check(.delete, "/v1/console/publishers/pub-c", publisher, headers: write, expect: 409)
            try await check(.get, "/v1/console/websites/c.example", "/v1/console/websites/{appId}", headers: read, expect: 200)
            try await check(.put, "/v1/console/websites/c.example", "/v1/console/websites/{appId}",
                            json: #"{"name": "C", "privacyPolicyUrl": "https://c.example/p", "publisherIds": ["pub-news"]}"#, headers: write, expect: 200)
            try await check(.delete, "/v1/console/websites/c.example", "/v1/console/websites/{appId}", headers: write, expect: 204)
            try await check(.delete, "/v1/console/apps/com.c", "/v1/console/apps/{appId}", headers: write, expect: 204)
            try await check(.delete, "/v1/console/publishers/pub-c", publisher, headers: write, expect: 204)
            let key = try await check(.post, "/v1/console/keys", "/v1/console/keys", json: #"{"appId": "com.c", "kind": "secret", "label": "x"}"#,
                                      headers: write, expect: 201)
            try await check(.post, "/v1/console/keys", "/v1/console/keys", json: #"{"appId": "com.c", "kind": "x"}"#, headers: write, expect: 400)
            try await check(.get, "/v1/console/keys", "/v1/console/keys", headers: read, expect: 200)
            try await check(.get, "/v1/console/keys?appId=bad%20id", "/v1/console/keys", headers: read, expect: 400)
            let keyId = try #require((key.object["key"] as? [String: Any])?["keyId"] as? String)
            try await check(.delete, "/v1/console/keys/\(keyId)", "/v1/console/keys/{keyId}", headers: write, expect: 204)
            try await check(.delete, "/v1/console/keys/nokeyhere123", "/v1/console/keys/{keyId}", headers: write, expect: 404)
            try await check(.delete, "/v1/console/keys/\(keyId)", "/v1/console/keys/{keyId}", headers: other.stateChangingHeaders, expect: 403)
            let config = try await check(.get, "/v1/config?publisherIds=pub-news", "/v1/config", headers: [.authorization: "Bearer \(fixture.server.publishable)"],
                                         expect: 200)
            let configTag: String = try #require(config.headers[.eTag])
            try await check(.get, "/v1/config?publisherIds=pub-news", "/v1/config",
                            headers: [.authorization: "Bearer \(fixture.server.publishable)", .ifNoneMatch: configTag], expect: 304)
            #expect(problems == [])
        }
    }
}

extension HTTPFields {
    /// These fields with `other`'s set over them.
    func merging(_ other: HTTPFields) -> HTTPFields {
        var result = self
        for field in other { result[field.name] = field.value }
        return result
    }
}
