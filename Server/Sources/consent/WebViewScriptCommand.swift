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
            (ConsentKitUI's cmp-frames.js and tcfapi.js wrapped in a function that hands it {payload, secret, \
            credential}), or with --update the script for an open page \
            (ConsentKitTCF.fromApp(payload, secret);), or with --payload the payload JSON, or with \
            --url the URL with gdpr, gdpr_consent and addtl_consent. The hand-over secret is \
            --secret, else a new random one; --consentd, --subject-id and --subject-token give the \
            app's credential, with which a page running ConsentKit's web CMP records the app's \
            consent. A TC string that does not decode counts as no consent, as in an app: a warning \
            says so on standard error. The payload's tcData is cut to the vendor list \
            (--vendor-list, else the one bundled with consentd), as an app cuts it to the list it holds.
            """
    )

    @Option(name: .customLong("tc-string"), help: "The TC string (IABTCF_TCString).")
    var tcString: String?

    @Option(name: .customLong("addtl-consent"), help: "Google's Additional Consent string (IABTCF_AddtlConsent), e.g. 2~1.35~dv.9.")
    var addtlConsent: String?

    @Option(name: .customLong("gdpr-applies"), help: "1 or 0 (IABTCF_gdprApplies); leave out for undetermined.")
    var gdprApplies: Int?

    @Option(name: .customLong("gpp-string"), help: "The GPP string (IABGPP_HDR_GppString): the page's __gpp answers with it.")
    var gppString: String?

    @Option(name: .customLong("gpp-sid"), help: "The GPP sections in force (IABGPP_GppSID), e.g. 8 or 7_8.")
    var gppSID: String?

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

    @Flag(help: "Print the script for a page already open (the update) instead of the document-start script.")
    var update = false

    @Option(help: "The hand-over secret (16 to 128 of A-Z a-z 0-9 - _); a new random one when left out.")
    var secret: String?

    @Option(help: ArgumentHelp("consentd's base URL, for the app's credential.", valueName: "url"))
    var consentd: String?

    @Option(name: .customLong("subject-id"), help: "The app's subject on consentd, for the app's credential.")
    var subjectId: String?

    @Option(name: .customLong("subject-token"), help: "A subject token consentd minted for --subject-id (ckt_…).")
    var subjectToken: String?

    func validate() throws {
        if let gdprApplies, gdprApplies != 0 && gdprApplies != 1 {
            throw ValidationError("--gdpr-applies takes 1 (applies) or 0 (does not apply); leave it out when undetermined")
        }
        if [url != nil, payload, update].filter({ $0 }).count > 1 { throw ValidationError("give one of --url, --payload and --update") }
        if let url, URL(string: url) == nil { throw ValidationError("--url \(url) is not a URL; quote it, e.g. --url 'https://example.com/a?b=c'") }
        if let secret, HandOverSecret(secret) == nil {
            throw ValidationError("--secret takes 16 to 128 characters of A-Z a-z 0-9 - _")
        }
        let credential = [consentd, subjectId, subjectToken].compactMap { $0 }.count
        if credential != 0 && credential != 3 {
            throw ValidationError("the app's credential takes all three of --consentd, --subject-id and --subject-token")
        }
        if let consentd, URL(string: consentd)?.host == nil { throw ValidationError("--consentd \(consentd) is not a URL with a host, e.g. https://consent.example.com") }
    }

    func run() throws {
        var keys: [String: StoredValue] = [IABKey.cmpSdkID: .integer(cmpId), IABKey.cmpSdkVersion: .integer(cmpVersion)]
        keys[IABKey.tcString] = tcString.map { .string($0) }
        keys[IABKey.addtlConsent] = addtlConsent.map { .string($0) }
        keys[IABKey.gdprApplies] = gdprApplies.map { .integer($0) }
        keys[IABKey.gppString] = gppString.map { .string($0) }
        keys[IABKey.gppApplicableSections] = gppSID.map { .string($0) }
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
            let handOver = secret.flatMap { HandOverSecret($0) } ?? HandOverSecret()
            if update {
                Output.line(consent.updateScript(secret: handOver))
            } else {
                var credential: AppCredential?
                if let consentd, let base = URL(string: consentd), let subjectId, let subjectToken {
                    credential = AppCredential(consentd: base, subjectId: subjectId, subjectToken: subjectToken)
                }
                Output.line(consent.documentStartScript(secret: handOver, credential: credential))
            }
        }
    }
}
