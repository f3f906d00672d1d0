@testable import ConsentServer
import ConsentKit
import ConsentKitUI
import Foundation
import Testing

/// Every first visitor of a website in one language is shown the same notice: consentd builds it
/// once per site, language, vendor list and reason to ask (`SiteNotices`), and again when the
/// site's configuration changed.
@Suite("A website's notice for first visitors")
struct WebSiteNoticesTests {
    /// The demo site's notice, through `notices`, counting the builds.
    static func notice(_ web: WebCMP, _ notices: SiteNotices, site: WebCMP.Site, language: String = "en",
                       reason: AskRules.Verdict = .noDecision, builds: inout Int) throws -> SiteNotices.Notice {
        try notices.notice(site: site, language: language, version: web.catalog.vendorList.vendorListVersion, reason: WebCMP.name(of: reason)) {
            builds += 1
            return try web.exchange(site, language: language, current: nil, reopen: false, reason: reason)
        }
    }

    @Test("a site's notice is built once per language and reason, then served as built")
    func builtOncePerLanguageAndReason() async throws {
        let server = try await TestServer.make()
        try await server.test { _ async throws in
            let web = server.consentd.web
            let site = try web.site(appId: "demo")
            let notices = SiteNotices()
            var builds = 0
            let first = try Self.notice(web, notices, site: site, builds: &builds)
            let again = try Self.notice(web, notices, site: site, builds: &builds)
            #expect(builds == 1)
            #expect(again.documentJSON == first.documentJSON && again.vendorDetails.body == first.vendorDetails.body)
            _ = try Self.notice(web, notices, site: site, language: "de", builds: &builds)
            #expect(builds == 2)
            _ = try Self.notice(web, notices, site: site, reason: .expired(decidedAt: Date(timeIntervalSince1970: 0)), builds: &builds)
            #expect(builds == 3)
        }
    }

    @Test("a site whose configuration changed is built again, with the change")
    func changedSiteIsBuiltAgain() async throws {
        let server = try await TestServer.make()
        try await server.test { _ async throws in
            let web = server.consentd.web
            let site = try web.site(appId: "demo")
            let notices = SiteNotices()
            var builds = 0
            _ = try Self.notice(web, notices, site: site, builds: &builds)
            var renamed = site
            renamed.website.name = "Renamed News"
            let notice = try Self.notice(web, notices, site: renamed, builds: &builds)
            #expect(builds == 2)
            let document = try #require(try JSONSerialization.jsonObject(with: Data(notice.documentJSON.utf8)) as? [String: Any])
            #expect((document["publisher"] as? [String: Any])?["name"] as? String == "Renamed News")
        }
    }

    @Test("first visitors' sessions carry the document the exchange builds for a visitor without a decision")
    func sessionsCarryTheBuiltDocument() async throws {
        let server = try await TestServer.make()
        try await server.test { client async throws in
            let first = try await WebVendorDetailsTests.document(client, server)
            let second = try await WebVendorDetailsTests.document(client, server)
            let web = server.consentd.web
            let exchange = try web.exchange(try web.site(appId: "demo"), language: "en", current: nil, reopen: false, reason: .noDecision)
            let url = SiteNotices.vendorDetailsURL(appId: "demo", language: "en", version: web.catalog.vendorList.vendorListVersion)
            let built = try #require(try JSONSerialization.jsonObject(with: exchange.document.webJSON(vendorDetailsUrl: url)) as? [String: Any])
            #expect(NSDictionary(dictionary: first) == NSDictionary(dictionary: built))
            #expect(NSDictionary(dictionary: second) == NSDictionary(dictionary: built))
        }
    }
}
