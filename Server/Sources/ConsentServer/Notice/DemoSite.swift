import ConsentKit
import ConsentdAPI
import Foundation
import Synchronization

/// `/demo` as a small publisher's website: the web CMP (`/cmp/stub.js`, `/cmp/cmp.js`) on a news
/// page, an ad slot that reads consent through `__tcfapi`, and an ad frame served from a second
/// origin (``ServerSettings/demoFramePort``) that reads it through `__tcfapiLocator`. The site
/// is the website `demo` (app `demo`) with twenty vendors, Google among them, and the demo's
/// ad-tech providers; its page key is a publishable key of the app `demo`, replaced at each start.
final class DemoSite: Sendable {
    /// The app id of the demo's website.
    static let appId = "demo"
    /// The id of the demo site's key, fixed so that the tokens of subjects the page created keep
    /// working after a restart.
    static let keyId = "demosite0000"

    private let state = Mutex<(key: String?, frameOrigin: String?)>((nil, nil))

    /// The frame origin, once its server listens.
    var frameOrigin: String? { state.withLock { $0.frameOrigin } }

    func setFrameOrigin(_ origin: String) { state.withLock { $0.frameOrigin = origin } }

    /// The page's publishable key, made on first use.
    func key(_ keys: APIKeys) async throws -> String {
        if let key = state.withLock({ $0.key }) { return key }
        let key = try await keys.replace(keyId: Self.keyId, appId: Self.appId, kind: .publishable, label: "the /demo site's page")
        state.withLock { $0.key = key }
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
