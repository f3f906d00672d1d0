import Foundation
@testable import ConsentKit

/// A fresh folder under the temporary directory (`vl-…`), removed when the value goes away.
final class TestFolder: Sendable {
    /// The folder.
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("vl-test-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    /// Where loaders of this folder keep their copy.
    var cacheDirectory: URL { url.appendingPathComponent("cache", isDirectory: true) }

    /// The stored copy's file.
    var cacheFile: URL { cacheDirectory.appendingPathComponent("vendor-list.cache") }

    /// Writes `data` to `name` in the folder and returns its URL.
    func file(_ name: String, _ data: Data) throws -> URL {
        let file = url.appendingPathComponent(name)
        try data.write(to: file)
        return file
    }

    /// A source for `url` keeping its copy in this folder.
    func source(
        url: URL = TestFolder.listURL, snapshot: URL? = GVLFixtures.v3v45File, headers: [String: String] = [:]
    ) -> VendorListSource {
        VendorListSource(url: url, headers: headers, timeout: 10, cacheDirectory: cacheDirectory, bundledSnapshot: snapshot)
    }

    /// The URL the test sources fetch from (nothing listens there: the client is scripted).
    static let listURL = URL(string: "https://consent.example.com/v1/vendor-list/trimmed?publisherIds=pub-news")!
}

/// GVL v3 #`number`.
func v3(_ number: Int) -> VendorListVersion {
    VendorListVersion(gvlSpecificationVersion: 3, vendorListVersion: number)
}
