@testable import ConsentServer
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

/// Which answers pages of other origins may read (``WebCORSMiddleware``): a rule over routes.
@Suite("Cross-origin reads")
struct WebCORSTests {
    static let publisherPage: HTTPFields = [.origin: "http://127.0.0.1:8081"]

    @Test("a publisher page of another origin reads the vendor list, its translations and their errors")
    func vendorListReadableByAnyOrigin() async throws {
        let server = try await TestServer.make()
        try await server.test { client async throws in
            for path in ["/v1/vendor-list.json", "/v1/vendor-list/translations/zz"] {
                let response = try await client.send(.get, path, headers: Self.publisherPage)
                #expect(response.headers[.accessControlAllowOrigin] == "*", "\(path) answered \(response.status) without it")
            }
        }
    }

    @Test("a new read route of the API is readable by any origin by construction, without a header of its own")
    func newReadRouteGetsItByConstruction() async throws {
        let router = Router(context: ConsentdContext.self)
        router.add(middleware: WebCORSMiddleware())
        router.get("/v1/a-read-added-later") { _, _ in "{}" }
        router.post("/v1/a-write-added-later") { _, _ in "{}" }
        router.get("/an-operations-page") { _, _ in "ok" }
        try await Application(router: router).test(.router) { client in
            let read = try await client.send(.get, "/v1/a-read-added-later", headers: Self.publisherPage)
            #expect(read.status == .ok && read.headers[.accessControlAllowOrigin] == "*")
            let write = try await client.send(.post, "/v1/a-write-added-later", headers: Self.publisherPage)
            #expect(write.status == .ok && write.headers[.accessControlAllowOrigin] == nil, "a write outside /v1/web/ stays same-origin")
            let operations = try await client.send(.get, "/an-operations-page", headers: Self.publisherPage)
            #expect(operations.headers[.accessControlAllowOrigin] == nil, "only the API's reads")
        }
    }

    @Test("only the web CMP answers a preflight: a read that needs a key header stays closed to other origins")
    func preflightOnlyForTheWebCMP() async throws {
        let server = try await TestServer.make()
        try await server.test { client async throws in
            var headers = Self.publisherPage
            headers[.accessControlRequestMethod] = "GET"
            headers[.accessControlRequestHeaders] = "authorization"
            let trimmed = try await client.send(.options, "/v1/vendor-list/trimmed?publisherIds=pub-news", headers: headers)
            #expect(trimmed.headers[.accessControlAllowHeaders] == nil && trimmed.headers[.accessControlAllowOrigin] == nil)
            headers[.accessControlRequestMethod] = "POST"
            headers[.accessControlRequestHeaders] = "content-type"
            let web = try await client.send(.options, "/v1/web/session", headers: headers)
            #expect(web.status == .noContent && web.headers[.accessControlAllowOrigin] == "*")
        }
    }
}
