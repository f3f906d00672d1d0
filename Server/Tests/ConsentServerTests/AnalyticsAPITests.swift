@testable import ConsentServer
import ConsentKit
import ConsentdAPI
import Foundation
import GPP
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

/// Consent analytics (issue 29 §3, docs/decisions/0039): rollups the append path keeps, read
/// through `GET /v1/analytics/{report}` with the secret key. Known events go in through the real
/// append route on SQLite (and PostgreSQL when configured); every figure and the CSV come back.
@Suite("Consent analytics")
struct AnalyticsAPITests {
    /// A consentd on `engine` and a fresh app with its secret and publishable keys.
    struct Fixture {
        let server: TestServer
        let appId: String
        let secret: String
        let publishable: String
    }

    static func fixture(_ engine: StoreEngine) async throws -> Fixture {
        let server = try await TestServer.make { settings in
            if engine == .postgresql, let url = StoreEngine.postgresURL { settings.databaseURL = url }
        }
        let appId = uniqueAppId()
        let secret = try await server.consentd.keys.create(appId: appId, kind: .secret, label: "backend").token
        let publishable = try await server.consentd.keys.create(appId: appId, kind: .publishable, label: "app").token
        return Fixture(server: server, appId: appId, secret: secret, publishable: publishable)
    }

    /// The days the events are collected on: Monday and Tuesday of ISO week 2026-W45, Monday of W46.
    static let monday = "2026-11-02", tuesday = "2026-11-03", nextMonday = "2026-11-09"

    /// An event body: its subject, day, consent fields (JSON members) and proof.
    static func body(id: UUID = UUID(), subject: String, day: String, consent: String, language: String, platform: String,
                     noticeVersion: String, method: String) -> String {
        """
        {"eventId": "\(id.uuidString)", "subjectId": "\(subject)", "collectedAt": "\(day)T10:00:00.000Z"\(consent.isEmpty ? "" : ", " + consent),
         "proof": {"noticeId": "main", "noticeVersion": "\(noticeVersion)", "language": "\(language)", "sdkVersion": "1.0.0",
                   "platform": "\(platform)", "method": "\(method)"}}
        """
    }

    /// A California GPP string made by the SDK's encoder from a US choice and the GPC signal.
    static func californiaGPP(optedOut: Bool, sensitiveLimited: Bool, gpc: Bool) throws -> String {
        let choice = USPrivacyChoice(saleOptOut: optedOut, sharingOptOut: optedOut, targetedAdvertisingOptOut: optedOut,
                                     sensitiveDataLimited: sensitiveLimited, noticeVersion: 1, language: "en", decided: Date())
        let sections = USPrivacyChoice.gppSections(of: choice, applicability: GPPApplicability(applicableSections: [8]),
                                                   signals: USPrivacySignals(gpc: gpc))
        return try GPPString(sections: sections).encoded()
    }

    /// The events every test seeds, each sent from its country (`CF-IPCountry`):
    /// - Monday, DE, ios, notice 3: accept all (purposes 1-3 consented, 2 by legitimate
    ///   interest, special feature 1, vendors 1 and 755, 755 by legitimate interest,
    ///   personalized ads, Additional Consent to provider 89 of 89 and 1301);
    /// - Monday, GB, web, notice 3: reject all (empty lists, non-personalized ads, AC to none of 89);
    /// - Monday, DE, android, notice 2: custom (purpose 1, purpose 2 by legitimate interest,
    ///   vendor 755, non-personalized ads);
    /// - Tuesday, US-CA, web: "Do Not Sell or Share" (every opt-out, sensitive data limited, GPC);
    /// - Tuesday, US-CA, web: "Continue" (no opt-out, no GPC);
    /// - next Monday, DE, ios: a withdrawal.
    /// The first is sent twice (a retry), which counts once.
    static func seed(_ fixture: Fixture, _ client: some TestClientProtocol) async throws -> [String: String] {
        let acceptAll = body(subject: "s-accept", day: monday, consent: """
            "purposeConsents": [1, 2, 3], "purposeLegitimateInterests": [2], "specialFeatureOptins": [1],
            "vendorConsents": [1, 755], "vendorLegitimateInterests": [755], "googleAdsChoice": "personalized",
            "additionalConsent": "2~89~dv.1301"
            """, language: "de", platform: "ios", noticeVersion: "3", method: "acceptAll")
        let events: [(String, String)] = [
            ("DE", acceptAll),
            ("DE", acceptAll),
            ("GB", body(subject: "s-reject", day: monday, consent: """
                "purposeConsents": [], "purposeLegitimateInterests": [], "vendorConsents": [], "vendorLegitimateInterests": [],
                "googleAdsChoice": "nonPersonalized", "additionalConsent": "2~~dv.89"
                """, language: "en", platform: "web", noticeVersion: "3", method: "rejectAll")),
            ("DE", body(subject: "s-custom", day: monday, consent: """
                "purposeConsents": [1], "purposeLegitimateInterests": [2], "vendorConsents": [755], "googleAdsChoice": "nonPersonalized"
                """, language: "de", platform: "android", noticeVersion: "2", method: "custom")),
            ("US-CA", body(subject: "s-optout", day: tuesday,
                           consent: "\"gppString\": \"\(try californiaGPP(optedOut: true, sensitiveLimited: true, gpc: true))\"",
                           language: "en", platform: "web", noticeVersion: "1", method: "rejectAll")),
            ("US-CA", body(subject: "s-continue", day: tuesday,
                           consent: "\"gppString\": \"\(try californiaGPP(optedOut: false, sensitiveLimited: false, gpc: false))\"",
                           language: "en", platform: "web", noticeVersion: "1", method: "acceptAll")),
            ("DE", body(subject: "s-withdrawn", day: nextMonday, consent: "", language: "de", platform: "ios", noticeVersion: "3",
                        method: "withdrawal")),
        ]
        var statuses: [String: String] = [:]
        for (index, (country, json)) in events.enumerated() {
            let response = try await client.send(.post, "/v1/consents", bearer: fixture.secret, json: json,
                                                 headers: [HTTPField.Name("CF-IPCountry")!: country])
            statuses["\(index)"] = String(response.status.code)
        }
        return statuses
    }

    /// The rows of a JSON answer as `period group item count/of rate` lines.
    static func lines(_ response: TestResponse) -> [String] {
        (response.object["rows"] as? [[String: Any]] ?? []).map { row in
            "\(row["period"] ?? "") \(row["group"] ?? "") \(row["item"] ?? "") \(row["count"] ?? "")/\(row["of"] ?? "") \(String(format: "%.4f", row["rate"] as? Double ?? -1))"
        }
    }

    /// Runs `body` on a seeded fixture of `engine`.
    static func seeded(_ engine: StoreEngine, _ body: @escaping @Sendable (Fixture, any TestClientProtocol) async throws -> Void) async throws {
        let fixture = try await fixture(engine)
        try await fixture.server.test { client in
            let statuses = try await seed(fixture, client)
            #expect(statuses == ["0": "201", "1": "200", "2": "201", "3": "201", "4": "201", "5": "201", "6": "201"])
            try await body(fixture, client)
        }
    }

    static let range = "from=2026-11-01&to=2026-11-30"

    @Test("choices per day: each outcome's events out of the day's, a retry counted once", arguments: StoreEngine.configured)
    func choicesPerDay(engine: StoreEngine) async throws {
        try await Self.seeded(engine) { fixture, client in
            let response = try await client.send(.get, "/v1/analytics/choices?\(Self.range)", bearer: fixture.secret)
            #expect(response.status == .ok)
            #expect(Self.lines(response) == [
                "2026-11-02 all acceptAll 1/3 0.3333", "2026-11-02 all custom 1/3 0.3333", "2026-11-02 all rejectAll 1/3 0.3333",
                "2026-11-03 all acceptAll 1/2 0.5000", "2026-11-03 all rejectAll 1/2 0.5000",
                "2026-11-09 all withdrawn 1/1 1.0000",
            ])
            #expect(response.object["report"] as? String == "choices" && response.object["from"] as? String == "2026-11-01"
                    && response.object["to"] as? String == "2026-11-30" && response.object["granularity"] as? String == "day")
        }
    }

    @Test("choices per ISO week are the sums of its days", arguments: StoreEngine.configured)
    func choicesPerWeek(engine: StoreEngine) async throws {
        try await Self.seeded(engine) { fixture, client in
            let response = try await client.send(.get, "/v1/analytics/choices?\(Self.range)&granularity=week", bearer: fixture.secret)
            #expect(Self.lines(response) == [
                "2026-W45 all acceptAll 2/5 0.4000", "2026-W45 all custom 1/5 0.2000", "2026-W45 all rejectAll 2/5 0.4000",
                "2026-W46 all withdrawn 1/1 1.0000",
            ])
        }
    }

    @Test("choices by region count each event where it was sent from, a US state as us-xx", arguments: StoreEngine.configured)
    func choicesByRegion(engine: StoreEngine) async throws {
        try await Self.seeded(engine) { fixture, client in
            let response = try await client.send(.get, "/v1/analytics/choices?\(Self.range)&by=region", bearer: fixture.secret)
            #expect(Self.lines(response) == [
                "2026-11-02 eea acceptAll 1/2 0.5000", "2026-11-02 eea custom 1/2 0.5000", "2026-11-02 uk rejectAll 1/1 1.0000",
                "2026-11-03 us-ca acceptAll 1/2 0.5000", "2026-11-03 us-ca rejectAll 1/2 0.5000",
                "2026-11-09 eea withdrawn 1/1 1.0000",
            ])
            #expect(response.object["by"] as? String == "region")
        }
    }

    @Test("choices by platform, language, notice version and method group by the proof's values", arguments: StoreEngine.configured)
    func choicesByProof(engine: StoreEngine) async throws {
        try await Self.seeded(engine) { fixture, client in
            let week = "\(Self.range)&granularity=week"
            let platform = try await client.send(.get, "/v1/analytics/choices?\(week)&by=platform", bearer: fixture.secret)
            #expect(Self.lines(platform) == [
                "2026-W45 android custom 1/1 1.0000", "2026-W45 ios acceptAll 1/1 1.0000",
                "2026-W45 web acceptAll 1/3 0.3333", "2026-W45 web rejectAll 2/3 0.6667",
                "2026-W46 ios withdrawn 1/1 1.0000",
            ])
            let language = try await client.send(.get, "/v1/analytics/choices?\(week)&by=language", bearer: fixture.secret)
            #expect(Self.lines(language) == [
                "2026-W45 de acceptAll 1/2 0.5000", "2026-W45 de custom 1/2 0.5000",
                "2026-W45 en acceptAll 1/3 0.3333", "2026-W45 en rejectAll 2/3 0.6667",
                "2026-W46 de withdrawn 1/1 1.0000",
            ])
            let version = try await client.send(.get, "/v1/analytics/choices?\(week)&by=noticeVersion", bearer: fixture.secret)
            #expect(Self.lines(version) == [
                "2026-W45 1 acceptAll 1/2 0.5000", "2026-W45 1 rejectAll 1/2 0.5000", "2026-W45 2 custom 1/1 1.0000",
                "2026-W45 3 acceptAll 1/2 0.5000", "2026-W45 3 rejectAll 1/2 0.5000",
                "2026-W46 3 withdrawn 1/1 1.0000",
            ])
            let method = try await client.send(.get, "/v1/analytics/choices?\(week)&by=method", bearer: fixture.secret)
            #expect(Self.lines(method) == [
                "2026-W45 acceptAll acceptAll 2/2 1.0000", "2026-W45 custom custom 1/1 1.0000", "2026-W45 rejectAll rejectAll 2/2 1.0000",
                "2026-W46 withdrawal withdrawn 1/1 1.0000",
            ])
        }
    }

    @Test("purposes: consents, legitimate interests and special features out of the events with TCF choices", arguments: StoreEngine.configured)
    func purposes(engine: StoreEngine) async throws {
        try await Self.seeded(engine) { fixture, client in
            let response = try await client.send(.get, "/v1/analytics/purposes?\(Self.range)", bearer: fixture.secret)
            #expect(Self.lines(response) == [
                "2026-11-02 purposeConsent 1 2/3 0.6667", "2026-11-02 purposeConsent 2 1/3 0.3333", "2026-11-02 purposeConsent 3 1/3 0.3333",
                "2026-11-02 purposeLegitimateInterest 2 2/3 0.6667", "2026-11-02 specialFeatureOptin 1 1/3 0.3333",
            ])
        }
    }

    @Test("vendors: consents, legitimate interests and Additional Consent providers, ids in numeric order", arguments: StoreEngine.configured)
    func vendors(engine: StoreEngine) async throws {
        try await Self.seeded(engine) { fixture, client in
            let response = try await client.send(.get, "/v1/analytics/vendors?\(Self.range)", bearer: fixture.secret)
            #expect(Self.lines(response) == [
                "2026-11-02 additionalConsent 89 1/3 0.3333",
                "2026-11-02 vendorConsent 1 1/3 0.3333", "2026-11-02 vendorConsent 755 2/3 0.6667",
                "2026-11-02 vendorLegitimateInterest 755 1/3 0.3333",
            ])
        }
    }

    @Test("google: the ads choice split and the events with an Additional Consent string", arguments: StoreEngine.configured)
    func google(engine: StoreEngine) async throws {
        try await Self.seeded(engine) { fixture, client in
            let response = try await client.send(.get, "/v1/analytics/google?\(Self.range)", bearer: fixture.secret)
            #expect(Self.lines(response) == [
                "2026-11-02 google additionalConsent 2/3 0.6667", "2026-11-02 google nonPersonalized 2/3 0.6667",
                "2026-11-02 google personalized 1/3 0.3333",
            ])
        }
    }

    @Test("us: each opt-out, the sensitive-data limit and GPC out of the events with a US section", arguments: StoreEngine.configured)
    func us(engine: StoreEngine) async throws {
        try await Self.seeded(engine) { fixture, client in
            let response = try await client.send(.get, "/v1/analytics/us?\(Self.range)", bearer: fixture.secret)
            // usca has no targeted-advertising opt-out.
            #expect(Self.lines(response) == [
                "2026-11-03 us gpc 1/2 0.5000", "2026-11-03 us saleOptOut 1/2 0.5000", "2026-11-03 us sensitiveDataLimit 1/2 0.5000",
                "2026-11-03 us sharingOptOut 1/2 0.5000",
            ])
        }
    }

    @Test("CSV: the same figures, by Accept or format=csv, cells that could run as formulas made text", arguments: StoreEngine.configured)
    func csv(engine: StoreEngine) async throws {
        try await Self.seeded(engine) { fixture, client in
            let expected = "period,group,item,count,of,rate\r\n"
                + "2026-W45,eea,acceptAll,1,2,0.5000\r\n2026-W45,eea,custom,1,2,0.5000\r\n2026-W45,uk,rejectAll,1,1,1.0000\r\n"
                + "2026-W45,us-ca,acceptAll,1,2,0.5000\r\n2026-W45,us-ca,rejectAll,1,2,0.5000\r\n"
                + "2026-W46,eea,withdrawn,1,1,1.0000\r\n"
            let uri = "/v1/analytics/choices?\(Self.range)&granularity=week&by=region"
            let accepted = try await client.send(.get, uri, bearer: fixture.secret, headers: [.accept: "text/csv"])
            #expect(accepted.headers[.contentType] == "text/csv; charset=utf-8")
            #expect(String(buffer: accepted.body) == expected)
            let formatted = try await client.send(.get, uri + "&format=csv", bearer: fixture.secret)
            #expect(String(buffer: formatted.body) == expected)
            #expect(AnalyticsController.cell("=1+1") == "'=1+1" && AnalyticsController.cell("a,\"b\"") == "\"a,\"\"b\"\"\"")
        }
    }

    @Test("a page holds at most limit rows; its cursor continues it", arguments: StoreEngine.configured)
    func paging(engine: StoreEngine) async throws {
        try await Self.seeded(engine) { fixture, client in
            let first = try await client.send(.get, "/v1/analytics/choices?\(Self.range)&limit=4", bearer: fixture.secret)
            let cursor = try #require(first.object["nextCursor"] as? String)
            let second = try await client.send(.get, "/v1/analytics/choices?\(Self.range)&limit=4&cursor=\(cursor)", bearer: fixture.secret)
            #expect(second.object["nextCursor"] is NSNull)
            #expect(Self.lines(first) + Self.lines(second) == Self.lines(
                try await client.send(.get, "/v1/analytics/choices?\(Self.range)", bearer: fixture.secret)))
            #expect(Self.lines(first).count == 4 && Self.lines(second).count == 2)
        }
    }

    @Test("erasing a subject takes its events out of every figure", arguments: StoreEngine.configured)
    func erasure(engine: StoreEngine) async throws {
        try await Self.seeded(engine) { fixture, client in
            #expect(try await client.send(.delete, "/v1/subjects/s-accept", bearer: fixture.secret).status == .ok)
            #expect(try await client.send(.delete, "/v1/subjects/s-optout", bearer: fixture.secret).status == .ok)
            let choices = try await client.send(.get, "/v1/analytics/choices?\(Self.range)&by=region", bearer: fixture.secret)
            #expect(Self.lines(choices) == [
                "2026-11-02 eea custom 1/1 1.0000", "2026-11-02 uk rejectAll 1/1 1.0000",
                "2026-11-03 us-ca acceptAll 1/1 1.0000",
                "2026-11-09 eea withdrawn 1/1 1.0000",
            ])
            let purposes = try await client.send(.get, "/v1/analytics/purposes?\(Self.range)", bearer: fixture.secret)
            #expect(Self.lines(purposes) == ["2026-11-02 purposeConsent 1 1/2 0.5000", "2026-11-02 purposeLegitimateInterest 2 1/2 0.5000"])
            let vendors = try await client.send(.get, "/v1/analytics/vendors?\(Self.range)", bearer: fixture.secret)
            #expect(Self.lines(vendors) == ["2026-11-02 vendorConsent 755 1/2 0.5000"])
            let us = try await client.send(.get, "/v1/analytics/us?\(Self.range)", bearer: fixture.secret)
            #expect(Self.lines(us).isEmpty)
        }
    }

    @Test("the routes refuse a publishable key and no key", arguments: AnalyticsQuery.Report.allCases)
    func credentials(report: AnalyticsQuery.Report) async throws {
        let fixture = try await Self.fixture(.sqlite)
        try await fixture.server.test { client in
            let publishable = try await client.send(.get, "/v1/analytics/\(report.rawValue)", bearer: fixture.publishable)
            #expect(publishable.status == .forbidden)
            let none = try await client.send(.get, "/v1/analytics/\(report.rawValue)")
            #expect(none.status == .unauthorized)
            #expect(try await client.send(.get, "/v1/analytics/\(report.rawValue)", bearer: fixture.secret).status == .ok)
        }
    }

    @Test("bad parameters are refused with the field named", arguments: [
        ("choices?from=2026-13-01", "from"), ("choices?from=2026-11-31", "from"), ("choices?from=2025-01-01&to=2026-11-30", "from"),
        ("choices?from=2026-11-05&to=2026-11-04", "from"), ("choices?granularity=month", "granularity"), ("choices?by=vendor", "by"),
        ("purposes?by=region", "by"), ("choices?limit=0", "limit"), ("choices?limit=5001", "limit"), ("choices?cursor=x", "cursor"),
        ("choices?format=xml", "format"),
    ])
    func badParameters(query: String, field: String) async throws {
        let fixture = try await Self.fixture(.sqlite)
        try await fixture.server.test { client in
            let response = try await client.send(.get, "/v1/analytics/\(query)", bearer: fixture.secret)
            #expect(response.status == .badRequest)
            #expect(response.errorField == field)
        }
    }

    @Test("an unknown report is not found")
    func unknownReport() async throws {
        let fixture = try await Self.fixture(.sqlite)
        try await fixture.server.test { client async throws in
            let response = try await client.send(.get, "/v1/analytics/sales", bearer: fixture.secret)
            #expect(response.status == .notFound)
        }
    }

    @Test("days and ISO weeks are labelled in UTC, across leap days and year ends")
    func labels() {
        #expect(AnalyticsQuery.day("1970-01-01") == 0 && AnalyticsQuery.day("2026-11-02") == 20_759)
        #expect(AnalyticsQuery.day("2024-02-29") != nil && AnalyticsQuery.day("2026-02-29") == nil && AnalyticsQuery.day("2026-1-01") == nil)
        #expect(AnalyticsQuery.dayLabel(20_759) == "2026-11-02" && AnalyticsQuery.dayLabel(AnalyticsQuery.day("2024-02-29")!) == "2024-02-29")
        // 2026-12-28 and 2024-12-30 are Mondays; 2027-01-01 is a Friday, 2025-01-01 a Wednesday.
        #expect(AnalyticsQuery.weekLabel(AnalyticsQuery.day("2026-12-28")!) == "2026-W53")
        #expect(AnalyticsQuery.weekLabel(AnalyticsQuery.day("2024-12-30")!) == "2025-W01")
        #expect(AnalyticsQuery.monday(of: AnalyticsQuery.day("2026-11-08")!) == AnalyticsQuery.day("2026-11-02"))
    }

    @Test("outcomes follow the proof's method")
    func outcomes() {
        let expected: [ConsentProof.Method: ChoiceOutcome] = [
            .acceptAll: .acceptAll, .rejectAll: .rejectAll, .trackingDenied: .rejectAll, .custom: .custom, .sync: .custom,
            .programmatic: .custom, .withdrawal: .withdrawn, .underAge: .withdrawn,
        ]
        #expect(Set(expected.keys) == Set(ConsentProof.Method.allCases))
        for (method, outcome) in expected { #expect(ChoiceOutcome(method) == outcome) }
    }
}
