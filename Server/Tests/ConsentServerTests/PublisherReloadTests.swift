@testable import ConsentServer
import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import Testing

/// Seed 001-33 ("provider changes reach the ad servers within about an hour"): consentd re-reads
/// `publishers.yaml` while it runs, so a new provider reaches `GET /v1/config` without a restart.
@Suite("001-33: the publisher configuration is reloaded")
struct PublisherReloadTests {
    static let before = """
        publishers:
          - id: pub-news
            name: Example News
            apps: [com.example.news]
            vendorIds: [755]
            adTechProviders:
              - id: 89
                name: Example Ads
                privacyPolicyUrl: https://ads.example.com/privacy
        """

    static let after = before + """

              - id: 1301
                name: Other Ads
                privacyPolicyUrl: https://other.example.org/policy
          - id: pub-games
            name: Example Games
            apps: [com.example.news]
            vendorIds: [32]
        """

    /// A consentd started as the command starts it, on `file`, re-reading it every 200 ms.
    static func start(file: URL) async throws -> Consentd {
        let directory = file.deletingLastPathComponent()
        var settings = ServerSettings()
        settings.databaseURL = "sqlite:" + directory.appendingPathComponent("consentd.sqlite").path
        settings.secretFile = directory.appendingPathComponent("secret").path
        settings.publishersFile = file.path
        settings.publishersReload = .milliseconds(200)
        settings.vendorListUpdates = false
        var logger = Logger(label: "test")
        logger.logLevel = .critical
        return try await Consentd.start(settings: settings, logger: logger)
    }

    @Test("001-33: a provider and a publisher added to publishers.yaml appear in /v1/config without a restart",
          .timeLimit(.minutes(2)))
    func newProviderWithoutRestart() async throws {
        let file = temporaryDirectory().appendingPathComponent("publishers.yaml")
        try Self.before.write(to: file, atomically: true, encoding: .utf8)
        let consentd = try await Self.start(file: file)
        let key = try await consentd.keys.create(appId: "com.example.news", kind: .publishable, label: "app").token
        do {
            try await consentd.application().test(.live) { client in
                let news = try await client.send(.get, "/v1/config?publisherIds=pub-news", bearer: key)
                #expect((news.object["adTechProviders"] as? [[String: Any]])?.compactMap { $0["id"] as? Int } == [89])
                #expect(try await client.send(.get, "/v1/config?publisherIds=pub-games", bearer: key).errorCode == "unknown_publisher")

                try Self.after.write(to: file, atomically: true, encoding: .utf8)
                try await withDeadline(.seconds(30), "the reload") {
                    while try await client.send(.get, "/v1/config?publisherIds=pub-games", bearer: key).status != .ok {
                        try await Task.sleep(for: .milliseconds(50))
                    }
                }
                let reloaded = try await client.send(.get, "/v1/config?publisherIds=pub-news,pub-games", bearer: key)
                #expect((reloaded.object["adTechProviders"] as? [[String: Any]])?.compactMap { $0["id"] as? Int } == [89, 1301])
                #expect(reloaded.object["vendorIds"] as? [Int] == [32, 755])
            }
        } catch {
            await consentd.close()
            throw error
        }
        await consentd.close()
    }

    @Test("001-33: a file that no longer parses is refused with its line, and the configuration held stays")
    func badFileKeepsTheHeldConfiguration() throws {
        let file = temporaryDirectory().appendingPathComponent("publishers.yaml")
        try Self.before.write(to: file, atomically: true, encoding: .utf8)
        let directory = PublisherDirectory(try PublisherConfiguration.load(path: file.path), file: file.path)
        #expect(try directory.reload() == false)
        try (Self.before + "\n    vendorIds: [0]\n").write(to: file, atomically: true, encoding: .utf8)
        #expect(throws: ConfigurationError.self) { try directory.reload() }
        #expect(directory.current.publishers["pub-news"]?.adTechProviders.map(\.id) == [89])
        try Self.after.write(to: file, atomically: true, encoding: .utf8)
        #expect(try directory.reload())
        #expect(directory.current.publishers["pub-news"]?.adTechProviders.map(\.id) == [89, 1301])
    }
}
