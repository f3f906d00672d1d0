@testable import ConsentServer
import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import Synchronization
import Testing

/// The catalog keeps the last good list whatever a real upstream server sends.
@Suite("Vendor list refresh")
struct VendorListRefreshTests {
    /// What the upstream answers next: a status and a body.
    final class Upstream: Sendable {
        let answer = Mutex<(HTTPResponse.Status, Data)>((.ok, Data()))
    }

    @Test("garbage, errors and older lists (GVL v2 #224 included) are refused; a newer list replaces the held one",
          .timeLimit(.minutes(2)))
    func refreshKeepsLastGoodCopy() async throws {
        let catalog = try VendorListCatalog.bundled()
        let bundled = catalog.document
        let newer = try Self.listWithVersion(46, from: bundled.body)
        let older = try Self.listWithVersion(44, from: bundled.body)
        // GVL v2 #224 has a higher number than the bundled v3 #45 but an older format.
        let olderFormat = try gvlFixture(gvlV2Name)

        let upstream = Upstream()
        let router = Router()
        router.get("/vendor-list.json") { _, _ -> Response in
            let (status, body) = upstream.answer.withLock { $0 }
            return Response(status: status, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(data: body)))
        }
        try await Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0))).test(.live) { client in
            // Bodies are compared as `Bytes`: a failed `==` on two `Data` of ~900 KB is diffed for hours
            // (issue 14, "the hang"), and `withDeadline` ends the test where `.timeLimit` cannot.
            try await withDeadline(.seconds(90), "the refresh test") {
                let port = try #require(client.port)
                var logger = Logger(label: "test")
                logger.logLevel = .critical
                let refresher = VendorListRefresher(url: "http://127.0.0.1:\(port)/vendor-list.json", interval: .seconds(3600),
                                                    catalog: catalog, logger: logger)
                func serve(_ status: HTTPResponse.Status, _ body: Data) async -> VendorListRefresher.Outcome {
                    upstream.answer.withLock { $0 = (status, body) }
                    return await refresher.refresh()
                }

                #expect(await serve(.ok, bundled.body) == .unchanged)
                for (status, body) in [(HTTPResponse.Status.ok, Data("<html>maintenance</html>".utf8)), (.internalServerError, Data()),
                                       (.ok, Data(#"{"vendorListVersion": 99}"#.utf8)), (.ok, older), (.ok, olderFormat)] {
                    guard case .kept = await serve(status, body) else {
                        Issue.record("a bad answer (\(status)) replaced the list")
                        continue
                    }
                    #expect(catalog.document == bundled)
                }
                #expect(await serve(.ok, newer) == .updated(version: 46))
                #expect(catalog.vendorList.vendorListVersion == 46)
                #expect(Bytes(catalog.document.body) == Bytes(newer))
            }
        }
        let unreachable = VendorListRefresher(url: "http://127.0.0.1:1/none.json", interval: .seconds(60), catalog: catalog,
                                              logger: Logger(label: "test"), timeout: .seconds(2))
        guard case .kept = await unreachable.refresh() else {
            Issue.record("an unreachable upstream changed the list")
            return
        }
        #expect(catalog.vendorList.vendorListVersion == 46)
    }

    /// The bundled list with another `vendorListVersion`.
    static func listWithVersion(_ version: Int, from data: Data) throws -> Data {
        var object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        object["vendorListVersion"] = version
        return try JSONSerialization.data(withJSONObject: object)
    }
}
