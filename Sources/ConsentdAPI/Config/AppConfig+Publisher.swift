extension AppConfig {
    /// One publisher of the app, as the server's publisher configuration lists it.
    public struct Publisher: Sendable, Hashable, Codable {
        /// The publisher id apps send (for example an AdMob `pub-…` id).
        public var id: String
        /// The publisher's name.
        public var name: String
        /// The IAB vendor ids the publisher works with, ascending.
        public var vendorIds: [Int]
        /// The ad-tech providers outside the IAB framework (Google's Additional Consent ids).
        public var adTechProviders: [AdTechProvider]
        /// Whether the publisher serves only non-personalized ads.
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

    /// A Google ad-tech provider (an id of Google's Additional Consent list).
    public struct AdTechProvider: Sendable, Hashable, Codable {
        /// The provider's id in Google's ad-tech provider list.
        public var id: Int
        /// The provider's name.
        public var name: String
        /// Where its privacy policy is.
        public var privacyPolicyUrl: String

        /// Creates a provider.
        public init(id: Int, name: String, privacyPolicyUrl: String) {
            self.id = id
            self.name = name
            self.privacyPolicyUrl = privacyPolicyUrl
        }
    }
}
