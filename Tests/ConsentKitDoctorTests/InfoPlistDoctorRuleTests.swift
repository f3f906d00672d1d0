import Foundation
import Testing
@testable import ConsentKitDoctor

/// The rules of the Info.plist check, on Info.plist files written to disk as XML and as binary.
@Suite("Doctor: Info.plist rules")
struct InfoPlistDoctorRuleTests {
    let files: PlistFiles

    init() throws {
        files = try PlistFiles()
    }

    @Test("a complete Info.plist has no findings", arguments: PlistFormat.allCases)
    func complete(format: PlistFormat) throws {
        #expect(try files.findings(PlistFiles.complete, format: format).isEmpty)
    }

    // MARK: NSUserTrackingUsageDescription

    @Test("an app that uses ATT without NSUserTrackingUsageDescription gets an error saying which key to add", arguments: PlistFormat.allCases)
    func missingUsageDescription(format: PlistFormat) throws {
        let findings = try files.findings(PlistFiles.complete(.userTrackingUsageDescription, nil), format: format)

        let finding = try #require(findings.only)
        #expect(finding.severity == .error)
        #expect(finding.key == .userTrackingUsageDescription)
        #expect(finding.problem == .missing)
        #expect(finding.snippet?.hasPrefix("<key>NSUserTrackingUsageDescription</key><string>") == true)
    }

    @Test("an empty or whitespace-only usage description is an error", arguments: [
        "<string></string>", "<string/>", "<string> </string>", "<string>\n\t  \n</string>",
    ])
    func blankUsageDescription(value: String) throws {
        let findings = try files.findings(PlistFiles.complete(.userTrackingUsageDescription, value))

        let finding = try #require(findings.only)
        #expect(finding.severity == .error)
        #expect(finding.problem == .blank)
    }

    @Test("a usage description that is not a string is an error naming the type found", arguments: [
        ("<true/>", "boolean"), ("<integer>1</integer>", "integer"), ("<array><string>Ads</string></array>", "array"),
    ])
    func usageDescriptionOfTheWrongType(value: String, type: String) throws {
        let findings = try files.findings(PlistFiles.complete(.userTrackingUsageDescription, value))

        let finding = try #require(findings.only)
        #expect(finding.severity == .error)
        #expect(finding.problem == .wrongType(found: type))
        #expect(finding.message.contains("must be a string"))
    }

    @Test("an app that does not use ATT gets no finding for a missing usage description")
    func noATTNoUsageDescription() throws {
        let usage = AppUsage(usesAppTrackingTransparency: false, usesGoogleMobileAdsWithConsent: true)

        #expect(try files.findings(PlistFiles.complete(.userTrackingUsageDescription, nil), usage: usage).isEmpty)
    }

    @Test("a usage description in an app that does not use ATT is a warning, not an error")
    func usageDescriptionWithoutATT() throws {
        let usage = AppUsage(usesAppTrackingTransparency: false, usesGoogleMobileAdsWithConsent: true)

        let finding = try #require(try files.findings(PlistFiles.complete, usage: usage).only)
        #expect(finding.severity == .warning)
        #expect(finding.key == .userTrackingUsageDescription)
        #expect(finding.problem == .unused)
        #expect(finding.snippet == nil)
    }

    // MARK: GADApplicationIdentifier

    @Test("an app with Google ads without GADApplicationIdentifier gets an error with the key to add", arguments: PlistFormat.allCases)
    func missingApplicationIdentifier(format: PlistFormat) throws {
        let findings = try files.findings(PlistFiles.complete(.gadApplicationIdentifier, nil), format: format)

        let finding = try #require(findings.only)
        #expect(finding.severity == .error)
        #expect(finding.key == .gadApplicationIdentifier)
        #expect(finding.problem == .missing)
        #expect(finding.snippet == "<key>GADApplicationIdentifier</key><string>ca-app-pub-0000000000000000~0000000000</string>")
    }

    @Test("an app ID of the wrong shape is an error that gives the expected shape", arguments: [
        "ca-app-pub-3940256099942544",
        "ca-app-pub-394025609994254~1458002511",
        "ca-app-pub-3940256099942544~145800251",
        "ca-app-pub-3940256099942544~14580025110",
        " ca-app-pub-3940256099942544~1458002511",
        "ca-app-pub-3940256099942544~1458002511~1",
        "ca-app-pub-39402560999425x4~1458002511",
        "pub-3940256099942544~1458002511",
        "",
    ])
    func malformedApplicationIdentifier(id: String) throws {
        let findings = try files.findings(PlistFiles.complete(.gadApplicationIdentifier, "<string>\(id)</string>"))

        let finding = try #require(findings.only)
        #expect(finding.severity == .error)
        #expect(finding.problem == .malformed(found: id))
        #expect(finding.message.contains("ca-app-pub-<16 digits>~<10 digits>"))
    }

    @Test("an ad unit ID where the app ID belongs is named as one")
    func adUnitIDForApplicationIdentifier() throws {
        let findings = try files.findings(PlistFiles.complete(.gadApplicationIdentifier, "<string>ca-app-pub-3940256099942544/2934735716</string>"))

        let finding = try #require(findings.only)
        #expect(finding.problem == .malformed(found: "ca-app-pub-3940256099942544/2934735716"))
        #expect(finding.message.contains("an ad unit ID"))
    }

    @Test("an app ID that is not a string is an error naming the type found")
    func applicationIdentifierOfTheWrongType() throws {
        let findings = try files.findings(PlistFiles.complete(.gadApplicationIdentifier, "<integer>1458002511</integer>"))

        let finding = try #require(findings.only)
        #expect(finding.severity == .error)
        #expect(finding.problem == .wrongType(found: "integer"))
    }

    @Test("an app ID that is a build-setting reference is a warning to check the built app")
    func applicationIdentifierFromABuildSetting() throws {
        let findings = try files.findings(PlistFiles.complete(.gadApplicationIdentifier, "<string>$(ADMOB_APP_ID)</string>"))

        let finding = try #require(findings.only)
        #expect(finding.severity == .warning)
        #expect(finding.problem == .buildSettingReference(found: "$(ADMOB_APP_ID)"))
    }

    // MARK: GADDelayAppMeasurementInit

    @Test("an app with Google ads without GADDelayAppMeasurementInit gets an error whose snippet is Google's <true/>", arguments: PlistFormat.allCases)
    func missingDelayAppMeasurement(format: PlistFormat) throws {
        let findings = try files.findings(PlistFiles.complete(.gadDelayAppMeasurementInit, nil), format: format)

        let finding = try #require(findings.only)
        #expect(finding.severity == .error)
        #expect(finding.key == .gadDelayAppMeasurementInit)
        #expect(finding.problem == .missing)
        #expect(finding.snippet == "<key>GADDelayAppMeasurementInit</key><true/>")
    }

    @Test("GADDelayAppMeasurementInit set to NO is an error", arguments: PlistFormat.allCases)
    func delayAppMeasurementFalse(format: PlistFormat) throws {
        let findings = try files.findings(PlistFiles.complete(.gadDelayAppMeasurementInit, "<false/>"), format: format)

        let finding = try #require(findings.only)
        #expect(finding.severity == .error)
        #expect(finding.problem == .notTrue)
    }

    @Test("GADDelayAppMeasurementInit as a string YES or a number is a wrong-type error, since Google documents a Boolean", arguments: [
        ("<string>YES</string>", "string"), ("<string>true</string>", "string"), ("<integer>1</integer>", "integer"), ("<real>1</real>", "real"),
    ])
    func delayAppMeasurementOfTheWrongType(value: String, type: String) throws {
        for format in PlistFormat.allCases {
            let findings = try files.findings(PlistFiles.complete(.gadDelayAppMeasurementInit, value), format: format)

            let finding = try #require(findings.only, "\(format)")
            #expect(finding.severity == .error, "\(format)")
            #expect(finding.problem == .wrongType(found: type), "\(format)")
            #expect(finding.message.contains("Boolean"), "\(format)")
        }
    }

    @Test("an app without Google ads gets no finding for missing Google keys")
    func noGoogleAds() throws {
        var entries = PlistFiles.complete
        entries[InfoPlistKey.gadApplicationIdentifier.rawValue] = nil
        entries[InfoPlistKey.gadDelayAppMeasurementInit.rawValue] = nil
        let usage = AppUsage(usesAppTrackingTransparency: true, usesGoogleMobileAdsWithConsent: false)

        #expect(try files.findings(entries, usage: usage).isEmpty)
    }

    // MARK: Together

    @Test("findings come one per key, in the order usage description, app ID, measurement")
    func order() throws {
        let findings = try files.findings(["CFBundleName": "<string>News</string>"])

        #expect(findings.map(\.key) == [.userTrackingUsageDescription, .gadApplicationIdentifier, .gadDelayAppMeasurementInit])
        #expect(findings.allSatisfy { $0.problem == .missing && $0.severity == .error })
    }

    @Test("a dictionary built in code tells Booleans from the integers 0 and 1")
    func dictionaryInCode() {
        let base: [String: Any] = [
            "NSUserTrackingUsageDescription": "Ads that match your interests.",
            "GADApplicationIdentifier": "ca-app-pub-3940256099942544~1458002511",
        ]
        var withBool = base, withInteger = base
        withBool["GADDelayAppMeasurementInit"] = true
        withInteger["GADDelayAppMeasurementInit"] = 1

        #expect(InfoPlistCheck.check(withBool, usage: .everything).isEmpty)
        #expect(InfoPlistCheck.check(withInteger, usage: .everything).map(\.problem) == [.wrongType(found: "integer")])
    }

    @Test("a finding reads as severity, key, what is wrong and what to add")
    func description() throws {
        let finding = try #require(try files.findings(PlistFiles.complete(.gadDelayAppMeasurementInit, nil)).only)

        let lines = finding.description.split(separator: "\n").map(String.init)
        #expect(lines.count == 2)
        #expect(lines[0].hasPrefix("error: GADDelayAppMeasurementInit: is missing"))
        #expect(lines[1] == "    <key>GADDelayAppMeasurementInit</key><true/>")
    }
}

extension Array {
    /// The one element, or nil when there are none or several.
    var only: Element? { count == 1 ? first : nil }
}
