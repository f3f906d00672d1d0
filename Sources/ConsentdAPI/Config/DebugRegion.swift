/// A region to pretend to be in while testing, as in Google's Consent SDK: `GET /v1/config`'s
/// `debug_geo` parameter and `POST /v1/web/session`'s `debugRegion`. The SDK sends it only from
/// debug devices (see `RegionDebugSettings`); the server then answers with
/// ``AppConfig/GeoSource/debug``.
///
/// Written as text: `eea` (inside the EEA), `not_eea` (outside it, as `other`), `us` (in the
/// United States, state unknown) or `us-xx` for a state or DC (`us-ca`; ``USStateCode``).
public struct DebugRegion: Sendable, Hashable, Codable, RawRepresentable, CaseIterable, CustomStringConvertible {
    /// The region pretended: ``AppConfig/Region/eea``, ``AppConfig/Region/other`` or
    /// ``AppConfig/Region/us``.
    public let region: AppConfig.Region
    /// The US state pretended (a ``USStateCode``), nil when none is.
    public let subdivision: String?

    private init(region: AppConfig.Region, subdivision: String? = nil) {
        self.region = region
        self.subdivision = subdivision
    }

    /// Inside the EEA (GDPR applies).
    public static let eea = DebugRegion(region: .eea)
    /// Outside the EEA (GDPR does not apply; region ``AppConfig/Region/other``).
    public static let notEEA = DebugRegion(region: .other)
    /// In the United States, state unknown.
    public static let us = DebugRegion(region: .us)

    /// In the US state (or DC) `code` (`"CA"`, either case); nil when it names none.
    public static func us(state code: String) -> DebugRegion? {
        USStateCode.parse(code).map { DebugRegion(region: .us, subdivision: $0) }
    }

    /// Parses the text form (`eea`, `not_eea`, `us`, `us-ca`, lower case); nil for anything else.
    public init?(rawValue: String) {
        switch rawValue {
        case "eea": self = .eea
        case "not_eea": self = .notEEA
        case "us": self = .us
        default:
            guard rawValue.hasPrefix("us-"), let state = Self.us(state: String(rawValue.dropFirst(3))), state.rawValue == rawValue else { return nil }
            self = state
        }
    }

    /// The text form: `eea`, `not_eea`, `us` or `us-` and the state's code in lower case.
    public var rawValue: String {
        switch region {
        case .eea: "eea"
        case .us: subdivision.map { "us-" + $0.lowercased() } ?? "us"
        default: "not_eea"
        }
    }

    /// ``rawValue``.
    public var description: String { rawValue }

    /// Every debug region: `eea`, `not_eea`, `us`, then each state's and DC's (`us-ak` …
    /// `us-wy`, in the order of their text).
    public static let allCases: [DebugRegion] =
        [.eea, .notEEA, .us] + USStateCode.all.sorted().compactMap { us(state: $0) }.sorted { $0.rawValue < $1.rawValue }

    /// The forms the text takes, for error messages and documentation.
    public static let forms = "eea, not_eea, us or us-XX (a US state's or DC's two-letter code, such as us-ca)"

    /// The query parameter's name.
    public static let queryName = "debug_geo"
}
