@testable import ConsentServer
import ConsentdAPI
import Foundation
import HTTPTypes
import Testing

/// The region decision's US state: the edge header's ISO 3166-2 code, the second header, the
/// CIDR table's `US-CA` entries and the debug region; values that name no state are ignored.
@Suite("Region resolver: US states")
struct RegionResolverTests {
    static let table = try! CIDRTable.parse("198.51.100.0/24,US-TX\n203.0.113.0/24,US\n192.0.2.0/24,DE\n", file: "table")
    static let resolver = RegionResolver(countryHeader: "CF-IPCountry", subdivisionHeader: "CF-Region-Code", table: table, allowsDebug: true)

    static func decide(country: String? = nil, region: String? = nil, address: String? = nil, debug: DebugRegion? = nil,
                       resolver: RegionResolver = resolver) -> RegionDecision {
        var headers = HTTPFields()
        if let country { headers[HTTPField.Name("CF-IPCountry")!] = country }
        if let region { headers[HTTPField.Name("CF-Region-Code")!] = region }
        return resolver.decide(headers: headers, address: address, debug: debug)
    }

    @Test("an ISO 3166-2 code in the country header gives the country and the state, in either case", arguments: ["US-CA", "us-ca", " Us-cA "])
    func headerWithState(value: String) {
        #expect(Self.decide(country: value)
            == RegionDecision(gdprApplies: false, region: .us, country: "US", subdivision: "CA", geoSource: .header))
    }

    @Test("a country alone in the header is a US visitor whose state is unknown")
    func headerWithoutState() {
        #expect(Self.decide(country: "US") == RegionDecision(gdprApplies: false, region: .us, country: "US", subdivision: nil, geoSource: .header))
    }

    @Test("the second header names the state of the country header's US")
    func secondHeader() {
        #expect(Self.decide(country: "US", region: "ny").subdivision == "NY")
        #expect(Self.decide(country: "US", region: "DC").subdivision == "DC")
    }

    @Test("the country header's own state wins over the second header's")
    func firstHeaderWins() {
        #expect(Self.decide(country: "US-CA", region: "TX").subdivision == "CA")
    }

    @Test("the second header is not read without a US country from the first", arguments: [nil, "DE"] as [String?])
    func secondHeaderNeedsACountry(country: String?) {
        let decision = Self.decide(country: country, region: "CA", address: "192.0.2.1")
        #expect(decision.subdivision == nil)
        #expect(decision.region == .eea)
    }

    @Test("a second header that names no state leaves the state unknown", arguments: ["ZZ", "PR", "", "CAL", "C"])
    func badSecondHeader(value: String) {
        #expect(Self.decide(country: "US", region: value) == RegionDecision(gdprApplies: false, region: .us, country: "US", geoSource: .header))
    }

    @Test("a country header value that is not a country or a US state is ignored: the CIDR table decides",
          arguments: ["US-ZZ", "US-PR", "US-", "US-CA-X", "USA-CA", "XX-CA", "US_CA", "-CA", "US-C@"])
    func badHeaderFallsThrough(value: String) {
        #expect(Self.decide(country: value, address: "198.51.100.7")
            == RegionDecision(gdprApplies: false, region: .us, country: "US", subdivision: "TX", geoSource: .cidr))
    }

    @Test("another country's subdivision keeps the country only")
    func otherCountrySubdivision() {
        #expect(Self.decide(country: "FR-75C") == RegionDecision(gdprApplies: true, region: .eea, country: "FR", geoSource: .header))
    }

    @Test("a CIDR entry may name a US state; one naming only US leaves the state unknown")
    func cidrState() {
        #expect(Self.decide(address: "198.51.100.200") == RegionDecision(gdprApplies: false, region: .us, country: "US", subdivision: "TX",
                                                                          geoSource: .cidr))
        #expect(Self.decide(address: "203.0.113.9") == RegionDecision(gdprApplies: false, region: .us, country: "US", geoSource: .cidr))
    }

    @Test("a CIDR table refuses a subdivision that is not a US state or DC, naming the line")
    func cidrBadState() {
        for entry in ["US-ZZ", "US-PR", "FR-75C", "US-", "US-CA-1"] {
            #expect(throws: ConfigurationError(
                file: "t", line: 2, field: nil,
                message: "\(entry) is not a two-letter country code, nor US- and a US state's or DC's code (such as US-CA)")) {
                try CIDRTable.parse("10.0.0.0/8,US\n10.1.0.0/16,\(entry)\n", file: "t")
            }
        }
        #expect((try? CIDRTable.parse("10.0.0.0/8,us-dc\n", file: "t"))?.place(for: "10.0.0.1") == .init(country: "US", subdivision: "DC"))
    }

    @Test("the example CIDR table loads; its US-CA line wins over the wider US one")
    func exampleTable() throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("config/countries.example.csv").path
        let table = try CIDRTable.load(path: path)
        #expect(table.place(for: "198.51.100.1") == .init(country: "US", subdivision: "CA"))
        #expect(table.place(for: "198.51.100.200") == .init(country: "US"))
    }

    @Test("a debug region of a state pretends that state, over every header")
    func debugState() {
        #expect(Self.decide(country: "DE", debug: DebugRegion(rawValue: "us-tx"))
            == RegionDecision(gdprApplies: false, region: .us, country: nil, subdivision: "TX", geoSource: .debug))
        #expect(Self.decide(country: "US-CA", debug: .us) == RegionDecision(gdprApplies: false, region: .us, country: nil, geoSource: .debug))
    }

    @Test("a debug region is ignored unless the operator allows it")
    func debugNeedsTheSetting() {
        var resolver = Self.resolver
        resolver.allowsDebug = false
        #expect(Self.decide(country: "US-CA", debug: .eea, resolver: resolver).subdivision == "CA")
    }

    @Test("debug regions: eea, not_eea, us and us- with a state's or DC's code in lower case, nothing else",
          arguments: ["EEA", "us-", "us-zz", "us-pr", "us-CA", "US-ca", "us_ca", "usa", "mars", ""])
    func debugForms(refused: String) {
        #expect(DebugRegion(rawValue: refused) == nil)
    }

    @Test("every debug region's text reads back as itself, with its region and state")
    func debugRoundTrip() {
        #expect(DebugRegion.allCases.count == 3 + 51)
        for debug in DebugRegion.allCases {
            #expect(DebugRegion(rawValue: debug.rawValue) == debug)
        }
        #expect(DebugRegion(rawValue: "us-dc")?.subdivision == "DC")
        #expect(DebugRegion(rawValue: "not_eea")?.region == .other)
        #expect(DebugRegion.us(state: "ca")?.rawValue == "us-ca")
    }
}
