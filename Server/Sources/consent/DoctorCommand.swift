import ArgumentParser
import ConsentKit
import Foundation

/// `consent doctor`: checks an app's Info.plist for the keys its consent setup needs.
struct DoctorCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract: "Check an app's Info.plist for the keys App Tracking Transparency and Google Mobile Ads with consent need.",
        discussion: """
            With --att: NSUserTrackingUsageDescription must be a non-empty string (it is the text of the tracking \
            prompt). With --no-att, the key being set is a warning. With --google-ads: GADApplicationIdentifier must \
            be a string shaped ca-app-pub-<16 digits>~<10 digits>, and GADDelayAppMeasurementInit the Boolean YES \
            (<true/>) so Google's measurement waits for consent. Both checks are on unless switched off. \
            Each finding is printed with what to change and, where something is to be added, the XML to add. \
            Exit status: 0 when there are no errors (warnings allowed), 1 when there are errors, 2 when the file \
            cannot be read or is not an Info.plist.
            """
    )

    @Argument(help: "The Info.plist: the project's (XML) or a built app's (MyApp.app/Info.plist, often binary).")
    var file: String

    @Flag(inversion: .prefixedNo, help: "The app asks for tracking permission with App Tracking Transparency.")
    var att = true

    @Flag(inversion: .prefixedNo, help: "The app shows ads through the Google Mobile Ads SDK, gated on the consent ConsentKit collects.")
    var googleAds = true

    func run() throws {
        let usage = AppUsage(usesAppTrackingTransparency: att, usesGoogleMobileAdsWithConsent: googleAds)
        let findings: [InfoPlistFinding]
        do {
            findings = try InfoPlistCheck.check(fileAt: URL(fileURLWithPath: file), usage: usage)
        } catch {
            Output.error("consent doctor: \(error)")
            throw ExitCode(2)
        }
        for finding in findings {
            Output.line("\(file): \(finding.description)")
            if let hint = hint(for: finding) { Output.line("    \(hint)") }
        }
        let errors = findings.filter { $0.severity == .error }.count
        let warnings = findings.count - errors
        if findings.isEmpty {
            Output.line("\(file): no findings (checked: \(checked))")
        } else {
            Output.line("\(file): \(Self.count(errors, "error")), \(Self.count(warnings, "warning"))")
        }
        if errors > 0 { throw ExitCode.failure }
    }

    /// The checks that ran, for the line that says nothing was found.
    private var checked: String {
        var names: [String] = []
        if att { names.append("App Tracking Transparency") }
        if googleAds { names.append("Google Mobile Ads with consent") }
        return names.isEmpty ? "nothing; --no-att and --no-google-ads switch every check off" : names.joined(separator: ", ")
    }

    /// How to switch a missing key's check off when the app does not use the feature.
    private func hint(for finding: InfoPlistFinding) -> String? {
        guard finding.problem == .missing else { return nil }
        switch finding.key {
        case .userTrackingUsageDescription: return "(If the app never asks for tracking permission, run with --no-att.)"
        case .gadApplicationIdentifier, .gadDelayAppMeasurementInit: return "(If the app does not show Google ads, run with --no-google-ads.)"
        }
    }

    private static func count(_ number: Int, _ noun: String) -> String {
        "\(number) \(noun)\(number == 1 ? "" : "s")"
    }
}
