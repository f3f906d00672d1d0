import ConsentdAPI
import Foundation

/// Where a request comes from, as far as the GDPR is concerned.
public struct RegionDecision: Codable, Sendable, Equatable {
    /// True in the EEA, the UK and Switzerland; false elsewhere; nil when the country is unknown.
    public var gdprApplies: Bool?
    /// The region.
    public var region: AppConfig.Region
    /// The ISO 3166-1 alpha-2 country, upper-case, when known.
    public var country: String?
    /// What the decision rests on.
    public var geoSource: AppConfig.GeoSource
}

/// Decides a request's region from a trusted edge header (such as Cloudflare's `CF-IPCountry`),
/// else a CIDR-to-country table, else "unknown".
public struct RegionResolver: Sendable {
    /// The header a trusted proxy sets to the client's country, nil to ignore headers.
    public var countryHeader: String?
    /// Networks and their countries, consulted when the header gives nothing.
    public var table: CIDRTable

    /// Creates a resolver.
    public init(countryHeader: String? = nil, table: CIDRTable = CIDRTable()) {
        self.countryHeader = countryHeader
        self.table = table
    }

    /// The EU member states plus Iceland, Liechtenstein and Norway.
    public static let eeaCountries: Set<String> = [
        "AT", "BE", "BG", "HR", "CY", "CZ", "DK", "EE", "FI", "FR", "DE", "GR", "HU", "IE", "IT", "LV", "LT", "LU",
        "MT", "NL", "PL", "PT", "RO", "SK", "SI", "ES", "SE", "IS", "LI", "NO",
    ]

    /// Decides; `headerValue` is the country header's value, `address` the client's IP address.
    public func decide(headerValue: String?, address: String?, debug: DebugRegion?) -> RegionDecision {
        if let debug {
            return debug == .eea
                ? RegionDecision(gdprApplies: true, region: .eea, country: nil, geoSource: .debug)
                : RegionDecision(gdprApplies: false, region: .other, country: nil, geoSource: .debug)
        }
        if let value = headerValue.map({ $0.trimmingCharacters(in: .whitespaces).uppercased() }), Self.isCountryCode(value) {
            return Self.decision(country: value, source: .header)
        }
        if let address, let country = table.country(for: address) {
            return Self.decision(country: country, source: .cidr)
        }
        return RegionDecision(gdprApplies: nil, region: .unknown, country: nil, geoSource: .none)
    }

    static func decision(country: String, source: AppConfig.GeoSource) -> RegionDecision {
        let region: AppConfig.Region =
            eeaCountries.contains(country) ? .eea : country == "GB" ? .uk : country == "CH" ? .ch : .other
        return RegionDecision(gdprApplies: region != .other, region: region, country: country, geoSource: source)
    }

    /// Two ASCII letters, and not one of the codes edges use for "unknown" (`XX`, Cloudflare's
    /// `T1` for Tor is not letters-only and fails anyway).
    static func isCountryCode(_ value: String) -> Bool {
        value.utf8.count == 2 && value.utf8.allSatisfy { (0x41...0x5A).contains($0) } && value != "XX" && value != "ZZ"
    }
}
