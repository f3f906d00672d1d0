@testable import ConsentServer
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

/// The console's web side (docs/console.md, "The pages"): its files under `/console/` with their
/// policy and validators, and the analytics routes the console's pages call, with each role's
/// refusal. The browser tests of the pages are Tests/console (Python).
@Suite("Console web")
struct ConsoleWebTests {
    static let policy = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
        + "frame-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

    // MARK: - The files

    @Test("/console/ is the shell's page with the console's strict policy, never framed, revalidated on each use")
    func indexHasTheStrictPolicy() async throws {
        let server = try await TestServer.make()
        try await server.test { client in
            let page = try await client.send(.get, "/console/")
            #expect(page.status == .ok)
            #expect(page.headers[.contentType] == "text/html; charset=utf-8")
            #expect(page.headers[.contentSecurityPolicy] == Self.policy)
            #expect(page.headers[HTTPField.Name("X-Frame-Options")!] == "DENY")
            #expect(page.headers[.xContentTypeOptions] == "nosniff")
            #expect(page.headers[.cacheControl] == "no-cache")
            let html = String(buffer: page.body)
            #expect(html.contains(#"<script src="console.js" defer></script>"#))
            #expect(!html.contains("<style") && !html.contains(" style=") && !html.contains("<script>"))
        }
    }

    @Test("/console redirects to /console/, where the page's relative links resolve")
    func consoleWithoutSlashRedirects() async throws {
        let server = try await TestServer.make()
        try await server.test { client in
            let redirect = try await client.send(.get, "/console")
            #expect(redirect.status == .movedPermanently)
            #expect(redirect.headers[.location] == "/console/")
        }
    }

    @Test("every file of the console's folder is served with its ETag (304 when it matches), gzip when asked, the same policy")
    func everyFileIsServedWithValidators() async throws {
        let server = try await TestServer.make()
        let files = server.consentd.consoleAssets.files
        #expect(Set(["index.html", "console.css", "console.js", "page-analytics.js", "page-audit.js"]).isSubset(of: Set(files.keys)))
        try await server.test { client in
            for (name, document) in files {
                let first = try await client.send(.get, "/console/\(name)")
                #expect(first.status == .ok, "\(name)")
                #expect(first.headers[.eTag] == document.etag, "\(name)")
                #expect(first.headers[.contentSecurityPolicy] == Self.policy, "\(name)")
                #expect(Data(first.body.readableBytesView) == document.body, "\(name)")
                let again = try await client.send(.get, "/console/\(name)", headers: [.ifNoneMatch: document.etag])
                #expect(again.status == .notModified, "\(name)")
                #expect(again.headers[.contentSecurityPolicy] == Self.policy, "\(name)")
            }
            let gzipped = try await client.send(.get, "/console/console.js", headers: [.acceptEncoding: "gzip"])
            #expect(gzipped.headers[.contentEncoding] == "gzip")
            #expect(Data(gzipped.body.readableBytesView) == files["console.js"]?.gzipped)
        }
    }

    @Test("every script and style index.html links is a file of the folder")
    func indexLinksOnlyServedFiles() async throws {
        let server = try await TestServer.make()
        let files = server.consentd.consoleAssets.files
        await server.consentd.close()
        let linked = NoticeAssets.linkedFiles(of: try #require(files["index.html"]).body)
        #expect(linked.contains("console.js") && linked.contains("console.css"))
        #expect(linked.filter { files[$0] == nil } == [])
    }

    @Test("a name outside the folder, hidden or with other characters is not served", arguments: [
        "nothing.js", "..%2Fconsentd.sqlite", ".hidden", "console.js%00",
    ])
    func unknownNamesAre404(name: String) async throws {
        let server = try await TestServer.make()
        try await server.test { client in
            let answer = try await client.send(.get, "/console/\(name)")
            #expect(answer.status == .notFound)
            #expect(answer.errorCode == "not_found")
        }
        #expect(!ConsoleAssets.isServable("../x") && !ConsoleAssets.isServable(".env") && ConsoleAssets.isServable("page-audit.js"))
    }

    @Test("the start log's console address: the listening address, loopback for every interface, [IPv6]")
    func consoleURL() {
        var settings = ServerSettings()
        settings.host = "127.0.0.1"
        settings.port = 8080
        #expect(settings.consoleURL == "http://127.0.0.1:8080/console/")
        settings.host = "0.0.0.0"
        #expect(settings.consoleURL == "http://127.0.0.1:8080/console/")
        settings.host = "::1"
        #expect(settings.consoleURL == "http://[::1]:8080/console/")
        settings.port = 0
        #expect(settings.consoleURL == "/console/")
    }

    // MARK: - Analytics for the console

    /// The seeded analytics fixture, with a signed-in session of each role.
    static func seeded(_ engine: StoreEngine,
                       _ body: @escaping @Sendable (AnalyticsAPITests.Fixture, any TestClientProtocol, [OperatorRole: ConsoleSessionCookie]) async throws -> Void)
        async throws {
        let fixture = try await AnalyticsAPITests.fixture(engine)
        var emails: [OperatorRole: String] = [:]
        for role in OperatorRole.allCases {
            let email = "\(role.rawValue)-\(UUID().uuidString.prefix(8).lowercased())@example.com"
            _ = try await fixture.server.consentd.console.operators.create(email: email, role: role, password: ConsoleAuthTests.password,
                                                                           parameters: ConsoleFixture.cheap)
            emails[role] = email
        }
        let roles = emails
        try await fixture.server.test { client in
            _ = try await AnalyticsAPITests.seed(fixture, client)
            var sessions: [OperatorRole: ConsoleSessionCookie] = [:]
            for (role, email) in roles {
                sessions[role] = ConsoleSessionCookie(try await client.signIn(email, ConsoleAuthTests.password))
            }
            try await body(fixture, client, sessions)
        }
    }

    @Test("analyst and owner read any app's figures; editor and support get 403, no session 401", arguments: StoreEngine.configured)
    func rolesOfTheAnalyticsRoutes(engine: StoreEngine) async throws {
        try await Self.seeded(engine) { fixture, client, sessions in
            let routes = ["/v1/console/analytics/apps"]
                + AnalyticsQuery.Report.allCases.map { "/v1/console/analytics/\($0.rawValue)?app=\(fixture.appId)&\(AnalyticsAPITests.range)" }
            for route in routes {
                for role in OperatorRole.allCases {
                    let answer = try await client.send(.get, route, headers: sessions[role]!.cookieHeader)
                    let allowed = role == .owner || role == .analyst
                    #expect(answer.status == (allowed ? .ok : .forbidden), "\(role) GET \(route)")
                    if !allowed { #expect(answer.errorCode == "forbidden", "\(role) GET \(route)") }
                }
                let anonymous = try await client.send(.get, route)
                #expect(anonymous.status == .unauthorized, "no session GET \(route)")
                // A secret key is no console session.
                let keyed = try await client.send(.get, route, bearer: fixture.secret)
                #expect(keyed.status == .unauthorized, "secret key GET \(route)")
            }
        }
    }

    @Test("the console's figures and CSV are the secret-key route's, for the app the parameter names", arguments: StoreEngine.configured)
    func sameFiguresAsTheSecretKeyRoute(engine: StoreEngine) async throws {
        try await Self.seeded(engine) { fixture, client, sessions in
            let analyst = sessions[.analyst]!.cookieHeader
            let queries = [
                "choices?\(AnalyticsAPITests.range)", "choices?\(AnalyticsAPITests.range)&granularity=week&by=region",
                "choices?\(AnalyticsAPITests.range)&granularity=total&by=language", "purposes?\(AnalyticsAPITests.range)&granularity=total",
                "vendors?\(AnalyticsAPITests.range)", "google?\(AnalyticsAPITests.range)&granularity=week", "us?\(AnalyticsAPITests.range)",
            ]
            for query in queries {
                let keyed = try await client.send(.get, "/v1/analytics/\(query)", bearer: fixture.secret)
                let console = try await client.send(.get, "/v1/console/analytics/\(query)&app=\(fixture.appId)", headers: analyst)
                #expect(keyed.status == .ok && console.status == .ok, "\(query)")
                #expect(String(buffer: console.body) == String(buffer: keyed.body), "\(query)")
                #expect(!(console.object["rows"] as? [Any] ?? []).isEmpty, "\(query)")
                let keyedCSV = try await client.send(.get, "/v1/analytics/\(query)&format=csv", bearer: fixture.secret)
                let consoleCSV = try await client.send(.get, "/v1/console/analytics/\(query)&app=\(fixture.appId)&format=csv", headers: analyst)
                #expect(String(buffer: consoleCSV.body) == String(buffer: keyedCSV.body), "\(query)")
                #expect(consoleCSV.headers[.contentType] == "text/csv; charset=utf-8")
                #expect(consoleCSV.headers[.contentDisposition]?.hasPrefix("attachment; filename=\"consent-") == true, "\(query)")
            }
            let other = try await client.send(.get, "/v1/console/analytics/choices?app=com.example.none&\(AnalyticsAPITests.range)", headers: analyst)
            #expect(other.status == .ok && (other.object["rows"] as? [Any])?.isEmpty == true)
        }
    }

    @Test("granularity total: one bucket for the range, labelled by its first and last day", arguments: StoreEngine.configured)
    func totalGranularity(engine: StoreEngine) async throws {
        try await Self.seeded(engine) { fixture, client, _ in
            let response = try await client.send(.get, "/v1/analytics/purposes?\(AnalyticsAPITests.range)&granularity=total", bearer: fixture.secret)
            #expect(AnalyticsAPITests.lines(response) == [
                "2026-11-01..2026-11-30 purposeConsent 1 2/3 0.6667", "2026-11-01..2026-11-30 purposeConsent 2 1/3 0.3333",
                "2026-11-01..2026-11-30 purposeConsent 3 1/3 0.3333", "2026-11-01..2026-11-30 purposeLegitimateInterest 2 2/3 0.6667",
                "2026-11-01..2026-11-30 specialFeatureOptin 1 1/3 0.3333",
            ])
            let choices = try await client.send(.get, "/v1/analytics/choices?\(AnalyticsAPITests.range)&granularity=total", bearer: fixture.secret)
            #expect(AnalyticsAPITests.lines(choices) == [
                "2026-11-01..2026-11-30 all acceptAll 2/6 0.3333", "2026-11-01..2026-11-30 all custom 1/6 0.1667",
                "2026-11-01..2026-11-30 all rejectAll 2/6 0.3333", "2026-11-01..2026-11-30 all withdrawn 1/6 0.1667",
            ])
            #expect(choices.object["granularity"] as? String == "total")
        }
    }

    @Test("the apps with figures are listed, in order", arguments: StoreEngine.configured)
    func appsAreListed(engine: StoreEngine) async throws {
        try await Self.seeded(engine) { fixture, client, sessions in
            let answer = try await client.send(.get, "/v1/console/analytics/apps", headers: sessions[.owner]!.cookieHeader)
            let apps = try #require(answer.object["apps"] as? [String])
            #expect(apps.contains(fixture.appId))
            #expect(apps == apps.sorted())
        }
    }

    @Test("app is required and bounded, and the secret-key route's checks apply", arguments: [
        ("/v1/console/analytics/choices", 400, "missing_field", "app"),
        ("/v1/console/analytics/choices?app=", 400, "missing_field", "app"),
        ("/v1/console/analytics/choices?app=\(String(repeating: "a", count: 129))", 400, "invalid_field", "app"),
        ("/v1/console/analytics/choices?app=x&from=2026-13-01", 400, "invalid_field", "from"),
        ("/v1/console/analytics/purposes?app=x&by=region", 400, "invalid_field", "by"),
        ("/v1/console/analytics/choices?app=x&granularity=month", 400, "invalid_field", "granularity"),
        ("/v1/console/analytics/nothing?app=x", 404, "not_found", nil),
    ] as [(String, Int, String, String?)])
    func badParametersNameTheField(route: String, status: Int, code: String, field: String?) async throws {
        let console = try await ConsoleFixture(.sqlite)
        let analyst = try await console.createOperator(.analyst)
        try await console.server.test { client in
            let session = try #require(ConsoleSessionCookie(try await client.signIn(analyst, ConsoleAuthTests.password)))
            let answer = try await client.send(.get, route, headers: session.cookieHeader)
            #expect(answer.status.code == status)
            #expect(answer.errorCode == code)
            #expect(answer.errorField == field)
        }
    }
}
