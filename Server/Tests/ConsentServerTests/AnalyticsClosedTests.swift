@testable import ConsentServer
import ConsentKitFormats
import ConsentdAPI
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SQLKit
import Testing

/// The outcome `closed` (issue 29 §3, docs/decisions/0044): a notice closed without a choice
/// counts once in the choice rollups, by `POST /v1/analytics/closed` (apps) and by the web CMP's
/// `dismissed` result, with its dimensions and never as a consent event or a subject's.
@Suite("Consent analytics: notices closed without a choice")
struct AnalyticsClosedTests {
    /// 2026-11-02 (a Monday) at 12:00 UTC.
    static let monday = Date(timeIntervalSince1970: 1_793_620_800)

    /// `appId`'s choice rows of outcome `closed` as `dimension value events` lines, in order.
    static func closedRows(_ database: Database, appId: String) async throws -> [String] {
        try await database.read { db in
            try await db.raw("""
                SELECT dimension, day, value, events FROM analytics_choices
                WHERE app_id = \(bind: appId) AND outcome = 'closed' ORDER BY dimension, value
                """).all().map {
                let day = AnalyticsQuery.dayLabel(try $0.decode(column: "day", as: Int64.self))
                return "\(day) \(try $0.decode(column: "dimension", as: String.self)) \(try $0.decode(column: "value", as: String.self)) "
                    + String(try $0.decode(column: "events", as: Int64.self))
            }
        }
    }

    /// How many rows `table` holds for `appId`.
    static func count(_ database: Database, _ table: String, appId: String) async throws -> Int64 {
        try await database.read { db in
            try await db.raw("SELECT COUNT(*) AS n FROM \(unsafeRaw: table) WHERE app_id = \(bind: appId)").first()?
                .decode(column: "n", as: Int64.self) ?? -1
        }
    }

    @Test("a close counts once as closed under all and each dimension, and writes no event, no subject, no count",
          arguments: StoreEngine.configured)
    func storeCountsACloseOnce(engine: StoreEngine) async throws {
        try await withStore(engine) { store, database in
            let appId = uniqueAppId()
            // One choice the same day, so the close is one of two answers.
            _ = try await store.append(appId: appId, request: event(subject: "s-1", collectedAt: ISO8601.milliseconds(of: Self.monday),
                                                                   method: .acceptAll),
                                       credential: .secret, region: "eea")
            let counts = try await Self.count(database, "analytics_counts", appId: appId)
            try await store.recordClose(NoticeClose(noticeVersion: "3", language: "de", platform: .ios), appId: appId, region: "eea",
                                        closedAt: Self.monday)
            #expect(try await Self.closedRows(database, appId: appId) == [
                "2026-11-02 all all 1", "2026-11-02 language de 1", "2026-11-02 method dismissed 1", "2026-11-02 noticeVersion 3 1",
                "2026-11-02 platform ios 1", "2026-11-02 region eea 1",
            ])
            #expect(try await Self.count(database, "consent_events", appId: appId) == 1, "a close is no consent event")
            #expect(try await Self.count(database, "analytics_counts", appId: appId) == counts, "a close opts into nothing")
            #expect(try await Self.count(database, "subjects", appId: appId) == 1, "a close names no subject: only the event's")
            let page = try await ConsentAnalytics(database: database).page(
                AnalyticsQuery(report: .choices, from: AnalyticsQuery.day("2026-11-02")!, to: AnalyticsQuery.day("2026-11-02")!), appId: appId)
            #expect(page.rows == [
                .init(period: "2026-11-02", group: "all", item: "acceptAll", count: 1, of: 2),
                .init(period: "2026-11-02", group: "all", item: "closed", count: 1, of: 2),
            ])
            // A second close adds one, in the same rows.
            try await store.recordClose(NoticeClose(noticeVersion: "3", language: "de", platform: .ios), appId: appId, region: "eea",
                                        closedAt: Self.monday)
            #expect(try await Self.closedRows(database, appId: appId).allSatisfy { $0.hasSuffix(" 2") })
        }
    }

    @Test("no proof method is closed: only a close counts as one")
    func noMethodIsClosed() {
        #expect(!ConsentProof.Method.allCases.map(ChoiceOutcome.init).contains(.closed))
        #expect(ChoiceOutcome.allCases.map(\.rawValue) == ["acceptAll", "rejectAll", "custom", "withdrawn", "closed"])
    }

    @Test("POST /v1/analytics/closed counts an app's close where it was sent from, on closedAt's day, beside the app's events",
          arguments: StoreEngine.configured)
    func route(engine: StoreEngine) async throws {
        let fixture = try await AnalyticsAPITests.fixture(engine)
        try await fixture.server.test { client async throws in
            _ = try await AnalyticsAPITests.seed(fixture, client)
            let purposesBefore = AnalyticsAPITests.lines(
                try await client.send(.get, "/v1/analytics/purposes?\(AnalyticsAPITests.range)", bearer: fixture.secret))
            let json = #"{"noticeVersion": "3", "language": "fr", "platform": "android", "closedAt": "2026-11-02T18:00:00.000Z"}"#
            for credential in [fixture.publishable, fixture.secret] {
                let answer = try await client.send(.post, "/v1/analytics/closed", bearer: credential, json: json,
                                                   headers: [HTTPField.Name("CF-IPCountry")!: "FR"])
                #expect(answer.status == .noContent)
            }
            let day = try await client.send(.get, "/v1/analytics/choices?\(AnalyticsAPITests.range)", bearer: fixture.secret)
            #expect(AnalyticsAPITests.lines(day) == [
                "2026-11-02 all acceptAll 1/5 0.2000", "2026-11-02 all closed 2/5 0.4000", "2026-11-02 all custom 1/5 0.2000",
                "2026-11-02 all rejectAll 1/5 0.2000",
                "2026-11-03 all acceptAll 1/2 0.5000", "2026-11-03 all rejectAll 1/2 0.5000",
                "2026-11-09 all withdrawn 1/1 1.0000",
            ])
            for (by, group) in [("region", "eea"), ("language", "fr"), ("platform", "android"), ("noticeVersion", "3"), ("method", "dismissed")] {
                let rows = AnalyticsAPITests.lines(try await client.send(
                    .get, "/v1/analytics/choices?\(AnalyticsAPITests.range)&by=\(by)&granularity=total", bearer: fixture.secret))
                #expect(rows.contains { $0.hasPrefix("2026-11-01..2026-11-30 \(group) closed 2/") }, "\(by): \(rows)")
            }
            // Nothing of it in the other reports: a close opts into nothing.
            let purposes = try await client.send(.get, "/v1/analytics/purposes?\(AnalyticsAPITests.range)", bearer: fixture.secret)
            #expect(!purposesBefore.isEmpty && AnalyticsAPITests.lines(purposes) == purposesBefore)
            #expect(try await Self.count(fixture.server.consentd.store.database, "consent_events", appId: fixture.appId) == 6)
        }
    }

    @Test("the route refuses a bad body with the field named", arguments: [
        (#"{"language": "de", "platform": "ios"}"#, "noticeVersion"),
        (#"{"noticeVersion": "", "language": "de", "platform": "ios"}"#, "noticeVersion"),
        (#"{"noticeVersion": "3\u0007", "language": "de", "platform": "ios"}"#, "noticeVersion"),
        (#"{"noticeVersion": "3", "language": "german", "platform": "ios"}"#, "language"),
        (#"{"noticeVersion": "3", "platform": "ios"}"#, "language"),
        (#"{"noticeVersion": "3", "language": "de", "platform": "tv"}"#, "platform"),
        (#"{"noticeVersion": "3", "language": "de"}"#, "platform"),
        (#"{"noticeVersion": "3", "language": "de", "platform": "ios", "closedAt": "yesterday"}"#, "closedAt"),
        (#"{"noticeVersion": "3", "language": "de", "platform": "ios", "closedAt": "2017-01-01T00:00:00Z"}"#, "closedAt"),
        (#"{"noticeVersion": "3", "language": "de", "platform": "ios", "closedAt": "2999-01-01T00:00:00Z"}"#, "closedAt"),
        (#"{"noticeVersion": 3, "language": "de", "platform": "ios"}"#, "noticeVersion"),
    ])
    func badBodies(json: String, field: String) async throws {
        let server = try await TestServer.make()
        try await server.test { client async throws in
            let response = try await client.send(.post, "/v1/analytics/closed", bearer: server.publishable, json: json)
            #expect(response.status == .badRequest)
            #expect(response.errorField == field)
            #expect(try await Self.count(server.consentd.store.database, "analytics_choices", appId: server.appId) == 0)
        }
    }

    @Test("the route takes an app's credential, and the router's guards: body budget, media type, rate per address")
    func guards() async throws {
        let json = #"{"noticeVersion": "3", "language": "de", "platform": "ios"}"#
        let server = try await TestServer.make { $0.bodyLimit = 256 }
        try await server.test { client async throws in
            #expect(try await client.send(.post, "/v1/analytics/closed", json: json).status == .unauthorized)
            #expect(try await client.send(.post, "/v1/analytics/closed", bearer: "ck_pub_nope", json: json).status == .unauthorized)
            let large = #"{"noticeVersion": "3", "language": "de", "platform": "ios", "pad": ""# + String(repeating: "x", count: 300) + #""}"#
            #expect(try await client.send(.post, "/v1/analytics/closed", bearer: server.publishable, json: large).status == .contentTooLarge)
            #expect(try await client.send(.post, "/v1/analytics/closed", bearer: server.publishable, json: json,
                                          headers: [.contentType: "text/plain"]).status == .unsupportedMediaType)
            #expect(try await Self.count(server.consentd.store.database, "analytics_choices", appId: server.appId) == 0)
            // GET still reaches the read route, for which closed is no report.
            let read = try await client.send(.get, "/v1/analytics/closed", bearer: server.secret)
            #expect(read.status == .notFound && read.errorCode == "not_found")
        }
        let perIP = try await TestServer.make { $0.rateLimitPerIP = RateLimit(perSecond: 0.01, burst: 1) }
        try await perIP.test { client async throws in
            #expect(try await client.send(.post, "/v1/analytics/closed", bearer: perIP.publishable, json: json).status == .noContent)
            let limited = try await client.send(.post, "/v1/analytics/closed", bearer: perIP.publishable, json: json)
            #expect(limited.status == .tooManyRequests && limited.errorCode == "rate_limited")
        }
    }

    @Test("a web notice dismissed is counted closed for the website's app, with its region, language, version and platform; no event")
    func webDismissal() async throws {
        let server = try await TestServer.make()
        try await server.test { client async throws in
            let key = try await server.consentd.demoSite.key(server.consentd.keys)
            let dismissed = #"{"protocol":1,"type":"result","action":"dismissed","layer":1,"language":"en","noticeVersion":0}"#
            let closed = try await WebCMPAPITests.web(client, "/v1/web/choices", #"""
                {"credential":"\#(key)","debugRegion":"eea","reopen":true,"message":\#(dismissed)}
                """#)
            #expect(closed.status == .ok && closed.object["action"] as? String == "dismissed" && closed.object["event"] == nil)
            let today = AnalyticsQuery.dayLabel(ISO8601.milliseconds(of: Date()) / 86_400_000)
            let database = server.consentd.store.database
            let rows = try await Self.closedRows(database, appId: DemoSite.appId)
            #expect(rows == ["all all", "language en", "method dismissed", "noticeVersion 0", "platform web", "region eea"]
                .map { "\(today) \($0) 1" })
            #expect(try await Self.count(database, "consent_events", appId: DemoSite.appId) == 0)
        }
    }
}
