@testable import ConsentServer
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

extension OpenAPIContractTests {
    @Test("every answer of the console's data-subject routes is documented")
    func consoleSubjectAnswersAreDocumented() async throws {
        let fixture = try await SubjectsFixture(.sqlite)
        let owner = try await fixture.console.createOperator(.owner)
        let editor = try await fixture.console.createOperator(.editor)
        let app = fixture.appId
        try await fixture.console.server.live { client async throws in
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
            try await fixture.seed(client, subject: "user-1", events: 2)
            let session = try #require(ConsoleSessionCookie(try await client.signIn(owner, ConsoleAuthTests.password)))
            let editorSession = try #require(ConsoleSessionCookie(try await client.signIn(editor, ConsoleAuthTests.password)))
            let read = session.cookieHeader, write = session.stateChangingHeaders
            let subjects = "/v1/console/subjects", events = "/v1/console/subjects/events", export = "/v1/console/subjects/export"
            let restart = "/v1/console/subjects/restart", verify = "/v1/console/chain/verify"
            let hash = testSecret.subjectHash(appId: app, subjectId: "user-1")
            try await check(.get, "\(subjects)?appId=\(app)&subjectId=user-1", subjects, headers: read, expect: 200)
            try await check(.get, "\(subjects)?appId=\(app)&subjectHash=\(hash)", subjects, headers: read, expect: 200)
            try await check(.get, "\(subjects)?appId=\(app)&subjectId=nobody", subjects, headers: read, expect: 404)
            try await check(.get, "\(subjects)?appId=nope&subjectId=user-1", subjects, headers: read, expect: 404)
            try await check(.get, "\(subjects)?appId=\(app)", subjects, headers: read, expect: 400)
            try await check(.get, "\(subjects)?appId=\(app)&subjectId=user-1", subjects, expect: 401)
            try await check(.get, "\(subjects)?appId=\(app)&subjectId=user-1", subjects, headers: editorSession.cookieHeader, expect: 403)
            try await check(.get, "\(events)?appId=\(app)&subjectId=user-1&limit=1", events, headers: read, expect: 200)
            try await check(.get, "\(events)?appId=\(app)&subjectId=user-1&limit=0", events, headers: read, expect: 400)
            try await check(.get, "\(export)?appId=\(app)&subjectId=user-1", export, headers: read, expect: 200)
            try await check(.post, "\(verify)?appId=\(app)", verify, headers: write, expect: 200)
            try await check(.post, "\(verify)?appId=\(app)", verify, headers: read, expect: 403)
            try await check(.post, "\(verify)?appId=nope", verify, headers: write, expect: 404)
            try await check(.post, verify, verify, headers: write, expect: 400)
            try await check(.post, "\(restart)?appId=\(app)&subjectId=user-1", restart, headers: write, expect: 409)
            try await check(.delete, "\(subjects)?appId=\(app)&subjectId=user-1", subjects, headers: read, expect: 403)
            try await check(.delete, "\(subjects)?appId=\(app)&subjectId=user-1", subjects, headers: write, expect: 200)
            try await check(.delete, "\(subjects)?appId=\(app)&subjectId=user-1", subjects, headers: write, expect: 409)
            try await check(.get, "\(subjects)?appId=\(app)&subjectId=user-1", subjects, headers: read, expect: 200)
            try await check(.get, "\(export)?appId=\(app)&subjectId=user-1", export, headers: read, expect: 404)
            try await check(.post, "\(restart)?appId=\(app)&subjectId=user-1", restart, headers: write, expect: 200)
            try await check(.post, "\(restart)?appId=\(app)&subjectId=nobody", restart, headers: write, expect: 404)
            try await check(.get, "/v1/console/audit?limit=20", "/v1/console/audit", headers: read, expect: 200)
            #expect(problems == [])
        }
    }
}
