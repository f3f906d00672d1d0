import Foundation
import TCF
import Testing
@testable import ConsentKit

/// `loadLocal()` and `cached()`: the list held without the network.
@Suite("Vendor list: the local copy")
struct VendorListLocalLoadingTests {
    @Test("a first launch without network uses the bundled snapshot")
    func firstLaunchOfflineUsesSnapshot() async throws {
        let folder = try TestFolder()
        let client = ScriptedTransport.offline()
        let loader = VendorListLoader(source: folder.source(), transport: client)

        let refresh = await loader.refresh()

        guard case .failed(.transport(let url, _)) = refresh else {
            Issue.record("expected a transport failure, got \(refresh)")
            return
        }
        #expect(url == TestFolder.listURL)
        let local = loader.loadLocal()
        #expect(local.origin == .bundledSnapshot(GVLFixtures.v3v45File))
        #expect(local.vendorList == (try VendorList(jsonData: try GVLFixtures.v3v45())))
        #expect(client.requests.count == 1)
    }

    @Test("a first launch without network and without a snapshot has no list and says why")
    func firstLaunchOfflineWithoutSnapshot() async throws {
        let folder = try TestFolder()
        let loader = VendorListLoader(source: folder.source(snapshot: nil), transport: ScriptedTransport.offline())

        let local = loader.loadLocal()

        #expect(local.vendorList == nil)
        #expect(local.origin == nil)
        #expect(local.problems == [.noLocalCopy(cacheFile: folder.cacheFile, snapshot: nil)])
        #expect(loader.cached() == nil)
        #expect("\(local.problems[0])".contains("no bundled snapshot is configured"))
    }

    @Test("a stored download is read by a later launch without any request")
    func laterLaunchReadsStoredCopy() async throws {
        let folder = try TestFolder()
        let trimmed = try GVLFixtures.v3v45(trimmedTo: [1, 21, 755])
        let first = VendorListLoader(source: folder.source(snapshot: nil), transport: ScriptedTransport(.respond(.list(trimmed))))
        #expect(await first.refresh() == .updated(v3(45)))

        let silent = ScriptedTransport()
        let later = VendorListLoader(source: folder.source(snapshot: nil), transport: silent)
        let local = later.loadLocal()

        #expect(local.origin == .stored(folder.cacheFile))
        #expect(local.vendorList?.vendors.keys.sorted() == [1, 21, 755])
        #expect(local.problems.isEmpty)
        #expect(silent.requests.isEmpty)
    }

    @Test("a stored copy cut short is passed over for the snapshot, and the problem is named")
    func truncatedStoredCopyFallsBackToSnapshot() async throws {
        let folder = try TestFolder()
        try await storeCopy(try GVLFixtures.v3(renumberedTo: 46), in: folder)
        try cutInHalf(folder.cacheFile)

        let loader = VendorListLoader(source: folder.source(), transport: ScriptedTransport())
        let local = loader.loadLocal()

        #expect(local.origin == .bundledSnapshot(GVLFixtures.v3v45File))
        #expect(local.vendorList?.vendorListVersion == 45)
        guard case .unreadableCache(let file, let reason)? = local.problems.first else {
            Issue.record("expected the stored copy to be named unreadable, got \(local.problems)")
            return
        }
        #expect(file == folder.cacheFile)
        #expect(reason.contains("cut short"))
    }

    @Test("a stored copy cut short is replaced by the next good download")
    func truncatedStoredCopyIsReplaced() async throws {
        let folder = try TestFolder()
        try await storeCopy(try GVLFixtures.v3v45(), in: folder)
        try cutInHalf(folder.cacheFile)

        let loader = VendorListLoader(source: folder.source(), transport: ScriptedTransport(.respond(.list(try GVLFixtures.v3v45()))))
        #expect(await loader.refresh() == .updated(v3(45)))

        let later = VendorListLoader(source: folder.source(), transport: ScriptedTransport()).loadLocal()
        #expect(later.origin == .stored(folder.cacheFile))
        #expect(later.problems.isEmpty)
    }

    @Test("a stored file that is not a stored copy at all is named unreadable")
    func foreignFileIsUnreadable() async throws {
        let folder = try TestFolder()
        try FileManager.default.createDirectory(at: folder.cacheDirectory, withIntermediateDirectories: true)
        try GVLFixtures.v3v45().write(to: folder.cacheFile)  // a bare list: no header line

        let local = VendorListLoader(source: folder.source(snapshot: nil), transport: ScriptedTransport()).loadLocal()

        #expect(local.vendorList == nil)
        guard case .unreadableCache(_, let reason)? = local.problems.first else {
            Issue.record("expected the stored copy to be named unreadable, got \(local.problems)")
            return
        }
        #expect(reason.contains("header line does not decode"))
    }

    @Test("a snapshot newer than the stored copy is used, as after an app update")
    func newerSnapshotWins() async throws {
        let folder = try TestFolder()
        try await storeCopy(try GVLFixtures.v3(renumberedTo: 44), in: folder)

        let local = VendorListLoader(source: folder.source(), transport: ScriptedTransport()).loadLocal()

        #expect(local.origin == .bundledSnapshot(GVLFixtures.v3v45File))
        #expect(local.vendorList?.vendorListVersion == 45)
    }

    @Test("after the snapshot wins, the stored copy's ETag is not sent")
    func newerSnapshotDropsStoredValidators() async throws {
        let folder = try TestFolder()
        try await storeCopy(try GVLFixtures.v3(renumberedTo: 44), in: folder, etag: "\"old\"")
        let client = ScriptedTransport(.respond(.list(try GVLFixtures.v3v45(), etag: "\"new\"")))

        #expect(await VendorListLoader(source: folder.source(), transport: client).refresh() == .updated(v3(45)))

        #expect(client.requests.first?.headers["If-None-Match"] == nil)
    }

    @Test("the stored copy wins over a snapshot of the same version")
    func storedCopyWinsTie() async throws {
        let folder = try TestFolder()
        try await storeCopy(try GVLFixtures.v3v45(trimmedTo: [755]), in: folder)

        let local = VendorListLoader(source: folder.source(), transport: ScriptedTransport()).loadLocal()

        #expect(local.origin == .stored(folder.cacheFile))
        #expect(local.vendorList?.vendors.keys.sorted() == [755])
    }

    @Test("a snapshot that is not a vendor list is named and not used")
    func brokenSnapshotIsNamed() async throws {
        let folder = try TestFolder()
        let snapshot = try folder.file("snapshot.json", Data("<html>oops</html>".utf8))

        let local = VendorListLoader(source: folder.source(snapshot: snapshot), transport: ScriptedTransport()).loadLocal()

        #expect(local.vendorList == nil)
        guard case .unreadableSnapshot(let file, let reason)? = local.problems.first else {
            Issue.record("expected the snapshot to be named unreadable, got \(local.problems)")
            return
        }
        #expect(file == snapshot)
        #expect(reason.contains("line 1, column 1"))
        #expect(local.problems.last == .noLocalCopy(cacheFile: folder.cacheFile, snapshot: snapshot))
    }

    @Test("the local copy is read from disk once and then held in memory")
    func localCopyIsReadOnce() async throws {
        let folder = try TestFolder()
        try await storeCopy(try GVLFixtures.v3v45(), in: folder)
        let loader = VendorListLoader(source: folder.source(snapshot: nil), transport: ScriptedTransport())
        let first = loader.loadLocal()

        try FileManager.default.removeItem(at: folder.cacheFile)

        #expect(loader.loadLocal() == first)
        #expect(first.vendorList?.vendorListVersion == 45)
    }

    @Test("a write cut off by a crash leaves the previous copy readable")
    func interruptedWriteLeavesPreviousCopy() async throws {
        let folder = try TestFolder()
        try await storeCopy(try GVLFixtures.v3v45(), in: folder)
        // What a crash halfway through the next write leaves: a partial temporary file beside the copy.
        let partial = folder.cacheDirectory.appendingPathComponent(".vendor-list.cache.\(UUID().uuidString).tmp")
        try Data(try GVLFixtures.v3(renumberedTo: 46).prefix(1000)).write(to: partial)

        let local = VendorListLoader(source: folder.source(snapshot: nil), transport: ScriptedTransport()).loadLocal()

        #expect(local.origin == .stored(folder.cacheFile))
        #expect(local.vendorList?.vendorListVersion == 45)
    }

    @Test("the next write removes what an interrupted write left, and spares one still in progress")
    func nextWriteRemovesAbandonedTemporaries() async throws {
        let folder = try TestFolder()
        func temporary(started: Date) throws -> URL {
            let name = ".vendor-list.cache.\(Int64(started.timeIntervalSince1970)).\(UUID().uuidString).tmp"
            let file = folder.cacheDirectory.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: folder.cacheDirectory, withIntermediateDirectories: true)
            try Data("{\"partial".utf8).write(to: file)
            return file
        }
        let abandoned = try temporary(started: Date().addingTimeInterval(-3600))
        let inProgress = try temporary(started: Date())
        let unrelated = folder.cacheDirectory.appendingPathComponent(".other.cache.0.tmp")
        try Data().write(to: unrelated)

        try await storeCopy(try GVLFixtures.v3v45(), in: folder)

        #expect(!FileManager.default.fileExists(atPath: abandoned.path))
        #expect(FileManager.default.fileExists(atPath: inProgress.path))
        #expect(FileManager.default.fileExists(atPath: unrelated.path))
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.cacheDirectory.path).filter { $0.hasSuffix(".tmp") }
        #expect(left.sorted() == [inProgress.lastPathComponent, unrelated.lastPathComponent].sorted())
    }
}

/// Stores `body` as the copy in `folder` through a loader at time `date`, as a download with
/// consentd's `max-age=3600` would.
func storeCopy(_ body: Data, in folder: TestFolder, etag: String = "\"stored\"", at date: Date = Date()) async throws {
    let loader = VendorListLoader(
        source: folder.source(snapshot: nil), transport: ScriptedTransport(.respond(.list(body, etag: etag))), clock: { date })
    let result = await loader.refresh()
    guard case .updated = result else { throw FixtureError("storing the copy failed: \(result)") }
}

/// Cuts `file` to half its length, as a full disk or a careless cleanup might.
func cutInHalf(_ file: URL) throws {
    let data = try Data(contentsOf: file)
    try Data(data.prefix(data.count / 2)).write(to: file)
}
