import Foundation
import TCF

/// consentd's answer to `GET /v1/config`: the region decision and what the app's publishers use.
public struct AppConfig: Sendable, Equatable, Codable {
    /// A Google ad-tech provider (Additional Consent).
    public struct AdTechProvider: Sendable, Equatable, Codable {
        /// The provider's id in Google's list.
        public var id: Int
        /// Its name.
        public var name: String
        /// Its privacy policy.
        public var privacyPolicyUrl: String

        /// Creates a provider.
        public init(id: Int, name: String, privacyPolicyUrl: String) {
            self.id = id
            self.name = name
            self.privacyPolicyUrl = privacyPolicyUrl
        }
    }

    /// One publisher of the app.
    public struct Publisher: Sendable, Equatable, Codable {
        /// The publisher id.
        public var id: String
        /// Its name.
        public var name: String
        /// The IAB vendors it uses.
        public var vendorIds: [Int]
        /// The Google ad-tech providers it uses.
        public var adTechProviders: [AdTechProvider]
        /// It serves only non-personalized ads.
        public var nonPersonalizedOnly: Bool

        /// Creates a publisher.
        public init(id: String, name: String, vendorIds: [Int], adTechProviders: [AdTechProvider], nonPersonalizedOnly: Bool) {
            self.id = id
            self.name = name
            self.vendorIds = vendorIds
            self.adTechProviders = adTechProviders
            self.nonPersonalizedOnly = nonPersonalizedOnly
        }
    }

    /// The app the key belongs to.
    public var appId: String
    /// Whether GDPR applies to the caller; nil when the server could not tell.
    public var gdprApplies: Bool?
    /// `eea`, `uk`, `ch`, `other` or `unknown`.
    public var region: String
    /// The caller's ISO 3166-1 alpha-2 country, when known.
    public var country: String?
    /// Where the decision came from: `header`, `cidr`, `debug` or `none`.
    public var geoSource: String
    /// The publishers asked for.
    public var publishers: [Publisher]
    /// The union of their vendor ids, ascending.
    public var vendorIds: [Int]
    /// The union of their ad-tech providers.
    public var adTechProviders: [AdTechProvider]
    /// The vendor list version the server holds.
    public var vendorListVersion: Int
    /// Its TCF policy version.
    public var tcfPolicyVersion: Int

    /// Creates a configuration (the server's answer, or one an app supplies itself).
    public init(
        appId: String, gdprApplies: Bool?, region: String, country: String?, geoSource: String, publishers: [Publisher],
        vendorIds: [Int], adTechProviders: [AdTechProvider], vendorListVersion: Int, tcfPolicyVersion: Int
    ) {
        self.appId = appId
        self.gdprApplies = gdprApplies
        self.region = region
        self.country = country
        self.geoSource = geoSource
        self.publishers = publishers
        self.vendorIds = vendorIds
        self.adTechProviders = adTechProviders
        self.vendorListVersion = vendorListVersion
        self.tcfPolicyVersion = tcfPolicyVersion
    }

    /// The ad-tech providers' ids.
    public var adTechProviderIds: IDSet {
        IDSet(validIds: adTechProviders.map(\.id))
    }

    /// Whether any of the publishers serves only non-personalized ads.
    public var nonPersonalizedOnly: Bool {
        publishers.contains(where: \.nonPersonalizedOnly)
    }
}
