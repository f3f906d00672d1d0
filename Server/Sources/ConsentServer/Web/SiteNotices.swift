import ConsentKit
import ConsentKitUI
import Foundation
import Synchronization

/// A website's notice for a visitor who holds no decision, as the web CMP serves it: the page
/// view's `document` (``ConsentKitUI/NoticeDocument/webJSON(vendorDetailsUrl:)``) and the scope
/// its `uiTCData` is encoded from (`POST /v1/web/session`), and the vendors' details that
/// document leaves out (`GET /v1/web/vendor-details`, ``ConsentKitUI/NoticeDocument/vendorDetailsJSON()``:
/// data categories, retention, policy and legitimate-interest claim URLs, cookie lifetime and
/// refresh, storage disclosure), which the page loads when its vendor list or a vendor's details
/// open.
///
/// Every first visitor of a site in one language is shown the same notice, so it is built once
/// per website, language, vendor list and reason to ask, then served from memory: building it
/// reads the trimmed vendor list and writes the document, which for a site of all 813 vendors
/// took most of a page view's session answer (`Benchmarks/probe_first_visit.py`, record 0037).
/// A set is built again when the site's configuration changed (a reload of the publisher
/// configuration). At most ``limit`` sets are kept, all dropped when one more is needed, so the
/// memory stays bounded whatever is asked.
final class SiteNotices: Sendable {
    /// The sets kept at most.
    static let limit = 64

    /// One site's notice in one language, on one list.
    struct Notice: Sendable {
        /// What the visitor's choices are taken under (the `uiTCData`'s scope).
        let scope: ConsentScope
        /// The page view's document, without the vendors' details.
        let documentJSON: String
        /// The vendors' details, with their ETag and gzip copy.
        let vendorDetails: ServedDocument
    }

    /// What a set was built from, so that a changed site is built again.
    private struct Entry: Sendable {
        var site: WebCMP.Site
        var notice: Notice
    }

    private let entries = Mutex<[String: Entry]>([:])

    /// The URL the web document names for `appId`'s vendors in `language` on list `version` (the
    /// version only makes a new list a new URL for the browser's cache).
    static func vendorDetailsURL(appId: String, language: String, version: Int) -> String {
        "/v1/web/vendor-details?site=\(appId)&language=\(language)&gvl=\(version)"
    }

    /// The notice of `site` in `language` on list `version`, asked for `reason`, built from
    /// `build` (the exchange for a visitor without a decision) when none is kept for the same
    /// site as configured now.
    func notice(site: WebCMP.Site, language: String, version: Int, reason: String,
                build: () throws -> NoticeExchange) throws -> Notice {
        let key = "\(site.website.appId) \(language) \(version) \(reason)"
        if let entry = entries.withLock({ $0[key] }), entry.site == site { return entry.notice }
        let exchange = try build()
        let details = Self.vendorDetailsURL(appId: site.website.appId, language: language, version: version)
        let notice = Notice(scope: exchange.scope,
                            documentJSON: String(decoding: exchange.document.webJSON(vendorDetailsUrl: details), as: UTF8.self),
                            vendorDetails: ServedDocument(body: exchange.document.vendorDetailsJSON()))
        entries.withLock { entries in
            if entries.count >= Self.limit { entries.removeAll() }
            entries[key] = Entry(site: site, notice: notice)
        }
        return notice
    }
}
