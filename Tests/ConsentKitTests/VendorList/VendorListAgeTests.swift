import Foundation
import TCF
import Testing
@testable import ConsentKit

/// Seed 000-20 on the app's side: the held vendor list is refreshed when its `max-age` has
/// passed, not only at start (`ForegroundSync` asks each time the app returns to the foreground).
@Suite("000-20: the app's vendor list is refreshed when its max-age has passed")
struct VendorListAgeTests {
    @Test("000-20: a list is stale before its first download, fresh within its max-age, stale once it has passed")
    func staleOnceMaxAgePassed() async throws {
        let folder = try TestFolder()
        let clock = TestClock()
        let loader = VendorListLoader(
            source: folder.source(), transport: ScriptedTransport(.respond(.list(try GVLFixtures.v3v45(), cacheControl: "max-age=3600"))),
            clock: clock.now)
        // The bundled snapshot carries no max-age: due at once.
        #expect(loader.isStale())
        #expect(await loader.refresh() == .updated(v3(45)))
        #expect(!loader.isStale())
        clock.advance(3599)
        #expect(!loader.isStale())
        clock.advance(1)
        #expect(loader.isStale())
    }

    @Test("000-20: the manager refreshes only when the held list's max-age has passed")
    func managerRefreshesWhenStale() async throws {
        let folder = try TestFolder()
        let clock = TestClock()
        let client = ScriptedTransport(
            .respond(.list(try GVLFixtures.v3v45(), etag: "\"a\"", cacheControl: "max-age=600")),
            .respond(.notModified(etag: "\"a\"", cacheControl: "max-age=600")))
        let loader = VendorListLoader(source: folder.source(), transport: client, clock: clock.now)
        let manager = makeManager(consentd: nil, override: .applies, vendorLists: loader)
        await manager.refreshed()
        #expect(client.requests.count == 1)

        clock.advance(599)
        #expect(await manager.refreshIfVendorListStale() == nil)
        #expect(client.requests.count == 1)

        clock.advance(1)
        let report = try #require(await manager.refreshIfVendorListStale())
        #expect(report.vendorListVersion == 45)
        #expect(client.requests.count == 2)
        #expect(client.requests.last?.headers["If-None-Match"] == "\"a\"")
    }

    @Test("000-20: a manager without a vendor-list source never refreshes for it")
    func noSourceNoRefresh() async {
        let manager = makeManager(consentd: nil, override: .applies, vendorLists: nil)
        #expect(await manager.refreshIfVendorListStale() == nil)
    }
}
