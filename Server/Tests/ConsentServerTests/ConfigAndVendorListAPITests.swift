@testable import ConsentServer
import CompressNIO
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import TCF
import Testing

/// `GET /v1/config`, the vendor-list routes, `/health` and `/metrics`.
@Suite("Config and vendor list API")
struct ConfigAndVendorListAPITests {
    @Test("the edge header decides the region", arguments: [
        ("DE", true, "eea"), ("no", true, "eea"), ("GB", true, "uk"), ("CH", true, "ch"), ("US", false, "us"), ("JP", false, "other"),
    ] as [(String, Bool, String)])
    func regionFromHeader(country: String, applies: Bool, region: String) async throws {
        let server = try await TestServer.make()
        try await server.test { client async throws in
            let response = try await client.send(.get, "/v1/config?publisherIds=pub-news", bearer: server.publishable,
                                                 headers: [HTTPField.Name("CF-IPCountry")!: country])
            #expect(response.status == .ok)
            #expect(response.object["gdprApplies"] as? Bool == applies)
            #expect(response.object["region"] as? String == region)
            #expect(response.object["country"] as? String == country.uppercased())
            #expect(response.object["geoSource"] as? String == "header")
        }
    }

    @Test("without a country the answer is unknown, and debug_geo overrides everything")
    func unknownAndDebugGeography() async throws {
        let server = try await TestServer.make()
        try await server.test { client async throws in
            let unknown = try await client.send(.get, "/v1/config?publisherIds=pub-news", bearer: server.publishable,
                                                headers: [HTTPField.Name("CF-IPCountry")!: "XX"])
            #expect(unknown.object["gdprApplies"] is NSNull)
            #expect(unknown.object["region"] as? String == "unknown")
            #expect(unknown.object["country"] is NSNull)
            let eea = try await client.send(.get, "/v1/config?publisherIds=pub-news&debug_geo=eea", bearer: server.publishable,
                                            headers: [HTTPField.Name("CF-IPCountry")!: "US"])
            #expect(eea.object["gdprApplies"] as? Bool == true)
            #expect(eea.object["geoSource"] as? String == "debug")
            let notEEA = try await client.send(.get, "/v1/config?publisherIds=pub-news&debug_geo=not_eea", bearer: server.publishable,
                                               headers: [HTTPField.Name("CF-IPCountry")!: "FR"])
            #expect(notEEA.object["gdprApplies"] as? Bool == false)
            let bad = try await client.send(.get, "/v1/config?publisherIds=pub-news&debug_geo=mars", bearer: server.publishable)
            #expect(bad.status == .badRequest)
            #expect(bad.errorField == "debug_geo")
        }
    }

    @Test("the config lists the publishers' providers and vendors, merged")
    func publishersAreMerged() async throws {
        let server = try await TestServer.make()
        try await server.test { client async throws in
            let response = try await client.send(.get, "/v1/config?publisherIds=pub-news,pub-games", bearer: server.publishable)
            #expect(response.object["appId"] as? String == "com.example.news")
            #expect(response.object["vendorIds"] as? [Int] == [1, 21, 32, 755])
            let providers = try #require(response.object["adTechProviders"] as? [[String: Any]])
            #expect(providers.map { $0["id"] as? Int } == [89, 1301])
            #expect(providers.first?["privacyPolicyUrl"] as? String == "https://ads.example.com/privacy")
            let publishers = try #require(response.object["publishers"] as? [[String: Any]])
            #expect(publishers.map { $0["nonPersonalizedOnly"] as? Bool } == [false, true])
            #expect(response.object["vendorListVersion"] as? Int == 45)
            #expect(response.object["tcfPolicyVersion"] as? Int == 4)
            #expect(response.object["gvlSpecificationVersion"] as? Int == 3)
        }
    }

    @Test("the config carries the development CMP identity until the operator sets one")
    func cmpIdentity() async throws {
        let development = try await TestServer.make()
        try await development.test { client async throws in
            let response = try await client.send(.get, "/v1/config?publisherIds=pub-news", bearer: development.publishable)
            let cmp = try #require(response.object["cmp"] as? [String: Any])
            #expect(cmp["id"] as? Int == 4095)
            #expect(cmp["version"] as? Int == 1)
            #expect(cmp["development"] as? Bool == true)
        }
        let registered = try await TestServer.make { try? $0.setCMP(id: "300", version: "7") }
        try await registered.test { client async throws in
            let response = try await client.send(.get, "/v1/config?publisherIds=pub-news", bearer: registered.publishable)
            let cmp = try #require(response.object["cmp"] as? [String: Any])
            #expect(cmp["id"] as? Int == 300)
            #expect(cmp["version"] as? Int == 7)
            #expect(cmp["development"] as? Bool == false)
        }
    }

    @Test("unknown publishers are named; a missing list or key is refused")
    func configRefusals() async throws {
        let server = try await TestServer.make()
        try await server.test { client async throws in
            let unknown = try await client.send(.get, "/v1/config?publisherIds=pub-news,pub-x,pub-y", bearer: server.publishable)
            #expect(unknown.status == .badRequest)
            #expect(unknown.errorCode == "unknown_publisher")
            let message = try #require((unknown.object["error"] as? [String: Any])?["message"] as? String)
            #expect(message.contains("pub-x, pub-y"))
            #expect(try await client.send(.get, "/v1/config", bearer: server.publishable).errorCode == "missing_field")
            #expect(try await client.send(.get, "/v1/config?publisherIds=a,,b", bearer: server.publishable).status == .badRequest)
            #expect(try await client.send(.get, "/v1/config?publisherIds=pub-news").status == .unauthorized)
        }
    }

    @Test("the vendor list is served with ETag, max-age, 304 and gzip")
    func vendorListValidators() async throws {
        let server = try await TestServer.make { $0.vendorListMaxAge = 600 }
        try await server.test { client async throws in
            let plain = try await client.send(.get, "/v1/vendor-list.json")
            #expect(plain.status == .ok)
            #expect(plain.headers[.cacheControl] == "public, max-age=600")
            let etag = try #require(plain.headers[.eTag])
            let list = try VendorList(jsonData: Data(plain.body.readableBytesView))
            #expect(list.vendorListVersion == 45)
            let cached = try await client.send(.get, "/v1/vendor-list.json", headers: [.ifNoneMatch: etag])
            #expect(cached.status == .notModified)
            #expect(cached.body.readableBytes == 0)
            let zipped = try await client.send(.get, "/v1/vendor-list.json", headers: [.acceptEncoding: "br, gzip"])
            #expect(zipped.headers[.contentEncoding] == "gzip")
            #expect(zipped.body.readableBytes < plain.body.readableBytes / 4)
            var compressed = zipped.body
            let unzipped = try compressed.decompress(with: .gzip())
            #expect(Bytes(Data(unzipped.readableBytesView)) == Bytes(Data(plain.body.readableBytesView)))
        }
    }

    @Test("000-20: a translation is served only with a list it covers; the bundled 2020 texts beside the v3 list are refused, naming what they lack")
    func translations() async throws {
        let server = try await TestServer.make()
        try server.consentd.catalog.replaceTranslation("sv", with: VendorListUpdatesTests.translation(of: server.consentd.catalog.document.body, prefix: "SV "))
        try await server.test { client async throws in
            let swedish = try await client.send(.get, "/v1/vendor-list/translations/sv")
            #expect(swedish.status == .ok)
            #expect(try VendorListTranslation(jsonData: Data(swedish.body.readableBytesView)).purposes[1]?.name.hasPrefix("SV ") == true)
            // The bundled German file is GVL v2's of 2020: no purpose 11, no data categories.
            let german = try await client.send(.get, "/v1/vendor-list/translations/de")
            #expect(german.status == .notFound)
            let message = try #require((german.object["error"] as? [String: Any])?["message"] as? String)
            #expect(message.contains("does not cover vendor list v3 #45") && message.contains("purpose 11"), "\(message)")
            #expect(try await client.send(.get, "/v1/vendor-list/translations/nb").status == .notFound)
            #expect(try await client.send(.get, "/v1/vendor-list/translations/deutsch").status == .badRequest)
        }
    }

    @Test("the trimmed list holds only the publishers' vendors, in English when no translation covers the list")
    func trimmedList() async throws {
        let server = try await TestServer.make()
        try await server.test { client async throws in
            // The bundled German texts are GVL v2's of 2020: no purpose 11, no data categories,
            // so the v3 list held is not served half German.
            let response = try await client.send(.get, "/v1/vendor-list/trimmed?publisherIds=pub-games&language=de", bearer: server.publishable)
            #expect(response.status == .ok)
            #expect(response.headers[.eTag] != nil)
            let trimmed = try VendorList(jsonData: Data(response.body.readableBytesView))
            #expect(Set(trimmed.vendors.keys) == [32, 755])
            let full = server.consentd.catalog.vendorList
            #expect(full.gvlSpecificationVersion == 3)
            #expect(trimmed.purposes.count == full.purposes.count)
            #expect(trimmed.stacks.count == full.stacks.count)
            #expect(trimmed.language == "EN")
            #expect(trimmed.purposes[1]?.name == full.purposes[1]?.name)
            #expect(trimmed.purposes[11]?.name == full.purposes[11]?.name)
            let fallback = try #require(response.object["languageFallback"] as? [String: Any])
            #expect(fallback["requested"] as? String == "DE")
            #expect((fallback["reason"] as? String)?.contains("purpose 11") == true)
            let english = try await client.send(.get, "/v1/vendor-list/trimmed?publisherIds=pub-games", bearer: server.publishable)
            #expect(try VendorList(jsonData: Data(english.body.readableBytesView)).purposes[1]?.name == full.purposes[1]?.name)
            #expect(english.object["language"] as? String == "EN")
            #expect(english.object["languageFallback"] == nil)
            let swedish = try await client.send(.get, "/v1/vendor-list/trimmed?publisherIds=pub-games&language=sv", bearer: server.publishable)
            #expect((swedish.object["languageFallback"] as? [String: Any])?["reason"] as? String
                    == "no SV translation is loaded (loaded: DE, ES, FR, IT, NL, PL, PT, RU)")
            let again = try await client.send(.get, "/v1/vendor-list/trimmed?publisherIds=pub-games&language=de", bearer: server.publishable,
                                              headers: [.ifNoneMatch: response.headers[.eTag]!])
            #expect(again.status == .notModified)
            #expect(try await client.send(.get, "/v1/vendor-list/trimmed?publisherIds=nope", bearer: server.publishable).errorCode == "unknown_publisher")
            let long = String(repeating: "pub-games,", count: 250)
            let tooLong = try await client.send(.get, "/v1/vendor-list/trimmed?publisherIds=\(long)pub-games", bearer: server.publishable)
            #expect(tooLong.status == .badRequest)
            #expect(tooLong.errorCode == "invalid_field")
            #expect(tooLong.errorField == "publisherIds")
            #expect(try await client.send(.get, "/v1/vendor-list/trimmed", bearer: server.publishable).errorCode == "missing_field")
            #expect(try await client.send(.get, "/v1/vendor-list/trimmed?publisherIds=pub-games").status == .unauthorized)
        }
    }

    @Test("health names the engine; metrics count requests")
    func healthAndMetrics() async throws {
        let server = try await TestServer.make()
        try await server.test { client async throws in
            let health = try await client.send(.get, "/health")
            #expect(health.object["status"] as? String == "ok")
            #expect(health.object["database"] as? String == "sqlite")
            let metrics = try await client.send(.get, "/metrics")
            #expect(metrics.headers[.contentType]?.hasPrefix("text/plain") == true)
            #expect(String(buffer: metrics.body).contains("hb_requests"))
        }
    }
}
