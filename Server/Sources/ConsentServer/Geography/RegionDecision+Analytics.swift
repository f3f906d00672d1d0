import ConsentdAPI

extension RegionDecision {
    /// The region as the analytics count it: `eea`, `uk`, `ch`, `us` (`us-ca` with the state),
    /// `other` or `unknown`.
    var analyticsRegion: String {
        guard region == .us, let subdivision else { return region.rawValue }
        return "us-" + subdivision.lowercased()
    }
}
