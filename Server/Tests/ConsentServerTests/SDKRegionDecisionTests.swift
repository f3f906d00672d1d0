@testable import ConsentServer
import ConsentKit
import Foundation
import HummingbirdTesting
import TCF
import Testing

/// End to end: the SDK's `ConsentManager` over `URLSessionHTTPTransport` asks consentd, listening on
/// a loopback port, whether GDPR applies and which vendors the publisher uses, then records a
/// decision for exactly those vendors.
@Suite("SDK region decision against a live consentd")
struct SDKRegionDecisionTests {
    /// `URLSessionHTTPTransport` behind an edge that sets the caller's country, as Cloudflare's
    /// `CF-IPCountry` does.
    struct EdgeClient: HTTPTransport {
        let country: String?
        let client = URLSessionHTTPTransport()

        func send(_ request: TransportRequest) async throws -> TransportResponse {
            var request = request
            if let country { request.headers["CF-IPCountry"] = country }
            return try await client.send(request)
        }
    }

    func manager(port: Int, publishable: String, country: String?, debug: RegionDebugSettings = RegionDebugSettings(),
                 cache: URL, store: any KeyValueStore) throws -> ConsentManager {
        let base = URL(string: "http://localhost:\(port)")!
        let http = EdgeClient(country: country)
        let lists = VendorListLoader(
            source: try VendorListSource.consentd(baseURL: base, publishableKey: publishable, publisherIds: ["pub-news"], cacheDirectory: cache),
            transport: http)
        return ConsentManager(configuration: ConsentConfiguration(
            consentd: ConsentdEndpoint(baseURL: base, publishableKey: publishable, publisherIds: ["pub-news"]), cmp: CMPIdentity(cmpId: 300, cmpVersion: 1), store: store, transport: http,
            regionTimeout: 10, debug: debug, device: DeviceInfo(debugIdentifier: "test-device", isSimulator: false),
            vendorLists: lists, sync: ConsentSyncSettings(directory: cache.appendingPathComponent("sync"))))
    }

    @Test("from the EEA the manager learns that GDPR applies, the publisher's vendors and list, and records a decision for them")
    func eeaDecision() async throws {
        let server = try await TestServer.make()
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("sdk-e2e-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: cache) }
        let store = InMemoryKeyValueStore()
        try await server.consentd.application().test(.live) { live in
            let manager = try manager(port: try #require(live.port), publishable: server.publishable, country: "DE", cache: cache, store: store)
            await manager.refreshed()
            #expect(manager.gdprApplies == .applies)
            #expect(manager.appConfig?.vendorIds == [1, 21, 755])
            #expect(manager.vendorList?.vendors.keys.sorted() == [1, 21, 755])
            #expect(manager.askVerdict() == .noDecision)
            try manager.agreeToAll()
            #expect(manager.askVerdict() == .decisionHolds)
        }
        await server.consentd.close()
        #expect(store.value(forKey: "IABTCF_gdprApplies") == .integer(1))
        let tcString = try TCString(decoding: try #require(store.value(forKey: "IABTCF_TCString")?.string))
        #expect(tcString.disclosedVendors == [1, 21, 755])
        #expect(tcString.vendorListVersion == 45)
    }

    @Test("000-3, 001-9: consentd cannot tell the region: the user is asked, and once decided the keys say GDPR applies until consentd knows better")
    func unknownRegionAppliesOnceDecided() async throws {
        let server = try await TestServer.make()
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("sdk-e2e-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: cache) }
        let store = InMemoryKeyValueStore()
        try await server.consentd.application().test(.live) { live in
            let port = try #require(live.port)
            let unknown = try manager(port: port, publishable: server.publishable, country: nil, cache: cache, store: store)
            await unknown.refreshed()
            #expect(unknown.askVerdict() == .noDecision)
            #expect(store.value(forKey: "IABTCF_gdprApplies") == nil)
            #expect(unknown.privacyOptionsRequirement == .required)
            try unknown.agreeToAll()
            #expect(store.value(forKey: "IABTCF_gdprApplies") == .integer(1))
            #expect(unknown.gdprApplies == .applies)
            #expect(unknown.privacyOptionsRequirement == .required)

            // The next launch, from Japan: a known region says otherwise over the same decision.
            // (Not the US: there the US rules ask for a notice at collection and require the
            // privacy options entry; usStateDecision.)
            let japanese = try manager(port: port, publishable: server.publishable, country: "JP", cache: cache, store: store)
            japanese.start(refreshing: false)
            await japanese.refresh()
            #expect(japanese.consent != nil)
            #expect(store.value(forKey: "IABTCF_gdprApplies") == .integer(0))
            #expect(japanese.privacyOptionsRequirement == .notRequired)
        }
        await server.consentd.close()
    }

    @Test("outside the EEA GDPR does not apply; debug geography on a listed device makes it apply")
    func outsideAndDebug() async throws {
        let server = try await TestServer.make()
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("sdk-e2e-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: cache) }
        try await server.consentd.application().test(.live) { live in
            let port = try #require(live.port)
            let japanese = try manager(port: port, publishable: server.publishable, country: "JP", cache: cache, store: InMemoryKeyValueStore())
            await japanese.refreshed()
            #expect(japanese.gdprApplies == .doesNotApply)
            #expect(japanese.askVerdict() == .gdprDoesNotApply)

            let debugging = try manager(
                port: port, publishable: server.publishable, country: "US",
                debug: RegionDebugSettings(geography: .eea, deviceIdentifiers: ["test-device"]), cache: cache, store: InMemoryKeyValueStore())
            await debugging.refreshed()
            #expect(debugging.gdprApplies == .applies)

            let unknown = try manager(port: port, publishable: server.publishable, country: nil, cache: cache, store: InMemoryKeyValueStore())
            await unknown.refreshed()
            #expect(unknown.gdprApplies == .undetermined)
        }
        await server.consentd.close()
    }

    @Test("a visitor from a US state: the manager keeps region us, the state and the GPP sections; the TCF does not apply, as outside the EEA")
    func usStateDecision() async throws {
        let server = try await TestServer.make()
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("sdk-e2e-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: cache) }
        let store = InMemoryKeyValueStore()
        try await server.consentd.application().test(.live) { live in
            let port = try #require(live.port)
            let californian = try manager(port: port, publishable: server.publishable, country: "US-CA", cache: cache, store: store)
            await californian.refreshed()
            #expect(californian.appConfig?.region == .us && californian.appConfig?.subdivision == "CA")
            #expect(californian.appConfig?.gpp == GPPApplicability(applicableSections: [8]))
            #expect(californian.gdprApplies == .doesNotApply)
            // The US rules (record 0032): the notice at collection is shown once, ads are never
            // held back, and the privacy options entry ("Your Privacy Choices") is required.
            #expect(californian.askVerdict() == .noDecision)
            #expect(californian.canRequestAds)
            #expect(californian.privacyOptionsRequirement == .required)
            #expect(store.value(forKey: "IABTCF_gdprApplies") == .integer(0))

            let texan = try manager(port: port, publishable: server.publishable, country: "DE",
                                    debug: RegionDebugSettings(geography: .us(state: "TX"), deviceIdentifiers: ["test-device"]),
                                    cache: cache, store: InMemoryKeyValueStore())
            await texan.refreshed()
            #expect(texan.appConfig?.subdivision == "TX" && texan.appConfig?.gpp?.applicableSections == [16])
            #expect(texan.gdprApplies == .doesNotApply)
        }
        await server.consentd.close()
    }
}
