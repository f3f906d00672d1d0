@testable import ConsentServer
import CompressNIO
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import Synchronization
import TCF
import Testing

/// consentd holding GVL v2 #224, the last v2 list: every vendor-list route, the config, the
/// refresher and its schedule answer in seconds (issue 14, "the hang").
///
/// The 100 % CPU hang seen when the refresh test let v2 #224 replace v3 #45 was not in consentd:
/// it was that test's `#expect(catalog.document.body == newer)` failing, and Swift Testing
/// diffing the two ~900 KB bodies byte by byte to describe the failure (see `Bytes`). These tests
/// compare bodies with `Bytes` and run under `withDeadline`, so a wrong answer, or a loop anywhere,
/// fails them instead of hanging them.
@Suite("consentd holding GVL v2")
struct VendorListV2Tests {
    @Test("every vendor-list route and the config answer from GVL v2 #224", .timeLimit(.minutes(2)))
    func routesServeV2() async throws {
        let v2 = try gvlFixture(gvlV2Name)
        let german = try gvlFixture("gvl-v2_purposes-de.json")
        let server = try await TestServer.make(catalog: try VendorListCatalog(vendorList: v2, translations: ["de": german]))
        try await withDeadline(.seconds(90), "the vendor-list routes over GVL v2 #224") {
            try await server.test { client async throws in
                let plain = try await client.send(.get, "/v1/vendor-list.json")
                #expect(plain.status == .ok)
                #expect(Bytes(Data(plain.body.readableBytesView)) == Bytes(v2))
                let list = try VendorList(jsonData: Data(plain.body.readableBytesView))
                #expect(list.gvlSpecificationVersion == 2)
                #expect(list.vendorListVersion == 224)
                let etag = try #require(plain.headers[.eTag])
                #expect(try await client.send(.get, "/v1/vendor-list.json", headers: [.ifNoneMatch: etag]).status == .notModified)
                let zipped = try await client.send(.get, "/v1/vendor-list.json", headers: [.acceptEncoding: "gzip"])
                #expect(zipped.headers[.contentEncoding] == "gzip")
                var compressed = zipped.body
                #expect(Bytes(Data(try compressed.decompress(with: .gzip()).readableBytesView)) == Bytes(v2))

                let translation = try await client.send(.get, "/v1/vendor-list/translations/de")
                #expect(translation.status == .ok)
                #expect(Bytes(Data(translation.body.readableBytesView)) == Bytes(german))

                let trimmed = try await client.send(.get, "/v1/vendor-list/trimmed?publisherIds=pub-news", bearer: server.publishable)
                #expect(trimmed.status == .ok)
                let cut = try VendorList(jsonData: Data(trimmed.body.readableBytesView))
                #expect(cut.gvlSpecificationVersion == 2)
                #expect(cut.vendorListVersion == 224)
                #expect(cut.vendors.keys.sorted() == [1, 21, 755])
                #expect(cut.purposes.count == list.purposes.count)
                #expect(cut.stacks.count == list.stacks.count)
                let germanCut = try await client.send(.get, "/v1/vendor-list/trimmed?publisherIds=pub-news&language=de",
                                                      bearer: server.publishable)
                #expect(germanCut.status == .ok)
                let translated = try VendorList(jsonData: Data(germanCut.body.readableBytesView))
                #expect(translated.purposes[1]?.name == (try VendorListTranslation(jsonData: german)).purposes[1]?.name)
                #expect(translated.purposes[1]?.name != list.purposes[1]?.name)
                // In German throughout: the stacks the 2020 translation predates (38-42) are left out.
                #expect(translated.language == "DE")
                #expect(germanCut.object["languageFallback"] == nil)
                #expect(Set(translated.stacks.keys) == Set(1...37))
                let revalidated = try await client.send(.get, "/v1/vendor-list/trimmed?publisherIds=pub-news&language=de",
                                                        bearer: server.publishable,
                                                        headers: [.ifNoneMatch: try #require(germanCut.headers[.eTag])])
                #expect(revalidated.status == .notModified)

                let config = try await client.send(.get, "/v1/config?publisherIds=pub-news", bearer: server.publishable)
                #expect(config.status == .ok)
                #expect(config.object["vendorListVersion"] as? Int == 224)
                #expect(config.object["gvlSpecificationVersion"] as? Int == 2)
                #expect(config.object["tcfPolicyVersion"] as? Int == 2)
            }
        }
    }

    @Test("holding GVL v2 #224, the refresher keeps v2 lists, takes v3 #45, and fetches once per interval",
          .timeLimit(.minutes(2)))
    func refreshFromV2() async throws {
        let v2 = try gvlFixture(gvlV2Name)
        let v3 = try gvlFixture(gvlV3Name)
        let v2Older = try VendorListRefreshTests.listWithVersion(223, from: v2)
        let upstream = VendorListRefreshTests.Upstream()
        let fetches = FetchCount()
        let router = Router()
        router.get("/vendor-list.json") { _, _ -> Response in
            fetches.value.add(1, ordering: .relaxed)
            let (status, body) = upstream.answer.withLock { $0 }
            return Response(status: status, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(data: body)))
        }
        let logger = {
            var logger = Logger(label: "test")
            logger.logLevel = .critical
            return logger
        }()
        try await Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0))).test(.live) { client in
            let url = "http://127.0.0.1:\(try #require(client.port))/vendor-list.json"
            try await withDeadline(.seconds(90), "refreshing from GVL v2 #224") {
                let catalog = try VendorListCatalog(vendorList: v2)
                let refresher = VendorListRefresher(url: url, interval: .seconds(3600), catalog: catalog, logger: logger)
                func serve(_ body: Data) async -> VendorListRefresher.Outcome {
                    upstream.answer.withLock { $0 = (.ok, body) }
                    return await refresher.refresh()
                }
                #expect(await serve(v2) == .unchanged)
                guard case .kept = await serve(v2Older) else {
                    Issue.record("GVL v2 #223 replaced v2 #224")
                    return
                }
                #expect(Bytes(catalog.document.body) == Bytes(v2))
                #expect(await serve(v3) == .updated(version: 45))
                #expect(catalog.vendorList.gvlSpecificationVersion == 3)
                #expect(Bytes(catalog.document.body) == Bytes(v3))
                guard case .kept = await serve(v2) else {
                    Issue.record("GVL v2 #224, offered over v3 #45, was not refused")
                    return
                }
                #expect(Bytes(catalog.document.body) == Bytes(v3))
            }

            // The schedule: one fetch at start, then one per interval, whatever list is held.
            try await withDeadline(.seconds(90), "the refresh schedule over GVL v2 #224") {
                upstream.answer.withLock { $0 = (.ok, v2) }
                let interval = Duration.milliseconds(200)
                let refresher = VendorListRefresher(url: url, interval: interval, catalog: try VendorListCatalog(vendorList: v2),
                                                    logger: logger)
                fetches.value.store(0, ordering: .relaxed)
                let clock = ContinuousClock()
                let start = clock.now
                let running = Task { try await refresher.run() }
                while fetches.value.load(ordering: .relaxed) < 3 {
                    try await Task.sleep(for: .milliseconds(20))
                }
                try await Task.sleep(for: .seconds(1))
                running.cancel()
                try await running.value
                let elapsed = clock.now - start
                let count = fetches.value.load(ordering: .relaxed)
                // Each fetch is followed by a full interval, so at most elapsed / interval + 1 of them.
                #expect(count <= Int(elapsed / interval) + 1, "\(count) fetches in \(elapsed) at one per \(interval)")
            }
        }
    }

    @Test("a mismatch between two vendor lists is reported at once, not diffed for hours", .timeLimit(.minutes(1)))
    func mismatchReportedAtOnce() async throws {
        let v2 = try gvlFixture(gvlV2Name)
        let v3 = try gvlFixture(gvlV3Name)
        try await withDeadline(.seconds(30), "comparing GVL v2 #224 with v3 #45") {
            withKnownIssue("GVL v2 #224 is not v3 #45") {
                #expect(Bytes(v2) == Bytes(v3))
            } matching: { issue in
                // The failure names both sizes, and stays short.
                let text = String(describing: issue)
                return text.contains("\(v2.count) bytes") && text.contains("\(v3.count) bytes") && text.count < 2_000
            }
        }
    }
}

/// How many times the upstream was asked.
final class FetchCount: Sendable {
    let value = Atomic<Int>(0)
}
