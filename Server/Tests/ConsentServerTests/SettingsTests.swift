@testable import ConsentServer
@testable import ConsentRequests
import ConsentKitFormats
import ConsentdAPI
import Foundation
import HTTPTypes
import Synchronization
import Testing

/// The publisher configuration, the CIDR table and the region decision.
@Suite("Settings and geography")
struct SettingsTests {
    @Test("the example publisher configuration loads")
    func exampleLoads() throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("config/publishers.example.yaml").path
        let configuration = try PublisherConfiguration.load(path: path)
        #expect(configuration.publishers.count == 2)
        let news = try #require(configuration.publishers["pub-0000000000000001"])
        #expect(news.vendorIds == [21, 32, 52, 755])
        #expect(news.adTechProviders == [.init(id: 89, name: "Example Ad Network", privacyPolicyUrl: "https://ads.example.com/privacy")])
        #expect(configuration.publishers["pub-0000000000000002"]?.nonPersonalizedOnly == true)
    }

    @Test("a bad configuration names the file, line and field", arguments: [
        ("publishers:\n  - id: a\n    name: A\n    vendorIds: [1, x]\n", 4, "publishers[0].vendorIds[1]"),
        ("publishers:\n  - id: a\n    name: A\n    vendorIds: [70000]\n", 4, "publishers[0].vendorIds[0]"),
        ("publishers:\n  - id: a\n    nme: A\n", 3, "publishers[0].nme"),
        ("publishers:\n  - id: a\n    vendorIds: []\n", 2, "publishers[0].name"),
        ("publishers:\n  - id: a\n    name: A\n  - id: a\n    name: B\n", 4, "publishers[1].id"),
        ("publishers:\n  - id: a\n    name: A\n    adTechProviders:\n      - id: 1\n        name: P\n        privacyPolicyUrl: nope\n", 7,
         "publishers[0].adTechProviders[0].privacyPolicyUrl"),
        ("publishers:\n  - id: a\n    name: A\n    nonPersonalizedOnly: perhaps\n", 4, "publishers[0].nonPersonalizedOnly"),
        ("publishers: {id: a}\n", 1, "publishers"),
        ("colours: []\n", 1, "colours"),
    ] as [(String, Int, String)])
    func badConfiguration(text: String, line: Int, field: String) {
        #expect {
            try PublisherConfiguration.parse(text, file: "publishers.yaml")
        } throws: { error in
            let error = error as! ConfigurationError
            return error.file == "publishers.yaml" && error.line == line && error.field == field
                && error.description.hasPrefix("publishers.yaml:\(line): \(field) ")
        }
    }

    @Test("broken YAML names the line the parser stopped at")
    func brokenYAML() {
        #expect {
            try PublisherConfiguration.parse("publishers:\n  - id: [a\n    name: b\n", file: "p.yaml")
        } throws: { error in
            (error as? ConfigurationError)?.line != nil && "\(error)".hasPrefix("p.yaml:")
        }
    }

    @Test("consentd refuses to start on a bad configuration, saying where")
    func startRefusesBadConfiguration() async throws {
        let directory = temporaryDirectory()
        let file = directory.appendingPathComponent("publishers.yaml")
        try "publishers:\n  - id: a\n    name: A\n    vendorIds: [0]\n".write(to: file, atomically: true, encoding: .utf8)
        var settings = ServerSettings()
        settings.databaseURL = "sqlite:" + directory.appendingPathComponent("db.sqlite").path
        settings.secretFile = directory.appendingPathComponent("secret").path
        settings.publishersFile = file.path
        await #expect {
            try await Consentd.start(settings: settings, logger: .init(label: "test"))
        } throws: { error in
            "\(error)" == "\(file.path):4: publishers[0].vendorIds[0] is 0; it must lie in 1...65535"
        }
    }

    @Test("the CIDR table matches the longest prefix, IPv4, IPv6 and mapped addresses")
    func cidrTable() throws {
        let table = try CIDRTable.parse("""
            # comment
            10.0.0.0/8,DE
            10.1.0.0/16,FR   # more specific
            2001:db8::/32,NL
            0.0.0.0/0,US
            """, file: "t")
        #expect(table.place(for: "10.2.3.4")?.country == "DE")
        #expect(table.place(for: "10.1.3.4")?.country == "FR")
        #expect(table.place(for: "8.8.8.8")?.country == "US")
        #expect(table.place(for: "::ffff:10.1.0.1")?.country == "FR")
        #expect(table.place(for: "2001:db8::1")?.country == "NL")
        #expect(table.place(for: "2001:db9::1") == nil)
        #expect(table.place(for: "not an address") == nil)
        #expect(throws: ConfigurationError(file: "t", line: 2, field: nil, message: "10.0.0.0/33 is not a network in CIDR notation")) {
            try CIDRTable.parse("# x\n10.0.0.0/33,DE\n", file: "t")
        }
        #expect(throws: ConfigurationError(file: "t", line: 1, field: nil, message: "Germany is not a two-letter country code, nor US- and a US state's or DC's code (such as US-CA)")) {
            try CIDRTable.parse("10.0.0.0/8,Germany\n", file: "t")
        }
    }

    @Test("EEA, UK and Switzerland apply; the US and other countries do not; unknown stays unknown")
    func regions() {
        let resolver = RegionResolver(countryHeader: "CF-IPCountry", allowsDebug: true)
        func decide(_ value: String, address: String? = nil, debug: DebugRegion? = nil) -> RegionDecision {
            resolver.decide(headers: [HTTPField.Name("CF-IPCountry")!: value], address: address, debug: debug)
        }
        for country in RegionResolver.eeaCountries {
            #expect(decide(country).region == .eea)
        }
        #expect(RegionResolver.eeaCountries.count == 30)
        #expect(decide("GB") == .init(gdprApplies: true, region: .uk, country: "GB", geoSource: .header))
        #expect(decide("ch").region == .ch)
        #expect(decide("US") == .init(gdprApplies: false, region: .us, country: "US", geoSource: .header))
        #expect(decide("JP") == .init(gdprApplies: false, region: .other, country: "JP", geoSource: .header))
        for unknown in ["XX", "T1", "", "DEU"] {
            #expect(decide(unknown, address: "192.0.2.1") == .init(gdprApplies: nil, region: .unknown, country: nil, geoSource: .none))
        }
        #expect(decide("US", debug: .eea).gdprApplies == true)
        #expect(decide("DE", debug: .notEEA).gdprApplies == false)
    }

    @Test("timestamps parse with offsets and any fraction, and print UTC with milliseconds")
    func timestamps() {
        #expect(ISO8601.date("2017-11-07T19:15:55.4Z").map(ISO8601.format) == "2017-11-07T19:15:55.400Z")
        #expect(ISO8601.date("2026-11-23T10:15:30.123456789+01:30").map(ISO8601.format) == "2026-11-23T08:45:30.123Z")
        #expect(ISO8601.date("2024-02-29T00:00:00-00:00").map(ISO8601.format) == "2024-02-29T00:00:00.000Z")
        // Seed 002's own format, yyyy-MM-dd'T'HH:mm:ss.SSSZ, writes the offset without a colon.
        #expect(ISO8601.date("2026-11-23T10:15:30.250+0000").map(ISO8601.format) == "2026-11-23T10:15:30.250Z")
        #expect(ISO8601.date("2026-11-23T10:15:30.250+0130").map(ISO8601.format) == "2026-11-23T08:45:30.250Z")
        #expect(ISO8601.date("2026-11-23T10:15:30.250-0500").map(ISO8601.format) == "2026-11-23T15:15:30.250Z")
        for bad in ["2023-02-29T00:00:00Z", "2026-11-23T10:15:30", "2026-11-23 10:15:30Z", "2026-13-01T00:00:00Z", "2026-11-23T10:15:30.Z", "x",
                    "2026-11-23T10:15:30+01", "2026-11-23T10:15:30+01:0", "2026-11-23T10:15:30+010", "2026-11-23T10:15:30+2400",
                    "2026-11-23T10:15:30+01:00Z"] {
            #expect(ISO8601.date(bad) == nil)
        }
        #expect(ISO8601.format(milliseconds: -1) == "1969-12-31T23:59:59.999Z")
    }

    @Test("Additional Consent strings are checked for shape")
    func additionalConsent() {
        for good in ["2~~dv.", "2~1.35.41~dv.", "2~~dv.9.21", "2~89~dv", "1~89.2008", "1~", "2~2147483647~dv."] {
            #expect(AdditionalConsent.isWellFormed(good), "\(good)")
        }
        for bad in ["", "~1", "2~a", "2~1..2", "2~1~x.3", "2~1~dv.3~4", "0~1", "1", "2", "2~", "2~1.35", "2~+5~dv.", "2~-5~dv.",
                    "2~99999999999~dv.", "2~2147483648~dv.", "2~0~dv.", "2~1~dv.+3", "3~1~dv.", "1~1~dv.2", "2~ 1~dv."] {
            #expect(!AdditionalConsent.isWellFormed(bad), "\(bad)")
            #expect(!AdditionalConsent.isWellFormed(bad))
        }
    }

    @Test("rate limits refill over time")
    func rateLimiter() {
        let now = Mutex(0.0)
        let limiter = RateLimiter(limit: RateLimit(perSecond: 2, burst: 2), clock: { now.withLock { $0 } })
        #expect(limiter.take("a") == nil)
        #expect(limiter.take("a") == nil)
        #expect(limiter.take("a") == 1)
        #expect(limiter.take("b") == nil)
        now.withLock { $0 = 0.5 }
        #expect(limiter.take("a") == nil)
        #expect(limiter.take("a") != nil)
        // At 0.5/s an empty bucket needs 2 s for a token: Retry-After 2.
        let slow = RateLimiter(limit: RateLimit(perSecond: 0.5, burst: 2), clock: { now.withLock { $0 } })
        #expect(slow.take("a") == nil)
        #expect(slow.take("a") == nil)
        #expect(slow.take("a") == 2)
        #expect(RateLimit(parsing: "100/300") == RateLimit(perSecond: 100, burst: 300))
        #expect(RateLimit(parsing: "fast") == nil)
    }
}
