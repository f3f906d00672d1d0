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
        // consentd's own router builder, with routes added afterwards as a later controller's would be.
        let server = try await TestServer.make()
        let router = server.consentd.router()
        router.get("/v1/a-read-added-later") { _, _ in "{}" }
        router.post("/v1/a-write-added-later") { _, _ in "{}" }
        router.get("/an-operations-page-added-later") { _, _ in "ok" }
        do {
            try await Application(router: router).test(.router) { client in
                let read = try await client.send(.get, "/v1/a-read-added-later", headers: Self.publisherPage)
                #expect(read.status == .ok && read.headers[.accessControlAllowOrigin] == "*")
                let head = try await client.send(.head, "/v1/a-read-added-later", headers: Self.publisherPage)
                #expect(head.headers[.accessControlAllowOrigin] == "*")
                let write = try await client.send(.post, "/v1/a-write-added-later", headers: Self.publisherPage)
                #expect(write.status == .ok && write.headers[.accessControlAllowOrigin] == nil, "a write outside /v1/web/ stays same-origin")
                let operations = try await client.send(.get, "/an-operations-page-added-later", headers: Self.publisherPage)
                #expect(operations.status == .ok && operations.headers[.accessControlAllowOrigin] == nil, "only the API's reads")
            }
        } catch {
            await server.consentd.close()
            throw error
        }
        await server.consentd.close()
    }

    @Test("a publisher page of another origin reads a website's vendor details")
    func vendorDetailsReadableByAnyOrigin() async throws {
        let server = try await TestServer.make()
        try await server.test { client async throws in
            let document = try await WebVendorDetailsTests.document(client, server)
            let path = try #require(document["vendorDetailsUrl"] as? String)
            let details = try await client.send(.get, path, headers: Self.publisherPage)
            #expect(details.status == .ok && details.headers[.accessControlAllowOrigin] == "*")
        }
    }

    @Test("a publisher page of another origin reads a vendor's storage disclosure through the proxy, and its refusals")
    func storageDisclosureReadableByAnyOrigin() async throws {
        let disclosure = #"{"disclosures":[{"identifier":"_id","type":"cookie","maxAgeSeconds":60,"cookieRefresh":false,"purposes":[1]}]}"#
        try await StorageDisclosureFetchTests.vendorServer(on: "127.0.0.1", hits: .init(), { StorageDisclosureFetchTests.json(disclosure) }) { port in
            let catalog = try StorageDisclosureFetchTests.catalog(disclosureURL: "http://127.0.0.1:\(port)/ds")
            try await StorageDisclosureFetchTests.consentd(catalog) { client in
                let served = try await client.send(.get, "/v1/vendor-list/storage/755", headers: Self.publisherPage)
                #expect(served.status == .ok && served.headers[values: .accessControlAllowOrigin] == ["*"], "one header, one mechanism")
                let refused = try await client.send(.get, "/v1/vendor-list/storage/0", headers: Self.publisherPage)
                #expect(refused.status == .badRequest && refused.headers[.accessControlAllowOrigin] == "*")
            }
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
