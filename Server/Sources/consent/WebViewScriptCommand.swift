import ArgumentParser
import ConsentKit
import ConsentKitUI
import ConsentServer
import Foundation
import TCF

/// `consent webview-script`: what an app's web view gets for a given consent, made by the SDK's
/// own `WebViewConsent` from keys as the app stores them (for browser tests and for looking).
struct WebViewScriptCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "webview-script",
        abstract: "Print the script, payload or URL an app's web view gets for a consent.",
        discussion: """
            The options are stored as the app's IAB keys (IABTCF_TCString, IABTCF_AddtlConsent, \
            IABTCF_gdprApplies, IABTCF_CmpSdkID, IABTCF_CmpSdkVersion) in an in-memory store, and \
            the SDK's WebViewConsent reads them, as in an app. Prints the document-start script \
            (ConsentKitUI's tcfapi.js, then ConsentKitTCF.fromApp(payload);), or with --payload the \
            payload JSON, or with --url the URL with gdpr, gdpr_consent and addtl_consent. A TC \
            string that does not decode counts as no consent, as in an app: a warning says so on \
            standard error. The payload's tcData is cut to the vendor list (--vendor-list, else \
            the one bundled with consentd), as an app cuts it to the list it holds.
            """
    )

    @Option(name: .customLong("tc-string"), help: "The TC string (IABTCF_TCString).")
    var tcString: String?

    @Option(name: .customLong("addtl-consent"), help: "Google's Additional Consent string (IABTCF_AddtlConsent), e.g. 2~1.35~dv.9.")
    var addtlConsent: String?

    @Option(name: .customLong("gdpr-applies"), help: "1 or 0 (IABTCF_gdprApplies); leave out for undetermined.")
    var gdprApplies: Int?

    @Option(name: .customLong("cmp-id"), help: "The CMP's registered id (IABTCF_CmpSdkID).")
    var cmpId = CMPIdentity.development.cmpId

    @Option(name: .customLong("cmp-version"), help: "The CMP's version (IABTCF_CmpSdkVersion).")
    var cmpVersion = CMPIdentity.development.cmpVersion

    @Option(name: .customLong("vendor-list"), help: "The vendor list the app holds (a vendor-list.json file); the one bundled with consentd when left out.")
    var vendorList: String?

    @Option(help: ArgumentHelp("Print this URL with the consent's parameters instead of the script.", valueName: "url"))
    var url: String?

    @Flag(help: "Print only the payload JSON instead of the script.")
    var payload = false

    func validate() throws {
        if let gdprApplies, gdprApplies != 0 && gdprApplies != 1 {
            throw ValidationError("--gdpr-applies takes 1 (applies) or 0 (does not apply); leave it out when undetermined")
        }
        if url != nil && payload { throw ValidationError("give --url or --payload, not both") }
        if let url, URL(string: url) == nil { throw ValidationError("--url \(url) is not a URL; quote it, e.g. --url 'https://example.com/a?b=c'") }
    }

    func run() throws {
        var keys: [String: StoredValue] = [IABKey.cmpSdkID: .integer(cmpId), IABKey.cmpSdkVersion: .integer(cmpVersion)]
        keys[IABKey.tcString] = tcString.map { .string($0) }
        keys[IABKey.addtlConsent] = addtlConsent.map { .string($0) }
        keys[IABKey.gdprApplies] = gdprApplies.map { .integer($0) }
        let list = try vendorList.map { try VendorList(jsonData: Data(contentsOf: URL(fileURLWithPath: $0))) }
            ?? VendorListCatalog.bundled().vendorList
        let consent = WebViewConsent(keys: InMemoryKeyValueStore(keys), vendorList: list)
        if let tcString, !tcString.isEmpty {
            do {
                _ = try TCString(decoding: tcString)
            } catch {
                Output.error("warning: the TC string does not decode (\(error)); the output carries no consent")
            }
        }
        if let url, let parsed = URL(string: url) {
            Output.line(consent.url(parsed).absoluteString)
        } else if payload {
            Output.line(consent.payload)
        } else {
            Output.line(consent.documentStartScript)
        }
    }
}
