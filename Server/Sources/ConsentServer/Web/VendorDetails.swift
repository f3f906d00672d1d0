import ConsentKitUI
import Foundation
import Synchronization

/// The vendors' details of a website's notice (`GET /v1/web/vendor-details`): what the web
/// document leaves out of each vendor (``ConsentKitUI/NoticeDocument/vendorDetailsJSON()``:
/// data categories, retention, policy and legitimate-interest claim URLs, cookie lifetime and
/// refresh, storage disclosure), which the page loads when its vendor list or a vendor's details
/// open. Built once per website, language and vendor list, then served from memory with its
/// ETag and gzip copy: at most ``limit`` sets are kept (a site's vendors in one language each),
/// all dropped when one more is needed, so the memory stays bounded whatever is asked.
final class VendorDetails: Sendable {
    /// The sets kept at most.
    static let limit = 64

    /// What a set was built from, so that a changed site or list is built again.
    private struct Entry: Sendable {
        var vendorIds: [Int]
        var document: ServedDocument
    }

    private let entries = Mutex<[String: Entry]>([:])

    /// The URL the web document names for `appId`'s vendors in `language` on list `version` (the
    /// version only makes a new list a new URL for the browser's cache).
    static func url(appId: String, language: String, version: Int) -> String {
        "/v1/web/vendor-details?site=\(appId)&language=\(language)&gvl=\(version)"
    }

    /// The set of `site` in `language`, built by `build` (the site's notice document) when none
    /// is kept for the same vendors and list version.
    func document(appId: String, language: String, version: Int, vendorIds: [Int],
                  build: () throws -> NoticeDocument) throws -> ServedDocument {
        let key = "\(appId) \(language) \(version)"
        if let entry = entries.withLock({ $0[key] }), entry.vendorIds == vendorIds { return entry.document }
        let document = ServedDocument(body: try build().vendorDetailsJSON())
        entries.withLock { entries in
            if entries.count >= Self.limit { entries.removeAll() }
            entries[key] = Entry(vendorIds: vendorIds, document: document)
        }
        return document
    }
}
