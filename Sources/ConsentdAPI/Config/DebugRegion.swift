/// A region to pretend to be in while testing, as in Google's Consent SDK: `GET /v1/config`'s
/// `debug_geo` parameter. The SDK sends it only from debug devices (see `RegionDebugSettings`);
/// the server then answers with ``AppConfig/GeoSource/debug``.
public enum DebugRegion: String, Sendable, Equatable, Codable, CaseIterable {
    /// Inside the EEA (GDPR applies).
    case eea
    /// Outside the EEA (GDPR does not apply).
    case notEEA = "not_eea"

    /// The query parameter's name.
    public static let queryName = "debug_geo"
}
