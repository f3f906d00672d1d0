import ArgumentParser
import ConsentKit
import ConsentKitDoctor
import Foundation

/// `consent doctor`: checks an app's Info.plist for the keys its consent setup needs, and the
/// CMP identity its consentd hands out.
struct DoctorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract: "Check an app's Info.plist for the keys App Tracking Transparency and Google Mobile Ads with consent need, and the CMP identity its consentd hands out.",
        discussion: """
            With --att: NSUserTrackingUsageDescription must be a non-empty string (it is the text of the tracking \
            prompt). With --no-att, the key being set is a warning. With --google-ads: GADApplicationIdentifier must \
            be a string shaped ca-app-pub-<16 digits>~<10 digits>, and GADDelayAppMeasurementInit the Boolean YES \
            (<true/>) so Google's measurement waits for consent. Both checks are on unless switched off. \
            Each finding is printed with what to change and, where something is to be added, the XML to add. \
            With --consentd URL --key KEY --publisher-ids IDS: asks consentd's /v1/config, as the app will, and reports \
            the CMP identity TC strings will carry; the development identity (CMP id 4095, which the IAB never \
            assigned) is an error, since vendors ignore strings carrying it. \
            Exit status: 0 when there are no errors (warnings allowed), 1 when there are errors, 2 when the file \
            cannot be read or is not an Info.plist, or consentd gave no answer.
            """
    )

    @Argument(help: "The Info.plist: the project's (XML) or a built app's (MyApp.app/Info.plist, often binary).")
    var file: String?

    @Option(help: "consentd's base URL, as the app names it: also check the CMP identity it hands to apps.")
    var consentd: String?

    @Option(help: "The app's publishable key (ck_pub_…), for --consentd.")
    var key: String?

    @Option(help: "The app's publisher ids, comma-separated, for --consentd.")
    var publisherIds: String?

    @Flag(inversion: .prefixedNo, help: "The app asks for tracking permission with App Tracking Transparency.")
    var att = true

    @Flag(inversion: .prefixedNo, help: "The app shows ads through the Google Mobile Ads SDK, gated on the consent ConsentKit collects.")
    var googleAds = true

    func validate() throws {
        guard file != nil || consentd != nil else {
            throw ValidationError("give an Info.plist, or --consentd URL --key KEY --publisher-ids IDS, or both")
        }
        if consentd != nil, key == nil || publisherIds == nil {
            throw ValidationError("--consentd needs --key (the app's publishable key) and --publisher-ids")
        }
    }

    func run() async throws {
        var errors = 0
        if let file { errors += try checkInfoPlist(file) }
        if let consentd, let key, let publisherIds { errors += try await checkCMPIdentity(consentd, key: key, publisherIds: publisherIds) }
        if errors > 0 { throw ExitCode.failure }
    }

    /// Asks consentd for the configuration an app receives and reports its CMP identity; returns
    /// the number of errors.
    private func checkCMPIdentity(_ base: String, key: String, publisherIds: String) async throws -> Int {
        guard let url = URL(string: base), url.host != nil else {
            Output.error("consent doctor: --consentd \(base) is not a URL with a host")
            throw ExitCode(2)
        }
        let ids = publisherIds.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        let config: AppConfig
        do {
            config = try await ConsentdClient(endpoint: ConsentdEndpoint(baseURL: url, publishableKey: key, publisherIds: ids)).config(timeout: 10)
        } catch {
            Output.error("consent doctor: \(error)")
            throw ExitCode(2)
        }
        guard let cmp = config.cmp else {
            Output.line("\(base): error: the answer names no CMP identity (a consentd older than this tool): apps write the development id \(CMPIdentity.development.cmpId)")
            return 1
        }
        if cmp.isDevelopment {
            Output.line("""
                \(base): error: CMP id \(cmp.id) is ConsentKit's development identity, which the IAB never assigned: TC strings \
                written by apps on this consentd carry it and vendors ignore them. Start consentd with --cmp-id ID \
                [--cmp-version VERSION] (CONSENTD_CMP_ID, CONSENTD_CMP_VERSION), ID being the one the IAB registered for you.
                """)
            return 1
        }
        Output.line("\(base): CMP id \(cmp.id), version \(cmp.version), set by consentd's operator")
        return 0
    }

    /// Checks the Info.plist at `file` and prints the findings; returns the number of errors.
    private func checkInfoPlist(_ file: String) throws -> Int {
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
        return errors
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
