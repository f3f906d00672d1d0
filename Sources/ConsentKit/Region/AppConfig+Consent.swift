import TCF

extension AppConfig {
    /// The ad-tech providers' ids.
    public var adTechProviderIds: IDSet {
        IDSet(validIds: adTechProviders.map(\.id))
    }

    /// Whether any of the publishers serves only non-personalized ads.
    public var nonPersonalizedOnly: Bool {
        publishers.contains(where: \.nonPersonalizedOnly)
    }
}
