@testable import ConsentServer
import ConsentKit
import ConsentKitUI
import ConsentdAPI
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import TCF
import Testing

/// The web CMP's routes: `/cmp/*` (the scripts), `POST /v1/web/session` and `POST /v1/web/choices`,
/// on the demo's website (app `demo`) and on a website of the publisher configuration.
@Suite("The web CMP's routes")
struct WebCMPAPITests {
    /// A page's call: JSON sent as `text/plain` (a simple cross-origin request), checked against openapi.yaml.
    static func web(_ client: some TestClientProtocol, _ path: String, _ body: String) async throws -> TestResponse {
        let response = try await client.send(.post, path, json: body, headers: [.contentType: "text/plain;charset=UTF-8", .origin: "https://news.example.com"])
        let problems = OpenAPIContract.shared.problems(
            method: "POST", template: path, status: response.status.code, contentType: response.headers[.contentType],
            body: Data(response.body.readableBytesView))
        #expect(problems.isEmpty, "\(problems)")
        #expect(response.headers[.accessControlAllowOrigin] == "*", "every answer of /v1/web/ may be read by the page, \(path) \(response.status)")
        if response.status == .ok || response.status == .created {
            let body = Data(response.body.readableBytesView)
            switch path {
            case "/v1/web/session": try expectSpoken(WebSession.self, body)
            case "/v1/web/choices": try expectSpoken(WebChoice.self, body)
            default: break
            }
        }
        return response
    }

    /// The answer reads as ConsentdAPI's type, and the type writes it back as it came: no field
    /// the type does not know, none it would write differently.
    static func expectSpoken<Answer: Codable>(_ type: Answer.Type, _ body: Data) throws {
        let answer = try JSONDecoder().decode(Answer.self, from: body)
        let written = try JSONSerialization.jsonObject(with: JSONEncoder().encode(answer)) as? NSDictionary
        let sent = try JSONSerialization.jsonObject(with: body) as? NSDictionary
        #expect(written == sent, "\(Answer.self) does not say what the server answered")
    }

    @Test("the scripts: the shared frames mechanism, the two stubs (__tcfapi, __gpp) and the client's start; the frames mechanism, the two APIs, the start and the client; cacheable and loadable by any origin")
    func scripts() async throws {
        let server = try await TestServer.make()
        try await server.test { client async throws in
            let stub = try await client.send(.get, "/cmp/stub.js")
            #expect(stub.status == .ok && stub.headers[.contentType]?.hasPrefix("text/javascript") == true)
            #expect(stub.headers[.crossOriginResourcePolicy] == "cross-origin")
            let text = String(buffer: stub.body)
            #expect(text.contains("__tcfapiLocator") && text.contains("Object.defineProperty(window, 'ConsentKitWebStart'") && !text.contains("window.ConsentKitWeb ="))
            #expect(try #require(text.range(of: "__tcfapiLocator")).lowerBound < text.range(of: "Object.defineProperty(window, 'ConsentKitWebStart'")!.lowerBound,
                    "the stub comes first: __tcfapi is a function before anything else runs")
            let cmp = String(buffer: try await client.send(.get, "/cmp/cmp.js").body)
            let api = try #require(cmp.range(of: "window.ConsentKitTCF")), start = try #require(cmp.range(of: "Object.defineProperty(window, 'ConsentKitWebStart'"))
            let web = try #require(cmp.range(of: "window.ConsentKitWeb ="))
            #expect(api.lowerBound < start.lowerBound && start.lowerBound < web.lowerBound, "the API comes first: the client installs it")
            // All of it is ConsentKitUI's cmp/ folder: the API, the stub and the website's scripts (web/).
            let folder = try #require(NoticeResources.cmpDirectory)
            func source(_ name: String) throws -> String { try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8) + "\n" }
            #expect(text == (try source("cmp-frames.js") + source("tcfapi-stub.js") + source("gppapi-stub.js") + source("web/cmp-start.js")))
            #expect(cmp == (try source("cmp-frames.js") + source("tcfapi.js") + source("gppapi.js") + source("web/cmp-start.js")
                            + source("web/cmp-web.js")))
            #expect(try await client.send(.get, "/cmp/nothing.js").status == .notFound)
        }
    }

    @Test("a first page view in the EEA: asked, with the notice's document and no consent meanwhile")
    func firstView() async throws {
        let server = try await TestServer.make()
        try await server.test { client async throws in
            let key = try await server.consentd.demoSite.key(server.consentd.keys)
            let answer = try await Self.web(client, "/v1/web/session", #"{"credential":"\#(key)","debugRegion":"eea","language":"de-AT"}"#)
            #expect(answer.status == .ok)
            #expect(answer.object["gdprApplies"] as? Bool == true && answer.object["ask"] as? String == "noDecision")
            #expect(answer.object["tcData"] is NSNull)
            let document = try #require(answer.object["document"] as? [String: Any])
            #expect((document["vendors"] as? [Any])?.count == 20)
            // de-AT asks for German; the bundled 2020 translations do not cover GVL v3 #45, so the
            // notice is whole in English and says so.
            #expect(document["language"] as? String == "en")
            #expect((document["languageFallback"] as? [String: Any])?["requested"] as? String == "de")
            let shown = try #require(answer.object["uiTCData"] as? [String: Any])
            let purposes = try #require(shown["purpose"] as? [String: Any])
            #expect(purposes["consents"] as? String == "", "no consent (id maps are binary strings)")
            #expect((purposes["legitimateInterests"] as? String)?.contains("1") == true)
        }
    }

    /// `key`'s value in `object` as its JSON text's object, for comparing.
    static func json(_ object: [String: Any], _ key: String) throws -> NSDictionary {
        try #require(object[key] as? [String: Any]) as NSDictionary
    }

    /// `text` (a TCData's JSON) read back.
    static func json(_ text: String) throws -> NSDictionary {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? NSDictionary)
    }

    @Test("a page view's TCData objects, shown and stored, are the TCData of their string with id maps as binary strings")
    func sessionTCDataIsCompact() async throws {
        let server = try await TestServer.make()
        try await server.test { client async throws in
            let key = try await server.consentd.demoSite.key(server.consentd.keys)
            let bounds = TCData.Bounds(vendorList: server.consentd.catalog.vendorList)
            let asked = try await Self.web(client, "/v1/web/session", #"{"credential":"\#(key)","debugRegion":"eea","language":"en"}"#)
            let cmp = CMPIdentity(cmpId: try #require(asked.object["cmpId"] as? Int), cmpVersion: try #require(asked.object["cmpVersion"] as? Int))
            let shown = try #require(asked.object["uiTCData"] as? [String: Any])
            let shownString = try #require(shown["tcString"] as? String)
            let shownData = TCData(tcString: shownString, decoded: try TCString(decoding: shownString), addtlConsent: shown["addtlConsent"] as? String,
                                   cmp: cmp, bounds: bounds)
            #expect(try Self.json(asked.object, "uiTCData") == (try Self.json(shownData.json(idMaps: .binaryStrings))))
            #expect(((shown["vendor"] as? [String: Any])?["disclosedVendors"] as? String)?.filter({ $0 == "1" }).count == 20)

            let accept = #"{"protocol":1,"type":"result","action":"acceptAll","layer":1,"language":"en","noticeVersion":0}"#
            let chosen = try await Self.web(client, "/v1/web/choices", #"{"credential":"\#(key)","message":\#(accept)}"#)
            let tcString = try #require(chosen.object["tcString"] as? String), ac = try #require(chosen.object["addtlConsent"] as? String)
            let stored = TCData(tcString: tcString, decoded: try TCString(decoding: tcString), addtlConsent: ac, cmp: cmp, bounds: bounds)
            #expect(try Self.json(chosen.object, "tcData") == (try Self.json(stored.json())), "a choice's answer keeps the API's own maps")
            let back = try await Self.web(client, "/v1/web/session",
                                          #"{"credential":"\#(key)","debugRegion":"eea","tcString":"\#(tcString)","addtlConsent":"\#(ac)"}"#)
            #expect(try Self.json(back.object, "tcData") == (try Self.json(stored.json(idMaps: .binaryStrings))))
        }
    }

    @Test("a choice is checked, stored as a web event and kept; the next page view holds it (tcloaded)")
    func choiceThenReturn() async throws {
        let server = try await TestServer.make()
        try await server.test { client async throws in
            let key = try await server.consentd.demoSite.key(server.consentd.keys)
            let accept = #"{"protocol":1,"type":"result","action":"acceptAll","layer":1,"language":"en","noticeVersion":0}"#
            let chosen = try await Self.web(client, "/v1/web/choices", #"{"credential":"\#(key)","message":\#(accept)}"#)
            #expect(chosen.status == .created)
            let tcString = try #require(chosen.object["tcString"] as? String)
            let subjectId = try #require(chosen.object["subjectId"] as? String)
            let token = try #require(chosen.object["subjectToken"] as? String)
            let decoded = try TCString(decoding: tcString)
            #expect(decoded.vendorConsents.contains(755) && decoded.purposesConsent.contains(1))
            #expect(decoded.disclosedVendors?.count == 20)
            let tcData = try #require(chosen.object["tcData"] as? [String: Any])
            #expect(tcData["tcString"] as? String == tcString)
            let stored = try #require(try await server.consentd.store.current(appId: DemoSite.appId, subjectId: subjectId))
            #expect(stored.consent.tcString == tcString)
            #expect(stored.consent.proof.platform == .web && stored.consent.proof.method == .acceptAll)
            #expect(stored.consent.additionalConsent == chosen.object["addtlConsent"] as? String)

            // The next page view, with the string and AC string the page keeps: nothing to ask.
            let ac = try #require(chosen.object["addtlConsent"] as? String)
            let back = try await Self.web(client, "/v1/web/session",
                                          #"{"credential":"\#(key)","debugRegion":"eea","tcString":"\#(tcString)","addtlConsent":"\#(ac)"}"#)
            #expect(back.object["ask"] is NSNull && back.object["document"] == nil)
            #expect((back.object["tcData"] as? [String: Any])?["tcString"] as? String == tcString)

            // The subject's token records the next choice for the same subject.
            let reject = #"{"protocol":1,"type":"result","action":"rejectAll","layer":2,"language":"en","noticeVersion":0}"#
            let again = try await Self.web(client, "/v1/web/choices", #"""
                {"credential":"\#(token)","subjectId":"\#(subjectId)","tcString":"\#(tcString)","addtlConsent":"\#(ac)","reopen":true,"message":\#(reject)}
                """#)
            #expect(again.status == .created && again.object["subjectId"] as? String == subjectId && again.object["subjectToken"] == nil)
            #expect(try TCString(decoding: #require(again.object["tcString"] as? String)).vendorConsents.isEmpty)
            #expect(try await server.consentd.store.current(appId: DemoSite.appId, subjectId: subjectId)?.consent.proof.method == .rejectAll)

            // Closed without a choice: nothing is stored.
            let dismissed = #"{"protocol":1,"type":"result","action":"dismissed","layer":2,"language":"en","noticeVersion":0}"#
            let closed = try await Self.web(client, "/v1/web/choices", #"""
                {"credential":"\#(token)","subjectId":"\#(subjectId)","reopen":true,"message":\#(dismissed)}
                """#)
            #expect(closed.status == .ok && closed.object["action"] as? String == "dismissed" && closed.object["tcString"] == nil)
        }
    }

    @Test("000-3, 001-9: where the region is unknown the visitor is asked, and once decided GDPR applies to the decision (gdprApplies true, its TCData)")
    func unknownRegionAppliesOnceDecided() async throws {
        let server = try await TestServer.make()
        try await server.test { client async throws in
            let key = try await server.consentd.demoSite.key(server.consentd.keys)
            let first = try await Self.web(client, "/v1/web/session", #"{"credential":"\#(key)"}"#)
            #expect(first.object["region"] as? String == "unknown")
            #expect(first.object["gdprApplies"] is NSNull && first.object["ask"] as? String == "noDecision")
            let accept = #"{"protocol":1,"type":"result","action":"acceptAll","layer":1,"language":"en","noticeVersion":0}"#
            let chosen = try await Self.web(client, "/v1/web/choices", #"{"credential":"\#(key)","message":\#(accept)}"#)
            let tcString = try #require(chosen.object["tcString"] as? String)
            let ac = try #require(chosen.object["addtlConsent"] as? String)
            let back = try await Self.web(client, "/v1/web/session", #"{"credential":"\#(key)","tcString":"\#(tcString)","addtlConsent":"\#(ac)"}"#)
            #expect(back.object["gdprApplies"] as? Bool == true && back.object["ask"] is NSNull)
            #expect((back.object["tcData"] as? [String: Any])?["gdprApplies"] as? Bool == true)
            let outside = try await Self.web(client, "/v1/web/session", #"{"credential":"\#(key)","debugRegion":"not_eea","tcString":"\#(tcString)","addtlConsent":"\#(ac)"}"#)
            #expect(outside.object["gdprApplies"] as? Bool == false)
        }
    }

    @Test("refusals: GDPR not applying, unknown sites and keys, results the document did not offer, malformed bodies")
    func refusals() async throws {
        let server = try await TestServer.make()
        try await server.test { client async throws in
            let key = try await server.consentd.demoSite.key(server.consentd.keys)
            let outside = try await Self.web(client, "/v1/web/session", #"{"credential":"\#(key)","debugRegion":"not_eea"}"#)
            #expect(outside.object["gdprApplies"] as? Bool == false && outside.object["document"] == nil && outside.object["ask"] is NSNull)
            let notApplicable = try #require(outside.object["tcData"] as? [String: Any])
            #expect(Set(notApplicable.keys) == ["gdprApplies", "tcfPolicyVersion", "cmpId", "cmpVersion"])

            // The app com.example.news has keys but no website.
            let noSite = try await Self.web(client, "/v1/web/session", #"{"credential":"\#(server.publishable)"}"#)
            #expect(noSite.status == .notFound && noSite.errorCode == "website_unknown")
            #expect(try await Self.web(client, "/v1/web/session", #"{"credential":"ck_pub_nothing"}"#).status == .unauthorized)
            #expect(try await Self.web(client, "/v1/web/session", #"{"credential":"\#(server.secret)"}"#).status == .forbidden)

            let tooMany = #"{"protocol":1,"type":"result","action":"save","layer":2,"language":"en","noticeVersion":0,"#
                + #""choices":{"purposeConsents":[1],"purposeLegitimateInterests":[],"specialFeatureOptIns":[],"vendorConsents":[99999],"#
                + #""vendorLegitimateInterests":[],"adTechProviderConsents":[]}}"#
            let refused = try await Self.web(client, "/v1/web/choices", #"{"credential":"\#(key)","message":\#(tooMany)}"#)
            #expect(refused.status == .unprocessableContent && refused.errorCode == "notice_result_refused")
            for body in ["[]", "3", #"{"credential":"\#(key)"}"#, #"{"credential":7,"message":{}}"#, #"{"credential":"\#(key)","message":"x"}"#,
                         #"{"credential":"\#(key)","appConsent":{"tcString":5}}"#] {
                #expect(try await Self.web(client, "/v1/web/choices", body).status == .badRequest, "\(body)")
            }
            for body in ["[]", #"{"credential":"\#(key)","debugRegion":"mars"}"#, #"{"language":"en"}"#] {
                #expect(try await Self.web(client, "/v1/web/session", body).status == .badRequest, "\(body)")
            }
            // A stored string that does not decode is ignored and said so: the visitor is asked.
            let garbage = try await Self.web(client, "/v1/web/session", #"{"credential":"\#(key)","debugRegion":"eea","tcString":"AAAA"}"#)
            #expect(garbage.object["ask"] as? String == "noDecision" && garbage.object["storedStringRefused"] is String)

            let preflight = try await client.send(.options, "/v1/web/session", headers: [.origin: "https://news.example.com"])
            #expect(preflight.status == .noContent && preflight.headers[.accessControlAllowOrigin] == "*")
        }
    }

    @Test("websites in the publisher configuration: required fields, known publishers")
    func configuration() throws {
        let yaml = """
            publishers:
              - id: pub-news
                name: Example News
                vendorIds: [755]
            websites:
              - appId: com.example.web
                name: Example News
                privacyPolicyUrl: https://news.example.com/privacy
                publisherIds: [pub-news]
            """
        let parsed = try PublisherConfiguration.parse(yaml, file: "p.yaml")
        #expect(parsed.websites["com.example.web"]?.publisherIds == ["pub-news"])
        #expect(throws: ConfigurationError.self) {
            try PublisherConfiguration.parse(yaml.replacingOccurrences(of: "[pub-news]", with: "[pub-other]"), file: "p.yaml")
        }
        do {
            _ = try PublisherConfiguration.parse(yaml.replacingOccurrences(of: "https://news.example.com/privacy", with: "news"), file: "p.yaml")
            Issue.record("a privacy policy that is not a URL is refused")
        } catch {
            #expect(error.field == "websites[0].privacyPolicyUrl" && error.line == 8)
        }
    }

    /// A website of the configuration with its own notice settings.
    static let brandedSiteYAML = TestServer.publishersYAML + """

        websites:
          - appId: com.example.web
            name: Example News
            privacyPolicyUrl: https://news.example.com/privacy
            publisherIds: [pub-news]
            notice:
              layout: banner
              logo: https://news.example.com/logo.png
              theme:
                cornerRadius: 4
                fontFamily: Georgia, serif
                buttonStyle: outlined
                light:
                  primary: "#7a1f1f"
                  link: "#7a1f1f"
        """

    @Test("a website's notice settings reach its visitors: layout, logo and theme, the colours not given kept from ConsentKit's")
    func websiteNoticeSettings() async throws {
        let server = try await TestServer.make(publishers: Self.brandedSiteYAML)
        try await server.test { client async throws in
            let key = try await server.consentd.keys.create(appId: "com.example.web", kind: .publishable, label: "site").token
            let answer = try await Self.web(client, "/v1/web/session", #"{"credential":"\#(key)","debugRegion":"eea"}"#)
            let document = try #require(answer.object["document"] as? [String: Any])
            #expect(document["layout"] as? String == "banner")
            #expect((document["publisher"] as? [String: Any])?["logo"] as? String == "https://news.example.com/logo.png")
            let theme = try #require(document["theme"] as? [String: Any])
            #expect(theme["cornerRadius"] as? Int == 4 && theme["fontFamily"] as? String == "Georgia, serif")
            #expect(theme["buttonStyle"] as? String == "outlined")
            let light = try #require(theme["light"] as? [String: String])
            #expect(light["primary"] == "#7a1f1f" && light["background"] == NoticeTheme.standard.light.background)
            #expect(theme["dark"] as? [String: String] == ["background": "#15171b", "surface": "#20242a", "text": "#f1f3f6",
                                                         "mutedText": "#c0c6cf", "primary": "#9cc0ff", "onPrimary": "#0a1a36",
                                                         "border": "#3b414a", "link": "#9cc0ff"])
        }
    }

    @Test("a website's notice settings are checked when the file is read, naming the line and field", arguments: [
        ("layout: banner", "layout: popup", "websites[0].notice.layout", "is popup; expected one of: auto, modal, banner, sheet, fullscreen"),
        ("primary: \"#7a1f1f\"", "primary: \"#dddddd\"", "websites[0].notice.theme", "contrast"),
        ("primary: \"#7a1f1f\"", "primary: #7a1f1f", "websites[0].notice.theme.light.primary", "quote a colour"),
        ("https://news.example.com/logo.png", "http://news.example.com/logo.png", "websites[0].notice.logo", "logo"),
        ("buttonStyle: outlined", "buttonStyle: ghost", "websites[0].notice.theme.buttonStyle", "expected one of: filled, outlined"),
        ("cornerRadius: 4", "cornerRadius: 40", "websites[0].notice.theme.cornerRadius", "must lie in 0...32"),
        ("Georgia, serif", "Georgia; x", "websites[0].notice.theme", "font"),
    ] as [(String, String, String, String)])
    func badWebsiteNoticeSettings(original: String, replacement: String, field: String, saying: String) throws {
        let yaml = Self.brandedSiteYAML.replacingOccurrences(of: original, with: replacement)
        #expect(yaml != Self.brandedSiteYAML)
        do {
            _ = try PublisherConfiguration.parse(yaml, file: "p.yaml")
            Issue.record("\(replacement) is refused")
        } catch {
            #expect(error.field == field, "\(error)")
            #expect(error.line != nil && error.description.localizedCaseInsensitiveContains(saying), "\(error)")
        }
    }
}
