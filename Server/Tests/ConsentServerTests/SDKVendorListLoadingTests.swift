@testable import ConsentServer
import ConsentKit
import Foundation
import HummingbirdTesting
import Synchronization
import TCF
import Testing

/// End to end: the SDK's `VendorListLoader` over `URLSessionHTTPTransport` against consentd listening
/// on a loopback port.
@Suite("SDK vendor list loading against a live consentd")
struct SDKVendorListLoadingTests {
    @Test("the SDK downloads its trimmed list, revalidates it by ETag, and keeps it once consentd is gone")
    func downloadRevalidateAndOutliveServer() async throws {
        // max-age=0: every refresh asks consentd, so the second one must be a revalidation.
        let server = try await TestServer.make { $0.vendorListMaxAge = 0 }
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("vl-e2e-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: cache) }
        let client = RecordingTransport()
        let version = VendorListVersion(gvlSpecificationVersion: 3, vendorListVersion: 45)

        let source = try await server.consentd.application().test(.live) { live in
            let port = try #require(live.port)
            let source = try VendorListSource.consentd(
                baseURL: URL(string: "http://localhost:\(port)")!, publishableKey: server.publishable,
                publisherIds: ["pub-news"], cacheDirectory: cache)
            let loader = VendorListLoader(source: source, transport: client)

            #expect(await loader.refresh() == .updated(version))
            #expect(loader.cached()?.vendors.keys.sorted() == [1, 21, 755])
            #expect(await loader.refresh() == .notModified(version))

            let exchanges = client.exchanges
            #expect(exchanges.map(\.response.status) == [200, 304])
            // URLSession asks for gzip and hands over the decoded body, which is what decoded above.
            #expect(exchanges.first?.response.header("Content-Encoding") == "gzip")
            let etag = try #require(exchanges.first?.response.header("ETag"))
            #expect(exchanges.first?.request.headers["If-None-Match"] == nil)
            #expect(exchanges.last?.request.headers["If-None-Match"] == etag)
            return source
        }
        await server.consentd.close()

        // A later launch, with consentd stopped: the stored copy is used and stays as it was.
        let later = VendorListLoader(source: source, transport: client)
        let stored = try Data(contentsOf: later.cacheFile)
        #expect(later.loadLocal().origin == .stored(later.cacheFile))

        let result = await later.refresh()

        guard case .failed(.transport(let url, _)) = result else {
            Issue.record("expected a transport failure with consentd stopped, got \(result)")
            return
        }
        #expect(url == source.url)
        #expect(later.cached()?.vendors.keys.sorted() == [1, 21, 755])
        #expect(Bytes(try Data(contentsOf: later.cacheFile)) == Bytes(stored))
    }

    /// The trimmed list the SDK loads from a live consentd holding `catalog`, in `language`.
    private func loadTrimmed(from catalog: VendorListCatalog?, language: String) async throws -> (VendorList?, VendorListCatalog) {
        let server = try await TestServer.make(catalog: catalog)
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("vl-e2e-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: cache) }
        let held = server.consentd.catalog.vendorList
        let list = try await server.consentd.application().test(.live) { live in
            let source = try VendorListSource.consentd(
                baseURL: URL(string: "http://localhost:\(try #require(live.port))")!, publishableKey: server.publishable,
                publisherIds: ["pub-news"], language: language, cacheDirectory: cache)
            let loader = VendorListLoader(source: source, transport: URLSessionHTTPTransport())
            #expect(await loader.refresh() == .updated(VendorListVersion(of: held)))
            return loader.cached()
        }
        await server.consentd.close()
        return (list, server.consentd.catalog)
    }

    @Test("a trimmed list from consentd, translated by a translation covering it, decodes in that language")
    func translatedTrimmedListDecodes() async throws {
        let german = try gvlFixture("gvl-v2_purposes-de.json")
        let (list, catalog) = try await loadTrimmed(
            from: try VendorListCatalog(vendorList: try gvlFixture(gvlV2Name), translations: ["de": german]), language: "de")

        #expect(list?.vendors.keys.sorted() == [1, 21, 755])
        #expect(list?.language == "DE")
        #expect(list?.purposes[1]?.name == (try VendorListTranslation(jsonData: german)).purposes[1]?.name)
        #expect(list?.purposes[1]?.name != catalog.vendorList.purposes[1]?.name)
    }

    @Test("a trimmed list asked in a language no translation covers decodes in English, named EN")
    func uncoveredLanguageDecodesInEnglish() async throws {
        // The bundled German texts are GVL v2's; the bundled list is v3 #45.
        let (list, catalog) = try await loadTrimmed(from: nil, language: "de")

        #expect(list?.language == "EN")
        #expect(list?.purposes[1]?.name == catalog.vendorList.purposes[1]?.name)
        #expect(list?.purposes[11]?.name == catalog.vendorList.purposes[11]?.name)
    }
}

/// `URLSessionHTTPTransport`, recording each request with the response it got.
final class RecordingTransport: HTTPTransport {
    private let client = URLSessionHTTPTransport()
    private let recorded = Mutex<[(request: TransportRequest, response: TransportResponse)]>([])

    /// The requests that got a response, in order.
    var exchanges: [(request: TransportRequest, response: TransportResponse)] { recorded.withLock { $0 } }

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        let response = try await client.send(request)
        recorded.withLock { $0.append((request, response)) }
        return response
    }
}
