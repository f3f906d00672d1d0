@testable import ConsentServer
import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore

/// A consentd on a fresh SQLite file with one app's keys and two publishers, tested through
/// Hummingbird's router test client.
struct TestServer {
    let consentd: Consentd
    let appId: String
    let publishable: String
    let secret: String

    static let publishersYAML = """
        publishers:
          - id: pub-news
            name: Example News
            apps: [com.example.news]
            vendorIds: [755, 21, 1]
            adTechProviders:
              - id: 89
                name: Example Ads
                privacyPolicyUrl: https://ads.example.com/privacy
          - id: pub-games
            name: Example Games
            apps: [com.example.news]
            vendorIds: [755, 32]
            nonPersonalizedOnly: true
            adTechProviders:
              - id: 89
                name: Example Ads
                privacyPolicyUrl: https://ads.example.com/privacy
              - id: 1301
                name: Other Ads
                privacyPolicyUrl: https://other.example.org/policy
        """

    /// A server holding `catalog`, by default the bundled vendor list, and the publisher
    /// configuration `publishers` (YAML).
    /// The console's passwords are hashed with scrypt's least cost consentd accepts, N = 2^10
    /// (the standard cost is tested in ``ConsoleAuthTests``), and `clock` is the console's time.
    static func make(
        catalog: VendorListCatalog? = nil, publishers: String = publishersYAML, _ configure: (inout ServerSettings) -> Void = { _ in },
        clock: @escaping @Sendable () -> Date = { Date() }
    ) async throws -> TestServer {
        var settings = ServerSettings()
        settings.databaseURL = "sqlite:" + temporaryDirectory().appendingPathComponent("consentd.sqlite").path
        settings.countryHeader = "CF-IPCountry"
        settings.rateLimitPerIP = RateLimit(perSecond: 0)
        settings.rateLimitPerKey = RateLimit(perSecond: 0)
        // The tests pretend regions (debugRegion, debug_geo); production honours them only when allowed.
        settings.allowDebugRegion = true
        // Tests never reach the internet: a test of the refresher names a local upstream.
        settings.vendorListUpdates = false
        configure(&settings)
        var logger = Logger(label: "consentd-test")
        logger.logLevel = .critical
        let database = try await Database.open(url: settings.databaseURL, logger: logger)
        try await Migrations.run(on: database)
        let consentd = try Consentd(
            settings: settings, database: database, secret: testSecret, catalog: try catalog ?? VendorListCatalog.bundled(),
            publishers: try PublisherConfiguration.parse(publishers, file: "publishers.yaml"), assets: try NoticeAssets.load(),
            resolver: RegionResolver(settings: settings, table: try CIDRTable.parse("203.0.113.0/24,FR\n198.51.100.0/24,US-TX\n", file: "table")),
            logger: logger, passwordParameters: ScryptParameters(log2N: 10, blockSize: 8, parallelism: 1), clock: clock)
        let appId = "com.example.news"
        let publishable = try await consentd.keys.create(appId: appId, kind: .publishable, label: "app").token
        let secret = try await consentd.keys.create(appId: appId, kind: .secret, label: "backend").token
        return TestServer(consentd: consentd, appId: appId, publishable: publishable, secret: secret)
    }

    /// Runs `body` with a client of the router, then closes the database.
    func test(_ body: @escaping @Sendable (any TestClientProtocol) async throws -> Void) async throws {
        let app = Application(router: consentd.router())
        do {
            try await app.test(.router, body)
        } catch {
            await consentd.close()
            throw error
        }
        await consentd.close()
    }
}

extension TestClientProtocol {
    /// A request with an optional bearer credential and JSON body.
    @discardableResult
    func send(
        _ method: HTTPRequest.Method, _ uri: String, bearer: String? = nil, json: String? = nil,
        headers extra: HTTPFields = [:]
    ) async throws -> TestResponse {
        var headers = extra
        if let bearer { headers[.authorization] = "Bearer \(bearer)" }
        var body: ByteBuffer?
        if let json {
            if headers[.contentType] == nil { headers[.contentType] = "application/json" }
            body = ByteBuffer(string: json)
        }
        return try await execute(uri: uri, method: method, headers: headers, body: body)
    }
}

extension TestResponse {
    /// The body as a JSON object.
    var object: [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(body.readableBytesView))) as? [String: Any] ?? [:]
    }

    /// The error code of a refusal.
    var errorCode: String? {
        (object["error"] as? [String: Any])?["code"] as? String
    }

    /// The field a refusal names.
    var errorField: String? {
        (object["error"] as? [String: Any])?["field"] as? String
    }
}

/// A valid event body.
func eventJSON(id: UUID = UUID(), subject: String? = "user-1", collectedAt: String = "2026-01-02T03:04:05.678Z",
               extra: String = "\"purposeConsents\": [1, 2]") -> String {
    let subjectField = subject.map { "\"subjectId\": \"\($0)\"," } ?? ""
    return """
        {"eventId": "\(id.uuidString)", \(subjectField) "collectedAt": "\(collectedAt)", \(extra),
         "proof": {"noticeId": "main", "noticeVersion": "2", "language": "de", "sdkVersion": "1.0.0", "platform": "ios", "method": "custom"}}
        """
}
