import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TCF
import Testing
@testable import ConsentKit

/// A broken or older download never replaces the held copy.
@Suite("Vendor list: a broken download never replaces a good copy")
struct VendorListBrokenDownloadTests {
    /// A download that must not be used, and the error it must be reported as.
    struct BrokenDownload: Sendable, CustomTestStringConvertible {
        let testDescription: String
        let step: @Sendable () throws -> ScriptedTransport.Step
        let isExpected: @Sendable (VendorListLoadingError) -> Bool

        static let all: [BrokenDownload] = [
            BrokenDownload(testDescription: "garbage bytes", step: { .respond(.list(Data([0x00, 0xFF, 0x13, 0x37, 0x42]))) }) {
                guard case .invalidVendorList(TestFolder.listURL, let error) = $0 else { return false }
                guard case .invalidJSON = error.reason else { return false }
                return error.offset == 0 && error.line == 1 && error.column == 1
            },
            BrokenDownload(testDescription: "JSON cut off halfway", step: {
                let body = try GVLFixtures.v3(renumberedTo: 46)
                return .respond(.list(Data(body.prefix(body.count / 2))))
            }) {
                guard case .invalidVendorList(TestFolder.listURL, let error) = $0 else { return false }
                return error.line > 1 && !error.path.isEmpty
            },
            BrokenDownload(testDescription: "an HTML error page with status 200", step: {
                .respond(TransportResponse(status: 200, headers: ["Content-Type": "text/html"], body: Data("<!DOCTYPE html><h1>Bad gateway</h1>".utf8)))
            }) {
                guard case .invalidVendorList(TestFolder.listURL, let error) = $0 else { return false }
                return error.line == 1 && error.column == 1
            },
            BrokenDownload(testDescription: "an empty 200", step: { .respond(.list(Data())) }) {
                guard case .invalidVendorList(TestFolder.listURL, _) = $0 else { return false }
                return true
            },
            BrokenDownload(testDescription: "JSON that is not a vendor list", step: {
                .respond(.list(Data(#"{"error": {"code": "unavailable"}}"#.utf8)))
            }) {
                guard case .invalidVendorList(TestFolder.listURL, let error) = $0 else { return false }
                return error.reason == .missingKey("vendorListVersion")
            },
            BrokenDownload(testDescription: "a body still gzip-compressed", step: {
                .respond(.list(Data([0x1F, 0x8B, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00])))
            }) {
                $0 == .compressedBody(url: TestFolder.listURL)
            },
            BrokenDownload(testDescription: "HTTP 500", step: {
                .respond(TransportResponse(status: 500, body: Data("{\"error\":\n{\"code\": \"internal\"}}".utf8)))
            }) {
                $0 == .httpStatus(url: TestFolder.listURL, status: 500, body: #"{"error": {"code": "internal"}}"#)
            },
            BrokenDownload(testDescription: "HTTP 401 for a revoked key", step: {
                .respond(TransportResponse(status: 401, body: Data(#"{"error":{"code":"unauthorized"}}"#.utf8)))
            }) {
                guard case .httpStatus(TestFolder.listURL, 401, let body) = $0 else { return false }
                return body.contains("unauthorized")
            },
            BrokenDownload(testDescription: "a timeout", step: { .fail(URLError(.timedOut)) }) {
                $0 == .timedOut(url: TestFolder.listURL, seconds: 10)
            },
            BrokenDownload(testDescription: "a refused connection", step: { .fail(URLError(.cannotConnectToHost)) }) {
                guard case .transport(TestFolder.listURL, let message) = $0 else { return false }
                return message.contains("\(URLError.Code.cannotConnectToHost.rawValue)")
            },
        ]
    }

    @Test("a broken download leaves the held copy byte for byte and says what went wrong", arguments: BrokenDownload.all)
    func brokenDownloadKeepsHeldCopy(download: BrokenDownload) async throws {
        let folder = try TestFolder()
        let good = try GVLFixtures.v3v45(trimmedTo: [1, 21, 755])
        try await storeCopy(good, in: folder)
        let before = try Data(contentsOf: folder.cacheFile)
        // The stored copy is fresh for an hour; two hours on, the refresh asks the server.
        let loader = VendorListLoader(
            source: folder.source(), transport: ScriptedTransport(try download.step()), clock: { Date().addingTimeInterval(7200) })

        let result = await loader.refresh()

        guard case .failed(let error) = result else {
            Issue.record("expected a failure, got \(result)")
            return
        }
        #expect(download.isExpected(error), "unexpected error: \(error)")
        // A Bool, not `==` inside #expect: on failure Swift Testing would diff the two lists byte by byte.
        let cacheUnchanged = try Data(contentsOf: folder.cacheFile) == before
        #expect(cacheUnchanged, "the held list's file changed")
        #expect(loader.cached() == (try VendorList(jsonData: good)))
        #expect(loader.loadLocal().origin == .stored(folder.cacheFile))
    }

    @Test("an older list of the same format does not replace the held one")
    func olderListIsRefused() async throws {
        let folder = try TestFolder()
        try await storeCopy(try GVLFixtures.v3v45(), in: folder)
        let before = try Data(contentsOf: folder.cacheFile)
        let loader = VendorListLoader(
            source: folder.source(), transport: ScriptedTransport(.respond(.list(try GVLFixtures.v3(renumberedTo: 44)))),
            clock: { Date().addingTimeInterval(7200) })

        #expect(await loader.refresh() == .failed(.olderThanHeld(url: TestFolder.listURL, offered: v3(44), held: v3(45))))

        // A Bool, not `==` inside #expect: on failure Swift Testing would diff the two lists byte by byte.
        let cacheUnchanged = try Data(contentsOf: folder.cacheFile) == before
        #expect(cacheUnchanged, "the held list's file changed")
        #expect(loader.cached()?.vendorListVersion == 45)
    }

    @Test("a list of an older format does not replace a newer one despite its higher number")
    func olderFormatIsRefused() async throws {
        let folder = try TestFolder()
        let loader = VendorListLoader(source: folder.source(), transport: ScriptedTransport(.respond(.list(try GVLFixtures.v2v224()))))

        let result = await loader.refresh()

        #expect(result == .failed(.olderThanHeld(
            url: TestFolder.listURL, offered: VendorListVersion(gvlSpecificationVersion: 2, vendorListVersion: 224), held: v3(45))))
        #expect(loader.loadLocal().origin == .bundledSnapshot(GVLFixtures.v3v45File))
        #expect(!FileManager.default.fileExists(atPath: folder.cacheFile.path))
    }

    @Test("a newer list replaces the held one on disk")
    func newerListReplaces() async throws {
        let folder = try TestFolder()
        try await storeCopy(try GVLFixtures.v3v45(), in: folder)
        let loader = VendorListLoader(
            source: folder.source(), transport: ScriptedTransport(.respond(.list(try GVLFixtures.v3(renumberedTo: 46)))),
            clock: { Date().addingTimeInterval(7200) })

        #expect(await loader.refresh() == .updated(v3(46)))

        #expect(VendorListLoader(source: folder.source(), transport: ScriptedTransport()).cached()?.vendorListVersion == 46)
    }

    @Test("a list of the same version replaces the held one: the publishers' vendors changed")
    func sameVersionReplaces() async throws {
        let folder = try TestFolder()
        try await storeCopy(try GVLFixtures.v3v45(trimmedTo: [1, 21, 755]), in: folder)
        let loader = VendorListLoader(
            source: folder.source(), transport: ScriptedTransport(.respond(.list(try GVLFixtures.v3v45(trimmedTo: [755, 32]), etag: "\"b\""))),
            clock: { Date().addingTimeInterval(7200) })

        #expect(await loader.refresh() == .updated(v3(45)))

        #expect(VendorListLoader(source: folder.source(), transport: ScriptedTransport()).cached()?.vendors.keys.sorted() == [32, 755])
    }
}
