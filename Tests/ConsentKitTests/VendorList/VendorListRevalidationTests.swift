import Foundation
import TCF
import Testing
@testable import ConsentKit

/// `refresh()`: freshness, `ETag` revalidation and what is stored.
@Suite("Vendor list: freshness and revalidation")
struct VendorListRevalidationTests {
    @Test("a download is sent with the source's headers and timeout, decoded and held")
    func downloadIsHeld() async throws {
        let folder = try TestFolder()
        let client = ScriptedTransport(.respond(.list(try GVLFixtures.v3v45())))
        let source = folder.source(snapshot: nil, headers: ["Authorization": "Bearer ck_pub_test"])
        let loader = VendorListLoader(source: source, transport: client)

        #expect(await loader.refresh() == .updated(v3(45)))

        #expect(client.requests == [TransportRequest(url: TestFolder.listURL, headers: ["Authorization": "Bearer ck_pub_test"], timeout: 10)])
        #expect(loader.loadLocal().origin == .stored(folder.cacheFile))
        #expect(loader.cached()?.vendorListVersion == 45)
    }

    @Test("a copy within its max-age makes no request")
    func freshCopyMakesNoRequest() async throws {
        let folder = try TestFolder()
        let clock = TestClock()
        let client = ScriptedTransport(.respond(.list(try GVLFixtures.v3v45(), cacheControl: "public, max-age=3600")))
        let loader = VendorListLoader(source: folder.source(), transport: client, clock: clock.now)
        #expect(await loader.refresh() == .updated(v3(45)))

        clock.advance(3599)

        #expect(await loader.refresh() == .fresh(v3(45)))
        #expect(client.requests.count == 1)
    }

    @Test("a later launch within the stored max-age makes no request")
    func storedFreshnessOutlivesTheProcess() async throws {
        let folder = try TestFolder()
        let clock = TestClock()
        let first = VendorListLoader(
            source: folder.source(), transport: ScriptedTransport(.respond(.list(try GVLFixtures.v3v45(), cacheControl: "max-age=600"))),
            clock: clock.now)
        #expect(await first.refresh() == .updated(v3(45)))
        clock.advance(300)

        let silent = ScriptedTransport()
        #expect(await VendorListLoader(source: folder.source(), transport: silent, clock: clock.now).refresh() == .fresh(v3(45)))
        #expect(silent.requests.isEmpty)
    }

    @Test("a copy past its max-age is revalidated with its ETag")
    func staleCopySendsETag() async throws {
        let folder = try TestFolder()
        let clock = TestClock()
        let client = ScriptedTransport(
            .respond(.list(try GVLFixtures.v3v45(), etag: "\"abc\"", cacheControl: "max-age=60")),
            .respond(.notModified(etag: "\"abc\"", cacheControl: "max-age=60")))
        let loader = VendorListLoader(source: folder.source(), transport: client, clock: clock.now)
        #expect(await loader.refresh() == .updated(v3(45)))

        clock.advance(60)

        #expect(await loader.refresh() == .notModified(v3(45)))
        #expect(client.requests.count == 2)
        #expect(client.requests.last?.headers["If-None-Match"] == "\"abc\"")
    }

    @Test("a 304 keeps the held list and makes it fresh again, on disk too")
    func notModifiedExtendsFreshness() async throws {
        let folder = try TestFolder()
        let clock = TestClock()
        let client = ScriptedTransport(
            .respond(.list(try GVLFixtures.v3v45(trimmedTo: [1, 755]), cacheControl: "max-age=60")),
            .respond(.notModified(cacheControl: "max-age=60")))
        let loader = VendorListLoader(source: folder.source(), transport: client, clock: clock.now)
        #expect(await loader.refresh() == .updated(v3(45)))
        let held = loader.cached()
        clock.advance(100)
        #expect(await loader.refresh() == .notModified(v3(45)))

        clock.advance(59)

        #expect(await loader.refresh() == .fresh(v3(45)))
        #expect(loader.cached() == held)
        let later = ScriptedTransport()
        #expect(await VendorListLoader(source: folder.source(), transport: later, clock: clock.now).refresh() == .fresh(v3(45)))
        #expect(later.requests.isEmpty)
        #expect(client.requests.count == 2)
    }

    @Test("without a usable max-age the copy is revalidated on every refresh", arguments: [
        nil, "no-cache", "max-age=0", "public, max-age=3600, no-cache", "max-age=soon",
    ] as [String?])
    func noMaxAgeRevalidatesEveryTime(cacheControl: String?) async throws {
        let folder = try TestFolder()
        let client = ScriptedTransport(
            .respond(.list(try GVLFixtures.v3v45(), cacheControl: cacheControl)),
            .respond(.notModified()))
        let loader = VendorListLoader(source: folder.source(), transport: client)
        #expect(await loader.refresh() == .updated(v3(45)))

        #expect(await loader.refresh() == .notModified(v3(45)))
        #expect(client.requests.count == 2)
        #expect(client.requests.last?.headers["If-None-Match"] == "\"v1\"")
    }

    @Test("a no-store download is used for this run but never written to disk")
    func noStoreIsNotWritten() async throws {
        let folder = try TestFolder()
        let client = ScriptedTransport(
            .respond(.list(try GVLFixtures.v3v45(trimmedTo: [21]), cacheControl: "no-store")),
            .respond(.list(try GVLFixtures.v3v45(trimmedTo: [21]), cacheControl: "no-store")))
        let loader = VendorListLoader(source: folder.source(), transport: client)

        #expect(await loader.refresh() == .updated(v3(45)))

        #expect(loader.loadLocal().origin == .downloaded(TestFolder.listURL))
        #expect(loader.cached()?.vendors.keys.sorted() == [21])
        #expect(!FileManager.default.fileExists(atPath: folder.cacheFile.path))
        #expect(await loader.refresh() == .updated(v3(45)))
        #expect(client.requests.last?.headers["If-None-Match"] == nil)
    }

    @Test("a copy fetched from another URL is used but not revalidated with its ETag")
    func copyFromAnotherURLIsNotRevalidated() async throws {
        let folder = try TestFolder()
        try await storeCopy(try GVLFixtures.v3v45(), in: folder, etag: "\"english\"")
        let german = URL(string: "https://consent.example.com/v1/vendor-list/trimmed?publisherIds=pub-news&language=de")!
        let client = ScriptedTransport(.respond(.list(try GVLFixtures.v3v45(), etag: "\"german\"")))
        let loader = VendorListLoader(source: folder.source(url: german, snapshot: nil), transport: client)
        #expect(loader.loadLocal().origin == .stored(folder.cacheFile))

        #expect(await loader.refresh() == .updated(v3(45)))

        #expect(client.requests.count == 1)
        #expect(client.requests.first?.headers["If-None-Match"] == nil)
    }

    @Test("a clock set back before the last download makes the copy stale, not stuck")
    func clockSetBackMakesCopyStale() async throws {
        let folder = try TestFolder()
        let clock = TestClock()
        let client = ScriptedTransport(.respond(.list(try GVLFixtures.v3v45(), cacheControl: "max-age=86400")), .respond(.notModified()))
        let loader = VendorListLoader(source: folder.source(), transport: client, clock: clock.now)
        #expect(await loader.refresh() == .updated(v3(45)))

        clock.advance(-3600)

        #expect(await loader.refresh() == .notModified(v3(45)))
        #expect(client.requests.count == 2)
    }

    @Test("a 304 to a request without If-None-Match is reported and holds nothing")
    func unexpectedNotModified() async throws {
        let folder = try TestFolder()
        let loader = VendorListLoader(source: folder.source(snapshot: nil), transport: ScriptedTransport(.respond(.notModified())))

        #expect(await loader.refresh() == .failed(.unexpectedNotModified(url: TestFolder.listURL)))
        #expect(loader.cached() == nil)
    }

    @Test("a download leaves no temporary file beside the stored copy")
    func writeLeavesNoTemporaryFile() async throws {
        let folder = try TestFolder()
        try await storeCopy(try GVLFixtures.v3v45(), in: folder)
        try await storeCopy(try GVLFixtures.v3(renumberedTo: 46), in: folder, at: Date().addingTimeInterval(7200))

        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.cacheDirectory.path) == ["vendor-list.cache"])
    }

    @Test("a good download that cannot be written is held for this run and reported")
    func unwritableDownloadIsHeldInMemory() async throws {
        let folder = try TestFolder()
        // A plain file where the cache folder should be: the folder cannot be created.
        try Data("not a folder".utf8).write(to: folder.cacheDirectory)
        let loader = VendorListLoader(
            source: folder.source(), transport: ScriptedTransport(.respond(.list(try GVLFixtures.v3(renumberedTo: 46)))))

        let result = await loader.refresh()

        guard case .failed(.cacheWrite(let file, _)) = result else {
            Issue.record("expected a write failure, got \(result)")
            return
        }
        #expect(file == folder.cacheFile)
        #expect(loader.loadLocal().origin == .downloaded(TestFolder.listURL))
        #expect(loader.cached()?.vendorListVersion == 46)
    }
}
