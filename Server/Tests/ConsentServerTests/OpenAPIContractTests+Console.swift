@testable import ConsentServer
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

extension OpenAPIContractTests {
    @Test("every answer of the console's sign-in and access routes is documented")
    func consoleAnswersAreDocumented() async throws {
        let console = try await ConsoleFixture(.sqlite)
        let owner = try await console.createOperator(.owner)
        let analyst = try await console.createOperator(.analyst)
        try await console.server.live { client async throws in
            var problems: [String] = []
            @discardableResult func check(_ method: HTTPRequest.Method, _ uri: String, _ template: String, json: String? = nil,
                                          headers: HTTPFields = [:], expect status: Int) async throws -> TestResponse {
                let response = try await client.send(method, uri, json: json, headers: headers)
                if response.status.code != status { problems.append("\(method) \(uri): expected \(status), got \(response.status.code)") }
                problems += OpenAPIContract.shared.problems(
                    method: method.rawValue, template: template, status: response.status.code,
                    contentType: response.headers[.contentType], body: Data(response.body.readableBytesView))
                return response
            }
            let session = "/v1/console/session"
            let password = ConsoleAuthTests.password
            try await check(.post, session, session, json: #"{"email": "\#(owner)"}"#, expect: 400)
            try await check(.post, session, session, json: #"{"email": "\#(owner)", "password": "wrong password!"}"#, expect: 401)
            try await check(.post, session, session, json: #"{"token": "nope", "password": "\#(password)"}"#, expect: 401)
            try await check(.post, session, session, json: "{}", headers: [.contentType: "text/plain"], expect: 415)
            try await check(.post, session, session, json: #"{"email": "\#(owner)", "password": "x"}"#,
                            headers: [.origin: "https://attacker.example"], expect: 403)
            let signedIn = try await check(.post, session, session, json: #"{"email": "\#(owner)", "password": "\#(password)"}"#, expect: 200)
            let cookie = try #require(ConsoleSessionCookie(signedIn))
            try await check(.get, "/v1/console/me", "/v1/console/me", headers: cookie.cookieHeader, expect: 200)
            try await check(.get, "/v1/console/me", "/v1/console/me", expect: 401)
            try await check(.get, "/v1/console/audit?limit=2", "/v1/console/audit", headers: cookie.cookieHeader, expect: 200)
            try await check(.get, "/v1/console/audit", "/v1/console/audit", headers: cookie.cookieHeader, expect: 200)
            try await check(.get, "/v1/console/audit?limit=x", "/v1/console/audit", headers: cookie.cookieHeader, expect: 400)
            let analystSession = try await check(.post, session, session, json: #"{"email": "\#(analyst)", "password": "\#(password)"}"#, expect: 200)
            try await check(.get, "/v1/console/audit", "/v1/console/audit", headers: try #require(ConsoleSessionCookie(analystSession)).cookieHeader,
                            expect: 403)
            try await check(.delete, session, session, headers: cookie.cookieHeader, expect: 403)
            try await check(.delete, session, session, headers: cookie.stateChangingHeaders, expect: 204)
            try await check(.delete, session, session, headers: cookie.stateChangingHeaders, expect: 401)
            for _ in 1...5 { try await check(.post, session, session, json: #"{"email": "\#(owner)", "password": "wrong password!"}"#, expect: 401) }
            try await check(.post, session, session, json: #"{"email": "\#(owner)", "password": "\#(password)"}"#, expect: 429)
            #expect(problems == [])
        }
    }
}
