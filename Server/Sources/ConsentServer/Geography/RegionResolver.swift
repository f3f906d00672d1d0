import ConsentKit
import ConsentdAPI
import Foundation
import HTTPTypes

/// Where a request comes from: its region, country and US state.
public struct RegionDecision: Codable, Sendable, Equatable {
    /// True in the EEA, the UK and Switzerland; false elsewhere; nil when the country is unknown.
    public var gdprApplies: Bool?
    /// The region.
    public var region: AppConfig.Region
    /// The ISO 3166-1 alpha-2 country, upper-case, when known.
    public var country: String?
    /// The US state or DC (``ConsentdAPI/USStateCode``), when known.
    public var subdivision: String?
    /// What the decision rests on.
    public var geoSource: AppConfig.GeoSource

    /// The GPP sections in force here for a publisher with `settings` (ConsentKit's
    /// ``ConsentKit/USPrivacySettings/applicability(region:subdivision:)``).
    public func gpp(_ settings: USPrivacySettings) -> GPPApplicability {
        settings.applicability(region: region, subdivision: subdivision)
    }
}

/// Decides a request's region from, in order: the caller's debug region (when the operator
/// allows it), a trusted edge header (such as Cloudflare's `CF-IPCountry`, which may give an
/// ISO 3166-2 code such as `US-CA`, with an optional second header naming the subdivision, such
/// as `CF-Region-Code`), a CIDR table (whose entries may name `US-CA`), else "unknown". A value
/// that is not a country (or a US state) is ignored, never guessed at: the next source decides.
public struct RegionResolver: Sendable {
    /// The header a trusted proxy sets to the client's country (`DE`) or ISO 3166-2 subdivision
    /// (`US-CA`); nil to ignore headers.
    public var countryHeader: String?
    /// The header a trusted proxy sets to the client's subdivision alone (`CA`), read only with
    /// a country from ``countryHeader``; nil to read none.
    public var subdivisionHeader: String?
    /// Networks and their countries, consulted when the header gives nothing.
    public var table: CIDRTable
    /// Whether callers may pretend a region (`ServerSettings.allowDebugRegion`); when not, a
    /// debug region is ignored.
    public var allowsDebug: Bool

    /// Creates a resolver.
    public init(countryHeader: String? = nil, subdivisionHeader: String? = nil, table: CIDRTable = CIDRTable(), allowsDebug: Bool = false) {
        self.countryHeader = countryHeader
        self.subdivisionHeader = subdivisionHeader
        self.table = table
        self.allowsDebug = allowsDebug
    }

    /// The EU member states plus Iceland, Liechtenstein and Norway.
    public static let eeaCountries: Set<String> = [
        "AT", "BE", "BG", "HR", "CY", "CZ", "DK", "EE", "FI", "FR", "DE", "GR", "HU", "IE", "IT", "LV", "LT", "LU",
        "MT", "NL", "PL", "PT", "RO", "SK", "SI", "ES", "SE", "IS", "LI", "NO",
    ]

    /// The one region decision of a request (`GET /v1/config` and `POST /v1/web/session` alike):
    /// from its `headers`, the client's `address` and the caller's `debug` region.
    public func decide(headers: HTTPFields, address: String?, debug: DebugRegion?) -> RegionDecision {
        if let debug, allowsDebug {
            return RegionDecision(gdprApplies: debug.region == .eea, region: debug.region, country: nil, subdivision: debug.subdivision,
                                  geoSource: .debug)
        }
        if let place = countryHeader.flatMap({ Self.value(of: $0, in: headers) }).flatMap(Self.place) {
            var subdivision = place.subdivision
            if subdivision == nil, place.country == "US", let value = subdivisionHeader.flatMap({ Self.value(of: $0, in: headers) }) {
                subdivision = USStateCode.parse(value.trimmingCharacters(in: .whitespaces))
            }
            return Self.decision(country: place.country, subdivision: subdivision, source: .header)
        }
        if let address, let place = table.place(for: address) {
            return Self.decision(country: place.country, subdivision: place.subdivision, source: .cidr)
        }
        return RegionDecision(gdprApplies: nil, region: .unknown, country: nil, subdivision: nil, geoSource: .none)
    }

    private static func value(of header: String, in headers: HTTPFields) -> String? {
        HTTPField.Name(header).flatMap { headers[$0] }
    }

    static func decision(country: String, subdivision: String?, source: AppConfig.GeoSource) -> RegionDecision {
        let region: AppConfig.Region =
            eeaCountries.contains(country) ? .eea : country == "GB" ? .uk : country == "CH" ? .ch : country == "US" ? .us : .other
        return RegionDecision(gdprApplies: [.eea, .uk, .ch].contains(region), region: region, country: country,
                              subdivision: region == .us ? subdivision : nil, geoSource: source)
    }

    /// A country, and a US state when one is given.
    struct Place: Sendable, Equatable {
        var country: String
        var subdivision: String?
    }

    /// `text` (either case, spaces around ignored) as a place: a country code (`DE`), or an
    /// ISO 3166-2 code (`US-CA`; `FR-75C` keeps only the country, since only US states are kept
    /// for now). Nil when it is neither, or names a US subdivision that is not a state or DC.
    static func place(_ text: String) -> Place? {
        let parts = text.trimmingCharacters(in: .whitespaces).uppercased().split(separator: "-", omittingEmptySubsequences: false)
        guard let country = parts.first.map(String.init), isCountryCode(country) else { return nil }
        guard parts.count == 2 else { return parts.count == 1 ? Place(country: country) : nil }
        let suffix = parts[1]
        guard (1...3).contains(suffix.utf8.count), suffix.utf8.allSatisfy({ (0x41...0x5A).contains($0) || (0x30...0x39).contains($0) })
        else { return nil }
        guard country == "US" else { return Place(country: country) }
        return USStateCode.parse(suffix).map { Place(country: country, subdivision: $0) }
    }

    /// Two ASCII letters, and not one of the codes edges use for "unknown" (`XX`, Cloudflare's
    /// `T1` for Tor is not letters-only and fails anyway).
    static func isCountryCode(_ value: String) -> Bool {
        value.utf8.count == 2 && value.utf8.allSatisfy { (0x41...0x5A).contains($0) } && value != "XX" && value != "ZZ"
    }
}
