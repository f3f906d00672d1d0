import Foundation
import Testing

/// `consent config export` and `consent config import` (decision 0041): the database's
/// configuration written as publishers.yaml, and read back to the same configuration.
@Suite struct ConfigCommandTests {
    static let yaml = """
        publishers:
          - id: pub-news
            name: Example News
            apps: [com.example.news, com.example.radio]
            vendorIds: [755, 21]
            adTechProviders:
              - id: 89
                name: Example Ads
                privacyPolicyUrl: https://ads.example.com/privacy
            us:
              mspaCoveredTransaction: true
              mspaMode: serviceProvider
          - id: pub-games
            name: Example Games
            apps: [com.example.news]
            nonPersonalizedOnly: true
        websites:
          - appId: example.com
            name: Example
            privacyPolicyUrl: https://example.com/privacy
            publisherIds: [pub-news]
            notice:
              layout: banner
        """

    @Test func anExportImportsToTheSameConfiguration() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("consent-config-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let database = "sqlite:" + directory.appendingPathComponent("consentd.sqlite").path
        let file = directory.appendingPathComponent("publishers.yaml")
        try Self.yaml.write(to: file, atomically: true, encoding: .utf8)

        let empty = try Consent.run(["config", "export", "--database", database])
        #expect(empty.status == 0)
        #expect(empty.output.contains("publishers: []"))

        #expect(try Consent.run(["config", "import", file.path, "--database", database]).status == 0)
        let exported = try Consent.run(["config", "export", "--database", database])
        #expect(exported.status == 0)
        #expect(exported.output.contains("mspaMode: serviceProvider"))
        #expect(exported.output.contains("- com.example.radio"))
        #expect(exported.output.contains("layout: banner"))

        let again = directory.appendingPathComponent("exported.yaml")
        try exported.output.write(to: again, atomically: true, encoding: .utf8)
        let other = "sqlite:" + directory.appendingPathComponent("other.sqlite").path
        #expect(try Consent.run(["config", "import", again.path, "--database", other]).status == 0)
        #expect(try Consent.run(["config", "export", "--database", other]).output == exported.output)

        let broken = directory.appendingPathComponent("broken.yaml")
        try "publishers:\n  - id: x\n".write(to: broken, atomically: true, encoding: .utf8)
        let refused = try Consent.run(["config", "import", broken.path, "--database", database])
        #expect(refused.status != 0)
        #expect(refused.error.contains("publishers[0].name is required"))
        #expect(try Consent.run(["config", "export", "--database", database]).output == exported.output, "a refused import changes nothing")
    }
}
