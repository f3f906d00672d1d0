@testable import ConsentServer
import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import Synchronization
import TCF
import Testing

/// Seed 000-20 ("update vendors.json from the IAB GVL as often as possible; not only a bundled
/// copy"): consentd refreshes the IAB's published list and its translations by default, on the
/// schedule the TCF sets, and keeps the bundled copy while the upstream cannot be reached.
@Suite("000-20: a vendor list that stays current")
struct VendorListUpdatesTests {
    /// A local stand-in for vendor-list.consensu.org: files by name, each with a status,
    /// a body and an optional `Cache-Control`.
    final class Upstream: Sendable {
        let files = Mutex<[String: (HTTPResponse.Status, Data, String?)]>([:])
        let fetched = Mutex<[String]>([])

        func serve(_ name: String, _ body: Data, status: HTTPResponse.Status = .ok, cacheControl: String? = nil) {
            files.withLock { $0[name] = (status, body, cacheControl) }
        }

        var router: Router<BasicRequestContext> {
            let router = Router()
            router.get("/v3/{file}") { request, context -> Response in
                let name = try context.parameters.require("file")
                self.fetched.withLock { $0.append(name) }
                guard let (status, body, cacheControl) = self.files.withLock({ $0[name] }) else { return Response(status: .notFound) }
                var headers: HTTPFields = [.contentType: "application/json"]
                if let cacheControl { headers[.cacheControl] = cacheControl }
                return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(data: body)))
            }
            return router
        }
    }

    static var quietLogger: Logger {
        var logger = Logger(label: "test")
        logger.logLevel = .critical
        return logger
    }

    @Test("000-20: by default consentd refreshes from the IAB's v3 list, and its translations from the same folder")
    func defaultIsTheIABList() async throws {
        #expect(ServerSettings().vendorListURL == "https://vendor-list.consensu.org/v3/vendor-list.json")
        #expect(ServerSettings().vendorListUpdates)
        // Not started: the test must not reach the internet.
        let server = try await TestServer.make { $0.vendorListUpdates = ServerSettings().vendorListUpdates }
        let refresher = try #require(server.consentd.vendorListRefresher)
        #expect(refresher.url == "https://vendor-list.consensu.org/v3/vendor-list.json")
        #expect(refresher.translationURL("de") == "https://vendor-list.consensu.org/v3/purposes-de.json")
        #expect(refresher.interval == .seconds(6 * 3600))
        await server.consentd.close()
    }

    @Test("000-20: with vendor-list updates off (a host without network) no refresher runs and the bundled list is served")
    func optOut() async throws {
        let server = try await TestServer.make { $0.vendorListUpdates = false }
        #expect(server.consentd.vendorListRefresher == nil)
        #expect(server.consentd.catalog.vendorList.vendorListVersion == 45)
        await server.consentd.close()
    }

    @Test("000-20: the refresher starts with consentd without any vendor-list option, and a newer upstream list is served",
          .timeLimit(.minutes(2)))
    func refresherStartsWithoutTheFlag() async throws {
        let upstream = Upstream()
        let bundled = try VendorListCatalog.bundled().document.body
        upstream.serve("vendor-list.json", try VendorListRefreshTests.listWithVersion(46, from: bundled))
        try await Application(router: upstream.router, configuration: .init(address: .hostname("127.0.0.1", port: 0))).test(.live) { client in
            let port = try #require(client.port)
            // Only the address differs from the defaults (the IAB's is not reachable from a test).
            let server = try await TestServer.make {
                $0.vendorListUpdates = ServerSettings().vendorListUpdates
                $0.vendorListURL = "http://127.0.0.1:\(port)/v3/vendor-list.json"
            }
            try await server.live { consentd in
                try await withDeadline(.seconds(60), "the first refresh at start") {
                    while server.consentd.catalog.vendorList.vendorListVersion != 46 {
                        try await Task.sleep(for: .milliseconds(50))
                    }
                }
                try await consentd.execute(uri: "/v1/vendor-list.json", method: .get) { response in
                    #expect(response.status == .ok)
                    let list = try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any]
                    #expect(list?["vendorListVersion"] as? Int == 46)
                }
            }
        }
    }

    @Test("000-20: the next fetch comes when the upstream's max-age has passed, the interval without one, soon after a failure")
    func scheduleFollowsMaxAge() throws {
        let refresher = VendorListRefresher(url: "http://127.0.0.1:1/v3/vendor-list.json", interval: .seconds(6 * 3600),
                                            catalog: try VendorListCatalog.bundled(), logger: Self.quietLogger)
        #expect(VendorListRefresher.maxAge(["public, max-age=604800"]) == .seconds(604_800))
        #expect(VendorListRefresher.maxAge(["no-cache"]) == nil)
        #expect(refresher.nextFetch(after: .unchanged, maxAge: .seconds(604_800)) == .seconds(604_800))
        #expect(refresher.nextFetch(after: .updated(version: 46), maxAge: .seconds(0)) == .seconds(60))
        #expect(refresher.nextFetch(after: .unchanged, maxAge: nil) == .seconds(6 * 3600))
        #expect(refresher.nextFetch(after: .kept(reason: "offline"), maxAge: nil) == .seconds(300))
    }

    @Test("000-20: offline, the bundled list stays served; once the upstream answers, its list replaces it",
          .timeLimit(.minutes(2)))
    func offlineKeepsBundledThenUpdates() async throws {
        let catalog = try VendorListCatalog.bundled()
        let offline = VendorListRefresher(url: "http://127.0.0.1:1/v3/vendor-list.json", interval: .seconds(3600), catalog: catalog,
                                          logger: Self.quietLogger, timeout: .seconds(2))
        guard case .kept = await offline.refresh() else {
            Issue.record("an unreachable upstream changed the list")
            return
        }
        #expect(catalog.vendorList.vendorListVersion == 45)
        let upstream = Upstream()
        upstream.serve("vendor-list.json", try VendorListRefreshTests.listWithVersion(47, from: catalog.document.body))
        try await Application(router: upstream.router, configuration: .init(address: .hostname("127.0.0.1", port: 0))).test(.live) { client in
            let online = VendorListRefresher(url: "http://127.0.0.1:\(try #require(client.port))/v3/vendor-list.json",
                                             interval: .seconds(3600), catalog: catalog, logger: Self.quietLogger)
            #expect(await online.refresh() == .updated(version: 47))
        }
    }

    @Test("000-20: the official translation of a language asked for is fetched with the list and served only with a list it covers",
          .timeLimit(.minutes(2)))
    func translationFetchedWithTheList() async throws {
        let catalog = try VendorListCatalog.bundled()
        let bundled = catalog.document.body
        let server = try await TestServer.make(catalog: catalog)
        let upstream = Upstream()
        upstream.serve("vendor-list.json", bundled)
        upstream.serve("purposes-sv.json", try Self.translation(of: bundled, prefix: "SV "))
        try await Application(router: upstream.router, configuration: .init(address: .hostname("127.0.0.1", port: 0))).test(.live) { client in
            let refresher = VendorListRefresher(url: "http://127.0.0.1:\(try #require(client.port))/v3/vendor-list.json",
                                                interval: .seconds(3600), catalog: catalog, logger: Self.quietLogger)
            try await server.test { consentd in
                let path = "/v1/vendor-list/trimmed?publisherIds=pub-games&language=sv"
                // Asked before it is held: English, saying so; the language is now wanted.
                let first = try await consentd.send(.get, path, bearer: server.publishable)
                #expect(first.object["language"] as? String == "EN")
                #expect((first.object["languageFallback"] as? [String: Any])?["requested"] as? String == "SV")
                #expect(catalog.newlyRequestedLanguages == ["sv"])

                _ = await refresher.refresh()
                #expect(upstream.fetched.withLock { $0 }.contains("purposes-sv.json"))
                let translated = try await consentd.send(.get, path, bearer: server.publishable)
                #expect(translated.object["language"] as? String == "SV")
                #expect(translated.object["languageFallback"] == nil)
                #expect(try VendorList(jsonData: Data(translated.body.readableBytesView)).purposes[11]?.name.hasPrefix("SV ") == true)

                // A newer list with a purpose the translation lacks: English again, never half Swedish.
                upstream.serve("vendor-list.json", try Self.listWithExtraPurpose(from: bundled, version: 46))
                #expect(await refresher.refresh() == .updated(version: 46))
                let uncovered = try await consentd.send(.get, path, bearer: server.publishable)
                #expect(uncovered.object["language"] as? String == "EN")
                let reason = (uncovered.object["languageFallback"] as? [String: Any])?["reason"] as? String
                #expect(reason?.contains("purpose 12") == true, "\(String(describing: reason))")
            }
        }
    }

    @Test("000-20: a made-up language tag is not fetched, and the languages remembered are bounded")
    func madeUpLanguagesAreNotFetched() throws {
        let catalog = try VendorListCatalog.bundled()
        _ = try catalog.trimmed(vendorIds: [755], language: "x-klingon")
        _ = try catalog.trimmed(vendorIds: [755], language: "../../etc")
        #expect(catalog.newlyRequestedLanguages.isEmpty)
        for first in "abcdefghij" {
            for second in "abcdefghij" { _ = try catalog.trimmed(vendorIds: [755], language: "\(first)\(second)") }
        }
        #expect(catalog.newlyRequestedLanguages.count == VendorListCatalog.requestedLanguageLimit)
    }

    /// A translation file of `list`: every text of its purposes, special purposes, features,
    /// special features, stacks and data categories, with `prefix` before each name.
    static func translation(of list: Data, prefix: String) throws -> Data {
        let object = try #require(try JSONSerialization.jsonObject(with: list) as? [String: Any])
        var translation: [String: Any] = ["vendorListVersion": object["vendorListVersion"] ?? 0]
        for section in ["purposes", "specialPurposes", "features", "specialFeatures", "stacks", "dataCategories"] {
            let entries = try #require(object[section] as? [String: [String: Any]])
            translation[section] = entries.mapValues { entry in
                entry.merging(["name": prefix + (entry["name"] as? String ?? "")]) { $1 }
            }
        }
        return try JSONSerialization.data(withJSONObject: translation)
    }

    /// `list` as version `version`, with a purpose 12.
    static func listWithExtraPurpose(from list: Data, version: Int) throws -> Data {
        var object = try #require(try JSONSerialization.jsonObject(with: list) as? [String: Any])
        var purposes = try #require(object["purposes"] as? [String: Any])
        purposes["12"] = ["id": 12, "name": "A purpose of a later policy", "description": "", "illustrations": []] as [String: Any]
        object["purposes"] = purposes
        object["vendorListVersion"] = version
        return try JSONSerialization.data(withJSONObject: object)
    }

    @Test("000-20: a list of TCF policy version 5 with standardTexts replaces the bundled one and is served whole: config, full and trimmed lists",
          .timeLimit(.minutes(2)))
    func policyFiveIsServed() async throws {
        let policy5 = try gvlFixture("gvl-v3_vendor-list-v46-policy5_synthetic.json")
        let catalog = try VendorListCatalog.bundled()
        #expect(try catalog.replace(with: policy5))
        #expect(catalog.vendorList.tcfPolicyVersion == 5)
        #expect(catalog.vendorList.standardTexts["features"]?.hasPrefix("(Synthetic text") == true)
        let server = try await TestServer.make(catalog: catalog)
        try await server.test { client in
            let config = try await client.send(.get, "/v1/config?publisherIds=pub-news", bearer: server.publishable)
            #expect(config.object["tcfPolicyVersion"] as? Int == 5)
            #expect(config.object["vendorListVersion"] as? Int == 46)
            let full = try await client.send(.get, "/v1/vendor-list.json")
            #expect(Bytes(Data(full.body.readableBytesView)) == Bytes(policy5))
            let trimmed = try await client.send(.get, "/v1/vendor-list/trimmed?publisherIds=pub-news", bearer: server.publishable)
            #expect(trimmed.object["tcfPolicyVersion"] as? Int == 5)
            #expect((trimmed.object["standardTexts"] as? [String: String])?["features"]?.hasPrefix("(Synthetic text") == true)
            #expect(try VendorList(jsonData: Data(trimmed.body.readableBytesView)).standardTexts == catalog.vendorList.standardTexts)
        }
    }

    @Test("000-20: a translated policy-5 list has the translation's text for each standard text the list has, and none the list lacks (as the SDK translates)")
    func translatedStandardTexts() throws {
        let policy5 = try gvlFixture("gvl-v3_vendor-list-v46-policy5_synthetic.json")
        let catalog = try VendorListCatalog.bundled()
        #expect(try catalog.replace(with: policy5))
        var translation = try #require(try JSONSerialization.jsonObject(with: Self.translation(of: policy5, prefix: "SV ")) as? [String: Any])
        translation["standardTexts"] = ["features": "SV features", "somethingNew": "SV a text the list lacks"]
        try catalog.replaceTranslation("sv", with: JSONSerialization.data(withJSONObject: translation))
        let served = try VendorList(jsonData: catalog.trimmed(vendorIds: [755], language: "sv").body)
        let expected = catalog.vendorList.translated(by: try VendorListTranslation(jsonData: JSONSerialization.data(withJSONObject: translation)), language: "sv")
        #expect(served.language == "SV")
        #expect(served.standardTexts == ["features": "SV features"])
        #expect(served.standardTexts == expected.standardTexts)
    }
}
