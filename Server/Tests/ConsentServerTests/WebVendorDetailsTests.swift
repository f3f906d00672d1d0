@testable import ConsentServer
import ConsentKit
import ConsentKitUI
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

/// A website's notice loads its vendors' details when its vendor list opens: the session's
/// document keeps what the first layer and the switches need, `GET /v1/web/vendor-details` the rest.
@Suite("The web notice's vendor details")
struct WebVendorDetailsTests {
    /// What a vendor keeps in a website's document.
    static let slimKeys: Set<String> = ["id", "name", "purposes", "legIntPurposes", "legitimateInterest", "flexiblePurposes", "specialPurposes",
                                        "features", "specialFeatures"]

    /// The demo site's document, as a page view gets it.
    static func document(_ client: some TestClientProtocol, _ server: TestServer, language: String = "en") async throws -> [String: Any] {
        let key = try await server.consentd.demoSite.key(server.consentd.keys)
        let answer = try await client.send(.post, "/v1/web/session", json: #"{"credential":"\#(key)","debugRegion":"eea","language":"\#(language)"}"#,
                                           headers: [.contentType: "text/plain;charset=UTF-8"])
        #expect(answer.status == .ok)
        return try #require(answer.object["document"] as? [String: Any])
    }

    static func details(_ client: some TestClientProtocol, _ path: String, headers: HTTPFields = [:]) async throws -> TestResponse {
        let response = try await client.send(.get, path, headers: headers)
        // A gzipped body is read by the test itself.
        guard response.headers[.contentEncoding] == nil else { return response }
        let problems = OpenAPIContract.shared.problems(
            method: "GET", template: "/v1/web/vendor-details", status: response.status.code, contentType: response.headers[.contentType],
            body: Data(response.body.readableBytesView))
        #expect(problems.isEmpty, "\(problems)")
        return response
    }

    @Test("a page view's document keeps in each vendor only what the first layer and the switches need, and names where the rest is")
    func sessionDocumentIsSlim() async throws {
        let server = try await TestServer.make()
        try await server.test { client async throws in
            let document = try await Self.document(client, server)
            let vendors = try #require(document["vendors"] as? [[String: Any]])
            #expect(vendors.count == 20)
            for vendor in vendors { #expect(Set(vendor.keys) == Self.slimKeys, "\(vendor)") }
            let url = try #require(document["vendorDetailsUrl"] as? String)
            #expect(url.hasPrefix("/v1/web/vendor-details?site=demo&language=en&gvl="))
        }
    }

    @Test("the details and the document's vendors make together the app's document's vendors, field for field")
    func detailsCompleteTheDocument() async throws {
        let server = try await TestServer.make()
        try await server.test { client async throws in
            let document = try await Self.document(client, server, language: "de")
            let answer = try await Self.details(client, try #require(document["vendorDetailsUrl"] as? String))
            #expect(answer.status == .ok && answer.headers[.eTag] != nil && answer.headers[.cacheControl] == "public, max-age=300")
            #expect(answer.headers[.accessControlAllowOrigin] == "*")
            let details = try #require(answer.object["vendors"] as? [[String: Any]])
            let byId = Dictionary(uniqueKeysWithValues: details.map { ($0["id"] as? Int ?? 0, $0) })
            var merged: [NSDictionary] = []
            for vendor in try #require(document["vendors"] as? [[String: Any]]) {
                let id = try #require(vendor["id"] as? Int)
                merged.append(NSDictionary(dictionary: vendor.merging(try #require(byId[id]), uniquingKeysWith: { slim, _ in slim })))
            }
            let web = server.consentd.web
            let site = try web.site(appId: "demo")
            let full = try web.exchange(site, language: "de", current: nil, reopen: false, reason: .noDecision).document.json()
            let inApp = try #require(try JSONSerialization.jsonObject(with: full) as? [String: Any])
            #expect(merged == (inApp["vendors"] as? [NSDictionary]))
            #expect(inApp["vendorDetailsUrl"] == nil, "an app's document has every detail inline")
        }
    }

    @Test("the details are cached by ETag: If-None-Match gets 304, and a client that takes gzip gets them gzipped")
    func detailsAreCacheable() async throws {
        let server = try await TestServer.make()
        try await server.test { client async throws in
            let url = try #require(try await Self.document(client, server)["vendorDetailsUrl"] as? String)
            let first = try await Self.details(client, url, headers: [.acceptEncoding: "gzip"])
            #expect(first.status == .ok && first.headers[.contentEncoding] == "gzip")
            let tag = try #require(first.headers[.eTag])
            let again = try await Self.details(client, url, headers: [.ifNoneMatch: tag])
            #expect(again.status == .notModified && again.body.readableBytes == 0)
        }
    }

    @Test("an unknown website is 404 website_unknown, a malformed site or language 400")
    func refusals() async throws {
        let server = try await TestServer.make()
        try await server.test { client async throws in
            let unknown = try await Self.details(client, "/v1/web/vendor-details?site=com.example.none&language=en")
            #expect(unknown.status == .notFound && unknown.errorCode == "website_unknown")
            for path in ["/v1/web/vendor-details", "/v1/web/vendor-details?site=a%20b", "/v1/web/vendor-details?site=demo&language=english"] {
                let refused = try await Self.details(client, path)
                #expect(refused.status == .badRequest, "\(path)")
            }
        }
    }
}
