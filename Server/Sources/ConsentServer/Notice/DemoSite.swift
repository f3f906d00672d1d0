import ConsentKit
import ConsentdAPI
import Foundation
import Synchronization

/// `/demo` as a small publisher's website: the web CMP (`/cmp/stub.js`, `/cmp/cmp.js`) on a news
/// page, an ad slot that reads consent through `__tcfapi`, and an ad frame served from a second
/// origin (``ServerSettings/demoFramePort``) that reads it through `__tcfapiLocator`. The site
/// is the website `demo` (app `demo`) with twenty vendors, Google among them, and the demo's
/// ad-tech providers; its page key is a publishable key of the app `demo`. The playground
/// (`/demo/playground`) has a page key of its own, of the app `demo-playground`
/// (``NoticeDemo/appId``), so that its results never touch the site's visitors.
///
/// Both keys get a new secret at each start (only a hash of a key is stored); a key revoked is
/// never revived: the page is then given a new key (a new key id), and the tokens the revoked
/// one minted stay dead.
final class DemoSite: Sendable {
    /// The app id of the demo's website.
    static let appId = "demo"

    /// A page key consentd hands out: whose app, and the first 8 characters of its key id.
    struct PageKey: Sendable {
        var appId: String
        var idPrefix: String
        var label: String

        /// The demo site's (`/demo`); its first key id is `demosite0000`.
        static let site = PageKey(appId: DemoSite.appId, idPrefix: "demosite", label: "the /demo site's page")
        /// The notice playground's (`/demo/playground`).
        static let playground = PageKey(appId: NoticeDemo.appId, idPrefix: "demoplay", label: "the /demo/playground page")
    }

    private let state = Mutex<(keys: [String: String], frameOrigin: String?)>(([:], nil))

    /// The frame origin, once its server listens.
    var frameOrigin: String? { state.withLock { $0.frameOrigin } }

    func setFrameOrigin(_ origin: String) { state.withLock { $0.frameOrigin = origin } }

    /// The demo site's page key.
    func key(_ keys: APIKeys) async throws -> String {
        try await key(.site, keys)
    }

    /// The page key `page` shows, made on first use and again when the one shown was revoked.
    func key(_ page: PageKey, _ keys: APIKeys) async throws -> String {
        if let key = state.withLock({ $0.keys[page.idPrefix] }), try await keys.authenticate(key) != nil { return key }
        let key = try await keys.renewOwnKey(idPrefix: page.idPrefix, appId: page.appId, kind: .publishable, label: page.label)
        state.withLock { $0.keys[page.idPrefix] = key }
        return key
    }

    /// `configuration` with the demo's publisher and website added.
    static func adding(to configuration: PublisherConfiguration, catalog: VendorListCatalog) -> PublisherConfiguration {
        var configuration = configuration
        let everyVendor = catalog.vendorList.activeVendors().map(\.id)
        let google = GoogleConsentStatus.googleVendorId
        let publisher = AppConfig.Publisher(
            id: "consentd-demo", name: "Example News", vendorIds: Array(everyVendor.filter { $0 != google }.prefix(19)) + [google],
            adTechProviders: NoticeDemo.adTechProviders, nonPersonalizedOnly: false)
        configuration.publishers[publisher.id] = publisher
        configuration.websites[appId] = PublisherConfiguration.Website(
            appId: appId, name: "Example News", privacyPolicyURL: URL(string: "https://news.example.com/privacy")!, publisherIds: [publisher.id])
        return configuration
    }
}
