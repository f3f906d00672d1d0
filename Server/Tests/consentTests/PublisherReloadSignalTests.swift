import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// Seed 001-33 on the built `consentd`: `kill -HUP` re-reads `publishers.yaml` at once, so a new
/// provider is served by `GET /v1/config` without a restart (the periodic re-read is an hour
/// away in this test).
@Suite("001-33: consentd re-reads publishers.yaml on SIGHUP")
struct PublisherReloadSignalTests {
    static let yaml = """
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

    @Test("001-33: after SIGHUP a provider added to publishers.yaml appears in /v1/config, without a restart",
          .timeLimit(.minutes(2)))
    func hangupReloads() async throws {
        let directory = ConsentdSettingsTests.temporaryDirectory()
        let database = "sqlite:" + directory.appendingPathComponent("db.sqlite").path
        let file = directory.appendingPathComponent("publishers.yaml")
        try Self.yaml.write(to: file, atomically: true, encoding: .utf8)
        let key = try Consent.run(["keys", "create", "--app", "com.example.news", "--kind", "publishable", "--database", database])
            .output.trimmingCharacters(in: .whitespacesAndNewlines)
        let server = try ConsentdProcess(arguments: [
            "--port", "0", "--database", database, "--secret-file", directory.appendingPathComponent("secret").path,
            "--publishers", file.path, "--publishers-reload", "3600", "--demo", "false"])
        defer { server.stop() }

        func providers() async throws -> [Int] {
            var request = URLRequest(url: URL(string: server.url + "/v1/config?publisherIds=pub-news")!)
            request.setValue("Bearer \(key)", forHTTPHeaderField: "Authorization")
            let (body, _) = try await URLSession.shared.data(for: request)
            let object = try JSONSerialization.jsonObject(with: body) as? [String: Any]
            return (object?["adTechProviders"] as? [[String: Any]])?.compactMap { $0["id"] as? Int } ?? []
        }
        #expect(try await providers() == [89])
        try (Self.yaml + """

                  - id: 1301
                    name: Other Ads
                    privacyPolicyUrl: https://other.example.org/policy
            """).write(to: file, atomically: true, encoding: .utf8)
        #expect(try await providers() == [89])
        kill(server.process.processIdentifier, SIGHUP)
        var seen: [Int] = []
        for _ in 0..<100 {
            seen = try await providers()
            if seen == [89, 1301] { break }
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(seen == [89, 1301])
        #expect(server.process.isRunning)
    }
}
