import ConsentKit
import Foundation
import TCF
import Testing
@testable import ConsentKitUI

/// `WebViewConsent`: the app's stored keys as the payload, scripts and URL parameters its web
/// views take. The scripts are built around a placeholder for `tcfapi.js`.
@Suite struct WebViewConsentTests {
    /// Stands for the text of `tcfapi.js`.
    static let api = "var ConsentKitTCF = {fromApp: function (p) {}};"
    /// Line 1 of `vectors/real-world-v2.txt`: has `-` and `_`, GVL and policy version of its own.
    static let text = try! String(contentsOf: Fixtures.root.appendingPathComponent("vectors/real-world-v2.txt"), encoding: .utf8)
        .split(separator: "\n")[0].description
    static let decoded = try! TCString(decoding: text)

    /// The consent read from a store holding `values` (the CMP's keys set unless given nil).
    static func consent(_ values: [String: StoredValue?]) -> WebViewConsent {
        var stored: [String: StoredValue] = [IABKey.cmpSdkID: .integer(300), IABKey.cmpSdkVersion: .integer(7)]
        for (key, value) in values { stored[key] = value }
        return WebViewConsent(keys: InMemoryKeyValueStore(stored), vendorList: Fixtures.v3v45, apiSource: api)
    }

    /// The payload, parsed.
    static func payload(_ consent: WebViewConsent) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(consent.payload.utf8), options: .fragmentsAllowed) as? [String: Any])
    }

    /// The consent of a user in the EEA who decided: TC string, AC string, policy version 5.
    static let decided = consent([
        IABKey.tcString: .string(text), IABKey.addtlConsent: .string("2~1.35~dv.9"), IABKey.gdprApplies: .integer(1),
        IABKey.policyVersion: .integer(5),
    ])

    @Test("the payload carries the stored strings, the CMP, the string's versions and its TCData")
    func payloadFromKeys() throws {
        let consent = Self.decided
        let payload = try Self.payload(consent)
        #expect(payload["tcString"] as? String == Self.text)
        #expect(payload["addtlConsent"] as? String == "2~1.35~dv.9")
        #expect(payload["gdprApplies"] as? Bool == true)
        #expect(payload["cmpId"] as? Int == 300)
        #expect(payload["cmpVersion"] as? Int == 7)
        #expect(payload["tcfPolicyVersion"] as? Int == Self.decoded.tcfPolicyVersion)
        #expect(payload["gvlVersion"] as? Int == Self.decoded.vendorListVersion)
        let tcData = TCData(tcString: Self.text, decoded: Self.decoded, addtlConsent: "2~1.35~dv.9", cmp: CMPIdentity(cmpId: 300, cmpVersion: 7),
                            bounds: TCData.Bounds(vendorList: Fixtures.v3v45))
        #expect(consent.tcData == tcData)
        #expect(consent.payload.contains(#","tcData":"# + (try tcData.json()) + #","tcString":"#))
        #expect(consent.payload.hasPrefix(#"{"addtlConsent":"2~1.35~dv.9","cmpId":300,"cmpVersion":7,"gdprApplies":true,"gpp":null,"gvlVersion":"#))
        #expect(consent.payload.hasSuffix(#""tcString":""# + Self.text + #"","tcfPolicyVersion":"# + String(Self.decoded.tcfPolicyVersion) + "}"))
    }

    /// A hand-over secret given as text.
    static let secret = HandOverSecret("0123456789abcdef0123456789abcdef")!

    @Test("the document-start script hands tcfapi.js {payload, secret, credential}; the update carries the secret")
    func scripts() {
        let consent = Self.decided
        #expect(consent.documentStartScript(secret: Self.secret) == "(function (consentKitAppHandOver) {\n" + Self.api
            + "\n})({\"credential\":null,\"payload\":" + consent.payload + ",\"secret\":\"0123456789abcdef0123456789abcdef\"});")
        #expect(consent.updateScript(secret: Self.secret)
            == "window.ConsentKitTCF && ConsentKitTCF.fromApp(" + consent.payload + ", \"0123456789abcdef0123456789abcdef\");")
    }

    @Test("the app's credential names consentd's origin, the subject and its token")
    func credential() throws {
        let credential = AppCredential(consentd: URL(string: "https://Consent.Example.com:443/base/")!, subjectId: "user-42", subjectToken: "ckt_abc.def")
        let script = Self.decided.documentStartScript(secret: Self.secret, credential: credential)
        #expect(script.contains(#"({"credential":{"consentd":"https://consent.example.com","subjectId":"user-42","subjectToken":"ckt_abc.def"},"payload":"#))
        let local = AppCredential(consentd: URL(string: "http://127.0.0.1:8080")!, subjectId: "u", subjectToken: "t")
        #expect(local.origin == "http://127.0.0.1:8080")
    }

    @Test("hand-over secrets: 128 random bits as hex, or text of 16 to 128 safe characters")
    func secrets() {
        let made = HandOverSecret()
        #expect(made.text.count == 32 && made != HandOverSecret())
        #expect(HandOverSecret("short") == nil && HandOverSecret("0123456789abcdef\"</script>") == nil)
        #expect(HandOverSecret(String(repeating: "a", count: 129)) == nil)
    }

    @Test("the public initializer reads cmp-frames.js, gppapi.js, then tcfapi.js from ConsentKitUI's bundle")
    func bundledAPI() throws {
        let source = WebViewConsent(keys: InMemoryKeyValueStore(), vendorList: nil).documentStartScript(secret: Self.secret)
        let folder = try #require(NoticeResources.cmpDirectory)
        func read(_ name: String) throws -> String { try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8) }
        #expect(WebViewConsent.bundledAPISource == (try read("cmp-frames.js") + "\n" + read("gppapi.js") + "\n" + read("tcfapi.js")))
        #expect(source.hasPrefix("(function (consentKitAppHandOver) {\n" + WebViewConsent.bundledAPISource + "\n})({"))
    }

    @Test("values of the wrong type are read as the vendor-side reader reads them")
    func lenientKeys() throws {
        let consent = Self.consent([
            IABKey.tcString: .string(Self.text), IABKey.gdprApplies: .string("1"), IABKey.cmpSdkID: .string("300"), IABKey.cmpSdkVersion: .bool(true),
        ])
        #expect(consent.gdprApplies == .applies)
        #expect(consent.cmp == CMPIdentity(cmpId: 300, cmpVersion: 1))
        #expect(consent.tcData != nil)
    }

    @Test("a TC string that does not decode is no consent: no string, no TCData, no AC; gdprApplies as stored")
    func undecodableStringIsNoConsent() throws {
        let consent = Self.consent([
            IABKey.tcString: .string("CQa0zsAQa0zsA!not a TC string"), IABKey.addtlConsent: .string("2~1.35~dv.9"),
            IABKey.gdprApplies: .integer(1), IABKey.policyVersion: .integer(4),
        ])
        #expect(consent.tcString == nil)
        #expect(consent.addtlConsent == nil)
        #expect(consent.tcData == nil)
        #expect(consent.gvlVersion == nil)
        #expect(consent.gdprApplies == .applies)
        #expect(consent.tcfPolicyVersion == 4)
        #expect(consent.payload == #"{"addtlConsent":null,"cmpId":300,"cmpVersion":7,"gdprApplies":true,"gpp":null,"gvlVersion":null,"tcData":null,"tcString":null,"tcfPolicyVersion":4}"#)
        #expect(consent.queryItems == [URLQueryItem(name: "gdpr", value: "1")])
    }

    @Test("with GDPR applying and no decision there is no TCData and no AC string")
    func noDecision() throws {
        let consent = Self.consent([IABKey.gdprApplies: .integer(1), IABKey.addtlConsent: .string("2~1.35~dv.9")])
        #expect(consent.payload == #"{"addtlConsent":null,"cmpId":300,"cmpVersion":7,"gdprApplies":true,"gpp":null,"gvlVersion":null,"tcData":null,"tcString":null,"tcfPolicyVersion":0}"#)
    }

    @Test("where GDPR does not apply, tcData is the not-applicable object and the string still travels")
    func gdprDoesNotApply() throws {
        let consent = Self.consent([IABKey.tcString: .string(Self.text), IABKey.gdprApplies: .integer(0)])
        #expect(consent.tcData == TCData.notApplicable(cmp: CMPIdentity(cmpId: 300, cmpVersion: 7), tcfPolicyVersion: Self.decoded.tcfPolicyVersion))
        #expect(consent.payload.contains(#""gdprApplies":false,"#))
        #expect(consent.queryItems.map(\.name) == ["gdpr", "gdpr_consent"])
        #expect(consent.queryItems.first?.value == "0")
    }

    @Test("while GDPR applicability is undetermined, gdprApplies and tcData are null and the URL has no gdpr")
    func gdprUndetermined() throws {
        let consent = Self.consent([IABKey.tcString: .string(Self.text)])
        let payload = try Self.payload(consent)
        #expect(payload["gdprApplies"] is NSNull)
        #expect(payload["tcData"] is NSNull)
        #expect(payload["tcString"] as? String == Self.text)
        #expect(consent.queryItems == [URLQueryItem(name: "gdpr_consent", value: Self.text)])
    }

    @Test("with no keys at all the CMP is the development identity and nothing is known")
    func emptyStore() {
        let consent = WebViewConsent(keys: InMemoryKeyValueStore(), vendorList: Fixtures.v3v45, apiSource: Self.api)
        #expect(consent.cmp == .development)
        #expect(consent.payload == #"{"addtlConsent":null,"cmpId":4095,"cmpVersion":1,"gdprApplies":null,"gpp":null,"gvlVersion":null,"tcData":null,"tcString":null,"tcfPolicyVersion":0}"#)
        #expect(consent.queryItems.isEmpty)
    }

    /// A California user's GPP string with its GPC sub-section (usca: SaleOptOut and SharingOptOut 1).
    static let californiaGPP = "DBABBg~BVVqAAEABgA.QA"

    @Test("the payload's gpp is __gpp's state of the stored GPP string: its sections, the ids in force, parsed in the CMP API's form")
    func gppFromKeys() throws {
        let consent = Self.consent([IABKey.gppString: .string(Self.californiaGPP), IABKey.gppApplicableSections: .string("8")])
        let gpp = try #require(try Self.payload(consent)["gpp"] as? [String: Any])
        #expect(gpp["gppString"] as? String == Self.californiaGPP)
        #expect(gpp["sectionList"] as? [Int] == [8] && gpp["applicableSections"] as? [Int] == [8])
        let usca = try #require((gpp["parsedSections"] as? [String: Any])?["usca"] as? [[String: Any]])
        #expect(usca.count == 2 && usca[0]["SaleOptOut"] as? Int == 1 && usca[1]["SubsectionType"] as? Int == 1 && usca[1]["Gpc"] as? Bool == false)
        #expect((gpp["supportedAPIs"] as? [String])?.contains("8:usca") == true)
    }

    @Test("an applicable id the stored GPP string does not hold is not in force in the page; none is [-1]")
    func gppApplicableOnlyWhatTheStringHolds() throws {
        let consent = Self.consent([IABKey.gppString: .string(Self.californiaGPP), IABKey.gppApplicableSections: .string("7")])
        #expect(consent.gpp?.applicableSections == [-1])
        let both = Self.consent([IABKey.gppString: .string(Self.californiaGPP), IABKey.gppApplicableSections: .string("7_8")])
        #expect(both.gpp?.applicableSections == [8])
    }

    @Test("a stored GPP string that does not decode gives no gpp: the page's __gpp stays loading, never a guess")
    func gppThatDoesNotDecode() throws {
        let consent = Self.consent([IABKey.gppString: .string("DBABBg~%%%"), IABKey.gppApplicableSections: .string("8")])
        #expect(consent.gpp == nil)
        #expect(try Self.payload(consent)["gpp"] is NSNull)
    }

    // MARK: Script escaping

    static let hostileAC = "2~1.35~dv.9</script><script>alert(1)</script><!--\u{2028}x\u{2029}\"\\"

    @Test("a hostile AC string cannot end the script or the line: <, U+2028 and U+2029 are escaped")
    func hostileACIsEscaped() throws {
        let consent = Self.consent([IABKey.tcString: .string(Self.text), IABKey.addtlConsent: .string(Self.hostileAC), IABKey.gdprApplies: .integer(1)])
        let credential = AppCredential(consentd: URL(string: "https://consent.example.com")!, subjectId: "</script><!--\u{2028}", subjectToken: "t")
        for script in [consent.payload, consent.documentStartScript(secret: Self.secret, credential: credential), consent.updateScript(secret: Self.secret)] {
            #expect(!script.contains("</script"))
            #expect(!script.contains("<!--"))
            #expect(!script.unicodeScalars.contains("\u{2028}") && !script.unicodeScalars.contains("\u{2029}"))
        }
        #expect(!consent.payload.contains("<"))
        #expect(consent.payload.contains(#"\u003c/script>"#) && consent.payload.contains(#"\u2028x\u2029"#))
        // The escapes mean the same characters: the page reads the AC string as stored.
        let payload = try Self.payload(consent)
        #expect(payload["addtlConsent"] as? String == Self.hostileAC)
        let tcData = try #require(payload["tcData"] as? [String: Any])
        #expect(tcData["addtlConsent"] as? String == Self.hostileAC)
        // The whole script is the API in one function, called once with the hand-over.
        let script = consent.documentStartScript(secret: Self.secret)
        #expect(script.hasSuffix("});") && script.components(separatedBy: "consentKitAppHandOver").count == 2)
    }

    @Test("a hostile TC string never reaches the script: it does not decode")
    func hostileTCStringIsDropped() throws {
        let hostile = "CQa0zsAQa0zsA</script><script>alert(1)</script>\u{2028}"
        let consent = Self.consent([IABKey.tcString: .string(hostile), IABKey.gdprApplies: .integer(1)])
        #expect(consent.tcString == nil)
        #expect(!consent.documentStartScript(secret: Self.secret).contains("alert"))
        #expect(!consent.documentStartScript(secret: Self.secret).contains("</script"))
    }

    @Test("control characters in a stored string are JSON escapes")
    func controlCharacters() throws {
        let ac = "2~1\n2\t\u{1}"
        let consent = Self.consent([IABKey.tcString: .string(Self.text), IABKey.addtlConsent: .string(ac), IABKey.gdprApplies: .integer(1)])
        #expect(consent.payload.hasPrefix(#"{"addtlConsent":"2~1\n2\t\u0001","#))
        #expect(try Self.payload(consent)["addtlConsent"] as? String == ac)
    }

    // MARK: URL parameters

    @Test("the URL gets gdpr, gdpr_consent and addtl_consent once, after its own parameters, before its fragment")
    func urlAddsOnce() throws {
        let url = Self.decided.url(URL(string: "https://news.example.com/article?id=7&q=a%20b+c#comments")!)
        #expect(url.absoluteString == "https://news.example.com/article?id=7&q=a%20b+c&gdpr=1&gdpr_consent=\(Self.text)&addtl_consent=2~1.35~dv.9#comments")
        #expect(Self.decided.url(url) == url)
    }

    @Test("a URL without a query gets one")
    func urlWithoutQuery() {
        let url = Self.decided.url(URL(string: "https://news.example.com/")!)
        #expect(url.absoluteString == "https://news.example.com/?gdpr=1&gdpr_consent=\(Self.text)&addtl_consent=2~1.35~dv.9")
    }

    @Test("existing gdpr, gdpr_consent and addtl_consent parameters are replaced, not duplicated")
    func urlReplacesExisting() {
        let old = URL(string: "https://news.example.com/a?gdpr=0&x=1&gdpr_consent=OLD&addtl%5Fconsent=1~&gdpr_consent&y=&gdpr_consent=OLD2#f")!
        #expect(Self.decided.url(old).absoluteString
            == "https://news.example.com/a?x=1&y=&gdpr=1&gdpr_consent=\(Self.text)&addtl_consent=2~1.35~dv.9#f")
    }

    @Test("values are percent-encoded: + & = and spaces encoded, ~ - _ . kept, and they read back as stored")
    func urlPercentEncoding() throws {
        let ac = "2~1.35~dv.9+a&b=c d/é"
        let consent = Self.consent([IABKey.tcString: .string(Self.text), IABKey.addtlConsent: .string(ac), IABKey.gdprApplies: .integer(1)])
        let url = consent.url(URL(string: "https://news.example.com/")!)
        #expect(url.absoluteString.hasSuffix("&addtl_consent=2~1.35~dv.9%2Ba%26b%3Dc%20d%2F%C3%A9"))
        #expect(Self.text.contains("-") && Self.text.contains("_"))
        #expect(url.absoluteString.contains("&gdpr_consent=\(Self.text)&"))
        let items = try #require(URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems)
        #expect(items == [URLQueryItem(name: "gdpr", value: "1"), URLQueryItem(name: "gdpr_consent", value: Self.text),
                          URLQueryItem(name: "addtl_consent", value: ac)])
    }

    @Test("with GDPR applicability undetermined the URL has no gdpr, and a stale one is removed")
    func urlUndetermined() {
        let consent = Self.consent([IABKey.tcString: .string(Self.text)])
        #expect(consent.url(URL(string: "https://news.example.com/?gdpr=1&k=v")!).absoluteString
            == "https://news.example.com/?k=v&gdpr_consent=\(Self.text)")
    }

    @Test("with nothing to add and nothing to remove the URL is returned unchanged")
    func urlUnchanged() {
        let consent = WebViewConsent(keys: InMemoryKeyValueStore(), vendorList: Fixtures.v3v45, apiSource: Self.api)
        for text in ["https://news.example.com/a?b=c%2Fd#e", "https://news.example.com/", "https://news.example.com/?"] {
            let url = URL(string: text)!
            #expect(consent.url(url) == url)
        }
        #expect(consent.url(URL(string: "https://news.example.com/?gdpr_consent=OLD")!).absoluteString == "https://news.example.com/")
    }

    // MARK: The manager

    @Test("a manager's webViewConsent reads the keys it wrote")
    func managerConsent() throws {
        let store = InMemoryKeyValueStore()
        let manager = ConsentManager(configuration: ConsentConfiguration(
            consentd: nil, cmp: noticeCMP, store: store, gdprOverride: .applies, log: .silent))
        _ = manager.start(refreshing: false)
        manager.hold(Fixtures.v3v45)
        try manager.setConsent(tcString: Self.text)
        let consent = manager.webViewConsent
        #expect(consent.gdprApplies == .applies)
        #expect(consent.cmp == noticeCMP)
        #expect(consent.tcString == store.value(forKey: IABKey.tcString)?.string)
        #expect(consent.tcData?.vendor?.consents == Self.decoded.vendorConsents.intersection(TCData.Bounds(vendorList: Fixtures.v3v45).vendorIds))
    }

    // MARK: Bounded by the vendor list (issue 24, H1)

    /// The security review's string, written by the TCF encoder (which picks the same ranges):
    /// every vendor 1–65,535 consented, legitimate interest and disclosed; 64 restrictions,
    /// purpose ids 0–63, of vendors 1–65,535.
    static let reviewString: String = {
        let everyVendor = IDSet(1...IDSet.maxID)
        let tc = TCString(
            created: TCFTimestamp(Date()), lastUpdated: TCFTimestamp(Date()), cmpId: 4095, cmpVersion: 1, consentScreen: 1,
            consentLanguage: "EN", vendorListVersion: 45, tcfPolicyVersion: 4, purposesConsent: IDSet(1...24),
            vendorConsents: everyVendor, vendorLegitimateInterests: everyVendor,
            publisherRestrictions: (0..<64).map { PublisherRestriction(purposeId: $0, restrictionType: .requireConsent, vendorIds: everyVendor) },
            disclosedVendors: everyVendor)
        return try! tc.encoded()
    }()

    @Test("h1: the app's web-view payload for the review's string is at most 1 MB and names only the held list's vendors")
    func h1WebViewPayloadBoundedToVendorList() throws {
        #expect(Self.reviewString.count < 700)
        let consent = Self.consent([IABKey.tcString: .string(Self.reviewString), IABKey.gdprApplies: .integer(1)])
        #expect(consent.payload.utf8.count <= 1_000_000, "\(consent.payload.utf8.count) bytes")
        let listed = TCData.Bounds(vendorList: Fixtures.v3v45).vendorIds
        #expect(consent.tcData?.vendor?.consents == listed)
        #expect(consent.tcData?.publisher?.restrictions.keys.sorted() == Array(1...11))
        #expect(consent.tcData?.publisher?.restrictions.values.allSatisfy { IDSet(validIds: $0.keys) == listed } == true)
        #expect(consent.tcString == Self.reviewString)
    }

    @Test("without a vendor list the payload has no tcData (the page hears no decision), but the string and the URL keep it")
    func noVendorListNoTCData() throws {
        let store = InMemoryKeyValueStore([IABKey.tcString: .string(Self.text), IABKey.gdprApplies: .integer(1)])
        let consent = WebViewConsent(keys: store, vendorList: nil, apiSource: Self.api)
        #expect(consent.tcData == nil)
        #expect(try Self.payload(consent)["tcData"] is NSNull)
        #expect(consent.tcString == Self.text)
    }
}
