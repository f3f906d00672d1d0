import Foundation
import Testing

/// `consent doctor`, run on Info.plist files written to a temporary folder.
@Suite struct DoctorCommandTests {
    /// Writes an Info.plist holding `entries` (key → the value's XML) to a fresh temporary file,
    /// converted to binary when `binary`, runs `body` with its path, then removes it.
    private func withInfoPlist<T>(_ entries: [String: String], binary: Bool = false, _ body: (String) throws -> T) throws -> T {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("doctor-cli-\(UUID().uuidString).plist")
        defer { try? FileManager.default.removeItem(at: url) }
        let dict = entries.sorted { $0.key < $1.key }.map { "\t<key>\($0.key)</key>\n\t\($0.value)" }.joined(separator: "\n")
        try Data(Self.document("<dict>\n\(dict)\n</dict>").utf8).write(to: url)
        if binary {
            let root = try PropertyListSerialization.propertyList(from: Data(contentsOf: url), options: [], format: nil)
            try PropertyListSerialization.data(fromPropertyList: root, format: .binary, options: 0).write(to: url)
            #expect(try Data(contentsOf: url).prefix(8) == Data("bplist00".utf8))
        }
        return try body(url.path)
    }

    private static func document(_ content: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        \(content)
        </plist>

        """
    }

    static let complete: [String: String] = [
        "CFBundleIdentifier": "<string>com.example.news</string>",
        "NSUserTrackingUsageDescription": "<string>We use this identifier to show you ads that match your interests.</string>",
        "GADApplicationIdentifier": "<string>ca-app-pub-3940256099942544~1458002511</string>",
        "GADDelayAppMeasurementInit": "<true/>",
    ]

    static func without(_ keys: String...) -> [String: String] {
        complete.filter { !keys.contains($0.key) }
    }

    @Test("a complete Info.plist exits 0 and says there are no findings")
    func complete() throws {
        try withInfoPlist(Self.complete) { path in
            let result = try Consent.run(["doctor", path])
            #expect(result.status == 0)
            #expect(result.output == "\(path): no findings (checked: App Tracking Transparency, Google Mobile Ads with consent)\n")
        }
    }

    @Test("missing keys are printed with the XML to add, a count, and exit status 1")
    func missingKeys() throws {
        try withInfoPlist(Self.without("NSUserTrackingUsageDescription", "GADDelayAppMeasurementInit")) { path in
            let result = try Consent.run(["doctor", path])
            let lines = result.output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)

            #expect(result.status == 1)
            #expect(lines.count == 8)
            #expect(lines[0].hasPrefix("\(path): error: NSUserTrackingUsageDescription: is missing;"))
            #expect(lines[1].hasPrefix("    <key>NSUserTrackingUsageDescription</key><string>"))
            #expect(lines[2] == "    (If the app never asks for tracking permission, run with --no-att.)")
            #expect(lines[3].hasPrefix("\(path): error: GADDelayAppMeasurementInit: is missing;"))
            #expect(lines[4] == "    <key>GADDelayAppMeasurementInit</key><true/>")
            #expect(lines[5] == "    (If the app does not show Google ads, run with --no-google-ads.)")
            #expect(lines[6] == "\(path): 2 errors, 0 warnings")
            #expect(lines[7] == "")
        }
    }

    @Test("a binary Info.plist gives the same findings as its XML")
    func binary() throws {
        let entries = Self.without("GADDelayAppMeasurementInit").merging(["GADApplicationIdentifier": "<string>ca-app-pub-3940256099942544/2934735716</string>"]) { $1 }
        let xml = try withInfoPlist(entries) { path in
            try Consent.run(["doctor", path]).output.replacingOccurrences(of: path, with: "PATH")
        }
        try withInfoPlist(entries, binary: true) { path in
            let result = try Consent.run(["doctor", path])
            #expect(result.status == 1)
            #expect(result.output.replacingOccurrences(of: path, with: "PATH") == xml)
            #expect(xml.contains("PATH: error: GADApplicationIdentifier: is \"ca-app-pub-3940256099942544/2934735716\", an ad unit ID"))
        }
    }

    @Test("warnings alone leave the exit status at 0")
    func warningsOnly() throws {
        try withInfoPlist(Self.complete) { path in
            let result = try Consent.run(["doctor", "--no-att", path])
            #expect(result.status == 0)
            #expect(result.output.hasPrefix("\(path): warning: NSUserTrackingUsageDescription: is set although"))
            #expect(result.output.hasSuffix("\(path): 0 errors, 1 warning\n"))
        }
    }

    @Test("--no-att and --no-google-ads switch their checks off")
    func flagsSwitchChecksOff() throws {
        try withInfoPlist(["CFBundleIdentifier": "<string>com.example.news</string>"]) { path in
            #expect(try Consent.run(["doctor", path]).status == 1)
            #expect(try Consent.run(["doctor", "--no-att", path]).output.contains("NSUserTrackingUsageDescription") == false)
            #expect(try Consent.run(["doctor", "--no-google-ads", path]).output.contains("GAD") == false)
            let neither = try Consent.run(["doctor", "--no-att", "--no-google-ads", path])
            #expect(neither.status == 0)
            #expect(neither.output.contains("no findings"))
        }
    }

    @Test("a file that is not an Info.plist exits 2 with the reason on standard error")
    func notAnInfoPlist() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("doctor-cli-\(UUID().uuidString).plist")
        defer { try? FileManager.default.removeItem(at: url) }
        try Data(Self.document("<array><string>GADApplicationIdentifier</string></array>").utf8).write(to: url)

        let result = try Consent.run(["doctor", url.path])

        #expect(result.status == 2)
        #expect(result.output == "")
        #expect(result.error == "consent doctor: \(url.path) is not an Info.plist: its root is array, not a dictionary\n")
    }

    @Test("a file that cannot be read exits 2 naming it")
    func unreadable() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("doctor-cli-\(UUID().uuidString)/Info.plist").path

        let result = try Consent.run(["doctor", path])

        #expect(result.status == 2)
        #expect(result.error.hasPrefix("consent doctor: cannot read \(path): "))
    }

    @Test func theCMPIdentityConsentdHandsOutIsReported() throws {
        let database = KeysCommandTests.database()
        let publishers = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("config/publishers.example.yaml").path
        let key = try Consent.run(["keys", "create", "--app", "com.example.news", "--kind", "publishable", "--database", database])
            .output.trimmingCharacters(in: .whitespacesAndNewlines)
        let cases: [([String], Int32, String)] = [
            ([], 1, "development identity, which the IAB never assigned"),
            (["--cmp-id", "300", "--cmp-version", "2"], 0, "CMP id 300, version 2, set by consentd's operator"),
        ]
        for (settings, status, text) in cases {
            let secret = FileManager.default.temporaryDirectory.appendingPathComponent("consentd-secret-\(UUID().uuidString)").path
            let server = try ConsentdProcess(
                arguments: ["--port", "0", "--database", database, "--secret-file", secret, "--publishers", publishers] + settings)
            defer { server.stop() }
            let result = try Consent.run(["doctor", "--consentd", server.url, "--key", key, "--publisher-ids", "pub-0000000000000001"])
            #expect(result.status == status, "\(settings): \(result.output) \(result.error)")
            #expect(result.output.contains(text))
        }
        let nobody = try Consent.run(["doctor", "--consentd", "http://127.0.0.1:9", "--key", key, "--publisher-ids", "pub-0000000000000001"])
        #expect(nobody.status == 2)
        let incomplete = try Consent.run(["doctor", "--consentd", "http://127.0.0.1:9"])
        #expect(incomplete.status != 0)
        #expect(incomplete.error.contains("--consentd needs --key"))
    }
}
