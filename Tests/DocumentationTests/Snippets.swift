// The code of every snippet in the DocC catalogs (Sources/*/*.docc) and the README's SDK
// section, compiled here so the docs cannot rot. A region runs from `// snippet: NAME` to
// `// end snippet`; DocumentationSyncTests checks that each ```swift block of the docs, marked
// `<!-- snippet: NAME -->`, is that region word for word (indentation and imports aside).
// Regions that need UIKit, WebKit or SwiftUI (the shipped notice, `ConsentNotice` and
// `.consentNotice`) sit behind the smallest #if, so Linux does not compile them; everything they
// call on ConsentKit and ConsentKitUI is also called in code compiled here (`NoticeOnLinux`).
import ConsentKit
import ConsentKitAppTracking
import ConsentKitObservation
import ConsentKitUI
import IABConsentReader
import Foundation
import TCF
#if canImport(UIKit)
import UIKit
#endif
#if canImport(SwiftUI)
import SwiftUI
#endif

enum Snippets {
    static func configure() -> ConsentManager {
        // snippet: configure
        let consent = ConsentManager(consentd: ConsentdEndpoint(
            baseURL: URL(string: "https://consent.example.com")!,
            publishableKey: "ck_pub_…",
            publisherIds: ["pub-0000000000000001"]))
        // end snippet
        return consent
    }

    static func launch(
        _ consent: ConsentManager, signedInUserId: String?, consentToken: @escaping @Sendable () async throws -> String,
        presentNotice: () async -> Void, startAds: () -> Void
    ) async throws {
        // snippet: launch
        consent.start()                 // no network: keys published, the stored decision restored
        if let userId = signedInUserId {  // a signed-in user: their choice on other devices counts here
            try consent.identify(userId: userId, tokens: consentToken)
        }
        await consent.refreshed()       // the region, the vendor list, a signed-in user's choice (≤ 1.5 s)
        if consent.shouldAsk {
            await presentNotice()       // your notice records the choice, see below
        }
        if consent.canRequestAds {
            startAds()
        }
        // end snippet
    }

    static func usPrivacy(endpoint: ConsentdEndpoint, gpcSetting: Bool, startAds: () -> Void) async throws {
        // snippet: us-privacy
        var configuration = ConsentConfiguration(consentd: endpoint)
        configuration.globalPrivacyControl = gpcSetting    // the app's own "Global Privacy Control" switch
        let consent = ConsentManager(configuration: configuration)
        await consent.refreshed()
        startAds()                                         // canRequestAds is true in the US
        if consent.shouldAsk, consent.usApplicability != .notApplicable {
            // show the US notice at collection, then record the answer:
            try consent.recordUSChoice(USPrivacyChoice(
                saleOptOut: true, sharingOptOut: true, targetedAdvertisingOptOut: true,
                noticeVersion: 3, language: "en", decided: Date()))
        }
        let restricted = consent.restrictsDataProcessing   // what gad_rdp says
        // end snippet
        _ = restricted
    }

    static func record(_ consent: ConsentManager) throws {
        // snippet: record-choice
        try consent.agreeToAll()        // "Accept all"
        try consent.disagreeToAll()     // "Reject all"
        try consent.update { choices in // "Save choices"
            try choices.setPurpose(1, consent: true)
            try choices.setVendor(755, consent: true)
        }
        // end snippet
    }

    static func privacySettings(_ consent: ConsentManager, presenter: any NoticePresenting, showEntry: (Bool) -> Void) async {
        // snippet: privacy-options
        showEntry(consent.privacyOptionsRequirement == .required)
        // When the user taps it:
        _ = await consent.presentPrivacyOptions(with: presenter)
        // end snippet
    }

    static func configuration() -> ConsentManager {
        // snippet: configuration
        var configuration = ConsentConfiguration(consentd: ConsentdEndpoint(
            baseURL: URL(string: "https://consent.example.com")!,
            publishableKey: "ck_pub_…",
            publisherIds: ["pub-0000000000000001"]))
        configuration.askRules = AskRules(whenRegionUnknown: .doNotAsk)   // only if consentd knows the country
        configuration.vendorListSnapshot = Bundle.main.url(forResource: "vendor-list", withExtension: "json")
        let consent = ConsentManager(configuration: configuration)
        // end snippet
        return consent
    }

    static func debugGeography() async -> ConsentManager {
        // snippet: debug-geography
        var configuration = ConsentConfiguration(consentd: ConsentdEndpoint(
            baseURL: URL(string: "https://consent.example.com")!,
            publishableKey: "ck_pub_…",
            publisherIds: ["pub-0000000000000001"]))
        configuration.device = await DeviceInfo.current(identifiers: SystemDeviceIdentifiers())   // the IDFV, logged at start
        configuration.debug = RegionDebugSettings(geography: .eea, deviceIdentifiers: ["8D3C5E2A-41F0-4B7E-9C1D-2A6B3F4E5D60"])
        let consent = ConsentManager(configuration: configuration)
        // end snippet
        return consent
    }

    static func events(_ consent: ConsentManager) async {
        // snippet: events
        for await event in consent.events() {
            switch event {
            case .consentChanged(let decision): print("decision:", decision?.purposeConsents ?? [])
            case .regionDecided(let gdpr, let source): print("GDPR \(gdpr), from \(source)")
            case .error(let error): print("carried on after:", error)
            default: break
            }
        }
        // end snippet
    }

    /// The app's own backend, which holds consentd's secret key and mints subject tokens.
    protocol Backend: Sendable {
        func consentToken() async throws -> String
    }

    static func sync(_ consent: ConsentManager, backend: any Backend) async throws -> Int {
        // snippet: sync
        // After sign-in, and at every launch while signed in:
        try consent.identify(userId: "customer-user-42", tokens: { try await backend.consentToken() })
        // Optional: sync now (it also happens on its own) and look at how it stands.
        let status = await consent.syncNow()
        print("pending:", status?.pending ?? 0, "last error:", status?.lastError.map { "\($0)" } ?? "none")
        // On logout:
        consent.forgetUser()
        // end snippet
        return status?.pending ?? 0
    }

    @MainActor
    static func observe(_ consent: ConsentManager) -> Bool {
        if #available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *) {
            // snippet: observation
            let model = ConsentModel(manager: consent)
            let showNotice = model.shouldAsk
            // end snippet
            return showNotice
        }
        return false
    }

    static func google(_ consent: ConsentManager) async throws -> [String: String] {
        // snippet: google
        let google = GoogleAdsConsent(manager: consent)
        _ = try await google.requestConsentInfoUpdate()   // awaits the refresh start() began
        if google.shouldShowConsentForm {
            // show the notice
        }
        let parameters = google.canRequestAds ? google.adRequestParameters : [:]
        // end snippet
        return parameters
    }

    static func googleStatus(_ google: GoogleAdsConsent) throws -> ([String: String], String?) {
        // snippet: google-signals
        try google.setStatus(.nonPersonalized)             // from the app's own form
        let extras = google.adRequestParameters            // ["npa": "1"]
        let additionalConsent = google.additionalConsentString
        let consentMode = google.consentMode().byName      // ad_storage, ad_user_data, …
        // end snippet
        _ = consentMode
        return (extras, additionalConsent)
    }

    static func tracking(_ consent: ConsentManager, presenter: any NoticePresenting) async -> ConsentFlowResult {
        // snippet: att-flow
        let flow = ConsentFlow(manager: consent, policy: .noticeFirst(tracking: .ifAnyPurposeConsented), notice: presenter)
        let result = await flow.run()
        // end snippet
        return result
    }

    static func explainedTracking(
        _ consent: ConsentManager, explainer: any TrackingExplaining, presenter: any NoticePresenting
    ) async -> ConsentFlowResult {
        // snippet: att-explainer
        let policy = ConsentFlowPolicy.noticeFirst(tracking: .always).explainingTracking(with: explainer)
        let explained = await ConsentFlow(manager: consent, policy: policy, notice: presenter).run()
        // end snippet
        return explained
    }

    static func systemTracking(manager: ConsentManager, presenter: any NoticePresenting) async -> ConsentFlowResult {
        // snippet: att-flow-system
        let result = await ConsentFlow(manager: manager, policy: .trackingFirst, notice: presenter).run()
        // end snippet
        return result
    }

    static func identifiers() async -> UUID? {
        // snippet: att-identifiers
        let identifiers = await TrackingIdentifiers.current(store: UserDefaultsStore())
        let idfa = identifiers.advertisingIdentifier      // nil unless tracking is authorized
        // end snippet
        return idfa
    }

    static func vendorSide() -> Bool {
        // snippet: vendor-side
        let snapshot = IABConsentReader().snapshot()
        let me = VendorDeclaration(id: 755, purposes: [1, 3, 4], legIntPurposes: [2, 7, 9, 10], flexiblePurposes: [2, 7, 9, 10])
        let decision = snapshot.decision(for: me, purpose: 3)
        if decision.isAllowed {
            // personalise
        }
        // end snippet
        return decision.isAllowed
    }

    static func vendorSideMacros() -> String {
        // snippet: vendor-side-macros
        let macros = ConsentMacros(IABConsentReader().snapshot())
        let url = macros.expand("https://ads.example.com/bid?gdpr=${GDPR}&gdpr_consent=${GDPR_CONSENT_755}")
        // end snippet
        return url
    }

    static func decode(_ string: String) throws -> Bool {
        // snippet: tcf-decode
        let tc = try TCString(decoding: string)    // throws TCFDecodingError: field and bit offset
        let mayStore = tc.purposesConsent.contains(1) && tc.vendorConsents.contains(755)
        let again = try tc.encoded()               // the shortest encoding per section
        // end snippet
        _ = again
        return mayStore
    }

    static func vendorList(_ data: Data) throws -> String? {
        // snippet: tcf-vendor-list
        let list = try VendorList(jsonData: data)  // throws VendorListError with the JSON path
        let google = list.vendors[755]?.name
        // end snippet
        return google
    }
}

#if canImport(UIKit) && canImport(WebKit)
// snippet: uikit
@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    let consent = ConsentManager(consentd: ConsentdEndpoint(
        baseURL: URL(string: "https://consent.example.com")!,
        publishableKey: "ck_pub_…",
        publisherIds: ["pub-0000000000000001"]))

    func application(_ application: UIApplication, didFinishLaunchingWithOptions options: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        consent.start()
        return true
    }
}

final class FeedViewController: UIViewController {
    var consent: ConsentManager { (UIApplication.shared.delegate as! AppDelegate).consent }
    lazy var notice = ConsentNotice(manager: consent, settings: NoticeSettings(
        publisherName: "Example News", privacyPolicyURL: URL(string: "https://example.com/privacy")))

    override func viewDidAppear(_ animated: Bool) {
        super.viewDidAppear(animated)
        Task {
            await consent.refreshed()
            await notice.presentIfRequired(from: self)   // only when the ask rules say so
            if consent.canRequestAds { /* load ads */ }
        }
    }

    @objc func privacySettingsTapped() {
        Task { await notice.presentPreferences(from: self) }
    }
}
// end snippet
#endif

#if canImport(SwiftUI) && canImport(UIKit) && canImport(WebKit)
// snippet: swiftui
struct NewsApp: App {
    let consent = ConsentManager(consentd: ConsentdEndpoint(
        baseURL: URL(string: "https://consent.example.com")!,
        publishableKey: "ck_pub_…",
        publisherIds: ["pub-0000000000000001"]))
    @State private var showsNotice = false

    var body: some Scene {
        WindowGroup {
            Text("Feed")
                .consentNotice(isPresented: $showsNotice, notice: ConsentNotice(manager: consent, settings: NoticeSettings(
                    publisherName: "Example News", privacyPolicyURL: URL(string: "https://example.com/privacy"))))
                .task {
                    consent.start()
                    await consent.refreshed()
                    showsNotice = consent.shouldAsk
                }
        }
    }
}
// end snippet
#endif

#if canImport(UIKit) && canImport(WebKit)
@MainActor
enum NoticeSnippets {
    static func minimal(viewController: UIViewController, startAds: () -> Void) async {
        // snippet: notice-minimal
        let consent = ConsentManager(consentd: ConsentdEndpoint(
            baseURL: URL(string: "https://consent.example.com")!,
            publishableKey: "ck_pub_…",
            publisherIds: ["pub-0000000000000001"]))
        let notice = ConsentNotice(manager: consent, settings: NoticeSettings(
            publisherName: "Example News", privacyPolicyURL: URL(string: "https://example.com/privacy")))
        consent.start()                                       // no network: the stored decision restored
        await consent.refreshed()                             // the region and vendor list start() asked for
        await notice.presentIfRequired(from: viewController)  // shown only when the ask rules say so
        if consent.canRequestAds {
            startAds()
        }
        // end snippet
    }
}
#endif

/// What the notice regions above call, compiled where they cannot be (Linux has no UIKit,
/// WebKit or SwiftUI, so `ConsentNotice` and `.consentNotice` exist only on Apple platforms):
/// `ConsentNotice.presentIfRequired` asks `askVerdict()` and, when it says so, opens a
/// `NoticeSession` over the same manager and settings, which is what this does.
enum NoticeOnLinux {
    static func presentIfRequired(startAds: () -> Void) async throws {
        let consent = ConsentManager(consentd: ConsentdEndpoint(
            baseURL: URL(string: "https://consent.example.com")!,
            publishableKey: "ck_pub_…",
            publisherIds: ["pub-0000000000000001"]))
        let settings = NoticeSettings(
            publisherName: "Example News", privacyPolicyURL: URL(string: "https://example.com/privacy"))
        consent.start()
        await consent.refreshed()
        let verdict = consent.askVerdict()
        if verdict.shouldAsk {
            _ = try NoticeSession(manager: consent, settings: settings, request: NoticeRequest(reason: verdict, allowsDismissal: false))
        }
        _ = try NoticeSession(manager: consent, settings: settings,
                              request: NoticeRequest(reason: verdict, allowsDismissal: true, isUserInitiated: true))
        if consent.canRequestAds {
            startAds()
        }
    }
}
