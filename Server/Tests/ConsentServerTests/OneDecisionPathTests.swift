import ConsentdAPI
@testable import ConsentServer
// Not Hummingbird: it re-exports HTTPTypes' TransportRequest and TransportResponse, and here those names
// mean the SDK's.
import ConsentKit
import ConsentKitUI
import Foundation
import TCF
import Testing

/// Issue 25 §1: the same choice made in an app (``NoticeSession`` recording through a
/// ``ConsentManager``, whose sync outbox is read), in consentd's demo (``NoticeDemo``) and on a
/// website (``WebCMP``) is stored as the same consent event, apart from `platform`, the event
/// id and the subject. The app is configured as the surface it is compared with: the same
/// vendors, ad-tech providers, country, notice version and notice id.
@Suite("One decision path: app, demo and website record the same event")
struct OneDecisionPathTests {
    /// 2026-03-04T05:06:07.890Z.
    static let date = Date(timeIntervalSince1970: 1_772_600_767.89)

    /// Answers consentd's `/v1/config` for one publisher; refuses everything else (so the
    /// events stay in the outbox).
    struct ConfigOnly: HTTPTransport {
        var vendorIds: [Int]
        var providers: [AppConfig.AdTechProvider]

        func send(_ request: TransportRequest) async throws -> TransportResponse {
            guard request.method == "GET" else {
                return TransportResponse(status: 503, body: Data(#"{"error":{"code":"unavailable","message":"test"}}"#.utf8))
            }
            let list = providers.map { #"{"id":\#($0.id),"name":"\#($0.name)","privacyPolicyUrl":"\#($0.privacyPolicyUrl)"}"# }
                .joined(separator: ",")
            return TransportResponse(status: 200, body: Data("""
                {"appId":"com.example.app","gdprApplies":true,"region":"eea","country":"DE","geoSource":"header",
                 "publishers":[{"id":"pub-1","name":"Example","vendorIds":\(vendorIds),"adTechProviders":[\(list)],"nonPersonalizedOnly":false}],
                 "vendorIds":\(vendorIds),"adTechProviders":[\(list)],"vendorListVersion":45,"tcfPolicyVersion":4,"gvlSpecificationVersion":3}
                """.utf8))
        }
    }

    /// The vendor list the server holds, held by the app from the start.
    struct HeldList: VendorListLoading {
        var list: VendorList
        func localVendorList() async -> VendorList? { list }
        func refreshVendorList() async throws -> VendorList? { nil }
    }

    /// An app configured as a surface: its manager, and its sync folder.
    struct App {
        let manager: ConsentManager
        let folder: URL

        init(list: VendorList, cmp: CMPIdentity, vendorIds: [Int], providers: [AppConfig.AdTechProvider], countryCode: String,
             noticeVersion: Int, noticeId: String) async {
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("one-path-\(UUID().uuidString)")
            manager = ConsentManager(configuration: ConsentConfiguration(
                consentd: ConsentdEndpoint(baseURL: URL(string: "https://consentd.example")!, publishableKey: "ck_pub_k_s", publisherIds: ["pub-1"]),
                cmp: cmp, store: InMemoryKeyValueStore(), transport: ConfigOnly(vendorIds: vendorIds, providers: providers),
                publisher: PublisherSettings(countryCode: countryCode), noticeVersion: noticeVersion,
                vendorLists: HeldList(list: list), log: .silent, now: { OneDecisionPathTests.date },
                sync: ConsentSyncSettings(directory: folder, noticeId: noticeId, platform: .ios, initialBackoff: 3600)))
            manager.start(refreshing: false)
            await manager.refresh()
        }

        /// Shows the notice with `settings`, answers it with `message`, and reads the event the
        /// decision put in the outbox.
        func choose(_ message: Data, settings: NoticeSettings) throws -> ConsentEventRequest {
            let session = try NoticeSession(manager: manager, settings: settings, request: NoticeRequest(reason: .noDecision, allowsDismissal: false))
            guard case .decided = session.receive(message) else { throw Refused(what: "the app did not decide") }
            // The outbox log: one `{"add": entry}` line per event, then a zero-filled tail.
            struct Entry: Decodable { var event: ConsentEventRequest }
            let lines = try Data(contentsOf: folder.appendingPathComponent("outbox.jsonl")).split(separator: UInt8(ascii: "\n"))
            let added = try #require(lines.last { $0.starts(with: Array(#"{"add":"#.utf8)) })
            return try #require(try JSONDecoder().decode([String: Entry].self, from: Data(added))["add"]).event
        }
    }

    struct Refused: Error { var what: String }

    /// Runs `body` with a fresh consentd, then closes its database.
    static func withConsentd(_ body: (Consentd) async throws -> Void) async throws {
        let server = try await TestServer.make()
        do {
            try await body(server.consentd)
        } catch {
            await server.consentd.close()
            throw error
        }
        await server.consentd.close()
    }

    /// The event without what may differ between surfaces.
    static func comparable(_ event: ConsentEventRequest) -> ConsentEventRequest {
        var event = event
        event.eventId = ""
        event.subjectId = nil
        event.consent.proof.platform = .web
        return event
    }

    /// A result message.
    static func message(_ action: String, layer: Int, noticeVersion: Int, choices: String? = nil) -> String {
        let choice = choices.map { #","choices":\#($0)"# } ?? ""
        return #"{"protocol":1,"type":"result","action":"\#(action)","layer":\#(layer),"language":"en","noticeVersion":\#(noticeVersion)\#(choice)}"#
    }

    /// The three choices: accept all, reject all, and a custom one over `document`'s first vendor and Google.
    static func choices(_ document: NoticeDocument, noticeVersion: Int) throws -> [(name: String, message: String)] {
        let first = try #require(document.vendors.first { $0.id != GoogleConsentStatus.googleVendorId }).id
        let provider = try #require(document.adTechProviders.first).id
        let custom = #"{"purposeConsents":[1,2,3,4,7],"purposeLegitimateInterests":[7,10],"specialFeatureOptIns":[1],"vendorConsents":[\#(first),755],"vendorLegitimateInterests":[755],"adTechProviderConsents":[\#(provider)]}"#
        return [
            ("accept all", message("acceptAll", layer: 1, noticeVersion: noticeVersion)),
            ("reject all", message("rejectAll", layer: 2, noticeVersion: noticeVersion)),
            ("custom", message("save", layer: 3, noticeVersion: noticeVersion, choices: custom)),
        ]
    }

    @Test("the demo and an app configured as it record equal events for accept all, reject all and a custom choice")
    func demoEqualsApp() async throws {
        try await Self.withConsentd { consentd in
            let demo = consentd.demo
            let document = try demo.exchange(NoticeDemo.Options()).document
            let settings = NoticeSettings(
                publisherName: "Example News", privacyPolicyURL: URL(string: "https://news.example.com/privacy"), language: "en",
                storageDisclosureBase: URL(string: "/v1/vendor-list/storage"))
            for (name, message) in try Self.choices(document, noticeVersion: NoticeDemo.noticeVersion) {
                let app = await App(list: demo.catalog.vendorList, cmp: demo.cmp, vendorIds: document.vendors.map(\.id),
                                    providers: NoticeDemo.adTechProviders, countryCode: "DE", noticeVersion: NoticeDemo.noticeVersion,
                                    noticeId: "demo-tcf")
                let appEvent = try app.choose(Data(message.utf8), settings: settings)
                let decide = try NoticeDemo.Decide(json: Data(#"{"options":{},"message":\#(message),"credential":"k"}"#.utf8))
                let demoEvent = try #require(try demo.decide(decide, now: Self.date).event)
                #expect(Self.comparable(appEvent) == Self.comparable(demoEvent), "\(name)")
                #expect(appEvent.consent.proof.platform == .ios && demoEvent.consent.proof.platform == .web)
                #expect(demoEvent.consent.vendorConsents != nil && demoEvent.consent.purposeConsents != nil, "\(name): the demo's event carries the lists")
            }
        }
    }

    @Test("Google mode: the demo and an app configured as it record equal events for consent and do not consent")
    func googleDemoEqualsApp() async throws {
        try await Self.withConsentd { consentd in
            let demo = consentd.demo
            let document = try demo.exchange(NoticeDemo.Options(mode: .google)).document
            let settings = NoticeSettings(
                mode: .google, publisherName: "Example News", privacyPolicyURL: URL(string: "https://news.example.com/privacy"), offersAdFree: true,
                language: "en", storageDisclosureBase: URL(string: "/v1/vendor-list/storage"))
            for (name, action, choice) in [("consent", "acceptAll", GoogleAdsChoice.personalized), ("do not consent", "nonPersonalized", .nonPersonalized)] {
                let message = Self.message(action, layer: 1, noticeVersion: NoticeDemo.noticeVersion)
                let app = await App(list: demo.catalog.vendorList, cmp: demo.cmp, vendorIds: document.vendors.map(\.id),
                                    providers: NoticeDemo.adTechProviders, countryCode: "DE", noticeVersion: NoticeDemo.noticeVersion,
                                    noticeId: "demo-google")
                let appEvent = try app.choose(Data(message.utf8), settings: settings)
                let decide = try NoticeDemo.Decide(json: Data(#"{"options":{"mode":"google"},"message":\#(message),"credential":"k"}"#.utf8))
                let demoEvent = try #require(try demo.decide(decide, now: Self.date).event)
                #expect(Self.comparable(appEvent) == Self.comparable(demoEvent), "\(name)")
                #expect(demoEvent.consent.googleAdsChoice == choice, "\(name)")
            }
        }
    }

    @Test("a website and an app configured as it record equal events for accept all, reject all and a custom choice")
    func websiteEqualsApp() async throws {
        try await Self.withConsentd { consentd in
            let web = consentd.web
            let site = try web.site(appId: DemoSite.appId)
            let document = try web.exchange(site, language: "en", current: nil, reopen: false, reason: .noDecision).document
            let settings = NoticeSettings(
                publisherName: site.website.name, privacyPolicyURL: site.website.privacyPolicyURL, language: "en",
                storageDisclosureBase: URL(string: "/v1/vendor-list/storage"))
            for (name, message) in try Self.choices(document, noticeVersion: document.noticeVersion) {
                let app = await App(list: web.catalog.vendorList, cmp: web.cmp, vendorIds: site.vendorIds, providers: site.adTechProviders,
                                    countryCode: "AA", noticeVersion: document.noticeVersion, noticeId: "web:" + DemoSite.appId)
                let appEvent = try app.choose(Data(message.utf8), settings: settings)
                let request = try WebCMP.ChoiceRequest(json: Data(#"{"credential":"k","language":"en","message":\#(message)}"#.utf8))
                let eea = RegionDecision(gdprApplies: true, region: .eea, country: "DE", subdivision: nil, geoSource: .debug)
                let webEvent = try #require(try web.choice(request, appId: DemoSite.appId, region: eea, now: Self.date).choice).event
                #expect(Self.comparable(appEvent) == Self.comparable(webEvent), "\(name)")
                #expect(webEvent.consent.vendorLegitimateInterests != nil, "\(name): the website's event carries the lists")
            }
        }
    }
}
