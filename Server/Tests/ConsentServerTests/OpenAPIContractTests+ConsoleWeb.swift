@testable import ConsentServer
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

extension OpenAPIContractTests {
    @Test("every answer of the console's pages and analytics routes is documented")
    func consoleWebAnswersAreDocumented() async throws {
        let console = try await ConsoleFixture(.sqlite)
        let analyst = try await console.createOperator(.analyst)
        let editor = try await console.createOperator(.editor)
        try await console.server.test { client async throws in
            var problems: [String] = []
            @discardableResult func check(_ method: HTTPRequest.Method, _ uri: String, _ template: String,
                                          headers: HTTPFields = [:], expect status: Int) async throws -> TestResponse {
                let response = try await client.send(method, uri, headers: headers)
                if response.status.code != status { problems.append("\(method) \(uri): expected \(status), got \(response.status.code)") }
                problems += OpenAPIContract.shared.problems(
                    method: method.rawValue, template: template, status: response.status.code,
                    contentType: response.headers[.contentType], body: Data(response.body.readableBytesView))
                return response
            }
            let page = try await check(.get, "/console/", "/console", expect: 200)
            try await check(.get, "/console/", "/console", headers: [.ifNoneMatch: try #require(page.headers[.eTag])], expect: 304)
            try await check(.get, "/console", "/console", expect: 301)
            try await check(.get, "/console/console.js", "/console/{file}", expect: 200)
            try await check(.get, "/console/console.css", "/console/{file}", expect: 200)
            try await check(.get, "/console/none.js", "/console/{file}", expect: 404)
            let session = try #require(ConsoleSessionCookie(try await client.signIn(analyst, ConsoleAuthTests.password))).cookieHeader
            let refused = try #require(ConsoleSessionCookie(try await client.signIn(editor, ConsoleAuthTests.password))).cookieHeader
            let report = "/v1/console/analytics/{report}"
            try await check(.get, "/v1/console/analytics/apps", "/v1/console/analytics/apps", headers: session, expect: 200)
            try await check(.get, "/v1/console/analytics/apps", "/v1/console/analytics/apps", expect: 401)
            try await check(.get, "/v1/console/analytics/apps", "/v1/console/analytics/apps", headers: refused, expect: 403)
            try await check(.get, "/v1/console/analytics/choices?app=a", report, headers: session, expect: 200)
            try await check(.get, "/v1/console/analytics/vendors?app=a&granularity=total", report, headers: session, expect: 200)
            try await check(.get, "/v1/console/analytics/us?app=a&format=csv", report, headers: session, expect: 200)
            try await check(.get, "/v1/console/analytics/choices", report, headers: session, expect: 400)
            try await check(.get, "/v1/console/analytics/none?app=a", report, headers: session, expect: 404)
            try await check(.get, "/v1/console/analytics/choices?app=a", report, expect: 401)
            try await check(.get, "/v1/console/analytics/choices?app=a", report, headers: refused, expect: 403)
            #expect(problems == [])
        }
    }
}
