import Foundation
import Testing
@testable import ConsentKit

/// Building sources for consentd.
@Suite("Vendor list: sources")
struct VendorListSourceTests {
    @Test("consentd's trimmed-list source names the publishers and language and carries the key")
    func consentdTrimmedSource() throws {
        let source = try VendorListSource.consentd(
            baseURL: URL(string: "https://consent.example.com")!, publishableKey: "ck_pub_1_secret",
            publisherIds: ["pub-news", "pub-games"], language: "de")

        #expect(source.url.absoluteString == "https://consent.example.com/v1/vendor-list/trimmed?publisherIds=pub-news,pub-games&language=de")
        #expect(source.headers["Authorization"] == "Bearer ck_pub_1_secret")
    }

    @Test("a base URL with a path keeps it")
    func baseURLPathIsKept() throws {
        let source = try VendorListSource.globalVendorList(baseURL: URL(string: "https://example.com/cmp/")!)

        #expect(source.url.absoluteString == "https://example.com/cmp/v1/vendor-list.json")
        #expect(source.headers["Authorization"] == nil)
    }

    @Test("publisher ids are escaped in the query")
    func publisherIdsAreEscaped() throws {
        let source = try VendorListSource.consentd(
            baseURL: URL(string: "https://consent.example.com")!, publishableKey: "k", publisherIds: ["a&b=c"])

        #expect(source.url.query == "publisherIds=a%26b%3Dc" || source.url.query == "publisherIds=a%26b=c")
    }

    @Test("a consentd source that cannot name its publishers is refused with the reason", arguments: [
        ([], "publisherIds is empty"),
        (["pub-news", ""], "publisherIds[1]"),
        (["a,b"], "publisherIds[0] \"a,b\""),
    ] as [([String], String)])
    func invalidPublishersAreRefused(publisherIds: [String], message: String) {
        #expect {
            try VendorListSource.consentd(baseURL: URL(string: "https://consent.example.com")!, publishableKey: "k", publisherIds: publisherIds)
        } throws: { error in
            guard case .invalidSource(let text) = error as? VendorListLoadingError else { return false }
            return text.contains(message)
        }
    }

    @Test("the default cache folder is ConsentKit's own")
    func defaultCacheDirectory() {
        #expect(VendorListSource.defaultCacheDirectory.path.hasSuffix("/ConsentKit/VendorList"))
    }
}
