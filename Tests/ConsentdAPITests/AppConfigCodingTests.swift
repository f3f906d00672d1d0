import ConsentdAPI
import Foundation
import Testing

/// `GET /v1/config`'s answer as JSON: what is written as null, what may be missing.
@Suite("AppConfig coding")
struct AppConfigCodingTests {
    static let provider = AppConfig.AdTechProvider(id: 89, name: "Example Ads", privacyPolicyUrl: "https://ads.example.com/privacy")
    static let full = AppConfig(
        appId: "com.example.news", gdprApplies: true, region: .eea, country: "DE", geoSource: .header,
        publishers: [AppConfig.Publisher(id: "pub-news", name: "Example News", vendorIds: [1, 755], adTechProviders: [provider],
                                         nonPersonalizedOnly: false)],
        vendorIds: [1, 755], adTechProviders: [provider], vendorListVersion: 45, tcfPolicyVersion: 4,
        gvlSpecificationVersion: 3, cmp: .development, subdivision: nil, gpp: .notApplicable)

    @Test("unknown gdprApplies and country are written as null, not left out")
    func unknownIsNull() throws {
        var config = Self.full
        config.gdprApplies = nil
        config.country = nil
        config.region = .unknown
        config.geoSource = .none
        let object = try jsonObject(config)
        #expect(object["gdprApplies"] is NSNull)
        #expect(object["country"] is NSNull)
        #expect(object["subdivision"] is NSNull)
        #expect(object["region"] as? String == "unknown")
        #expect(object["geoSource"] as? String == "none")
    }

    @Test("the CMP identity is written as id, version and development")
    func cmpIsWritten() throws {
        let object = try jsonObject(Self.full)
        let cmp = try #require(object["cmp"] as? [String: Any])
        #expect(cmp["id"] as? Int == 4095)
        #expect(cmp["version"] as? Int == 1)
        #expect(cmp["development"] as? Bool == true)
        #expect(cmp.count == 3)
    }

    @Test("the development identity is CMP id 4095, version 1, marked as development")
    func developmentIdentity() {
        #expect(AppConfig.CMP.development == AppConfig.CMP(id: 4095, version: 1, isDevelopment: true))
        #expect(AppConfig.CMP(id: 300, version: 2).isDevelopment == false)
    }

    @Test("an answer kept from before the CMP identity and format version decodes with them nil")
    func olderAnswerDecodes() throws {
        let json = """
            {"appId":"com.example.app","gdprApplies":null,"region":"unknown","country":null,"geoSource":"none",
             "publishers":[],"vendorIds":[],"adTechProviders":[],"vendorListVersion":45,"tcfPolicyVersion":4}
            """
        let config = try JSONDecoder().decode(AppConfig.self, from: Data(json.utf8))
        #expect(config.cmp == nil)
        #expect(config.gvlSpecificationVersion == nil)
        #expect(config.gdprApplies == nil)
        #expect(config.country == nil)
        #expect(config.subdivision == nil && config.gpp == nil)
        let object = try jsonObject(config)
        #expect(object["cmp"] == nil)
        #expect(object["gpp"] == nil)
        #expect(object["gvlSpecificationVersion"] == nil)
    }

    @Test("a US state's answer decodes with its state and GPP sections, as consentd writes it")
    func usStateAnswer() throws {
        let json = """
            {"appId":"com.example.app","gdprApplies":false,"region":"us","country":"US","subdivision":"CA","geoSource":"header",
             "publishers":[],"vendorIds":[],"adTechProviders":[],"vendorListVersion":45,"tcfPolicyVersion":4,
             "gpp":{"applicableSections":[7],"mspaCoveredTransaction":true,"mspaMode":"serviceProvider"}}
            """
        let config = try JSONDecoder().decode(AppConfig.self, from: Data(json.utf8))
        #expect(config.region == .us && config.country == "US" && config.subdivision == "CA")
        #expect(config.gpp == GPPApplicability(applicableSections: [7], mspaCoveredTransaction: true, mspaMode: .serviceProvider))
        let gpp = try #require(try jsonObject(config)["gpp"] as? [String: Any])
        #expect(gpp["mspaMode"] as? String == "serviceProvider")
        let notCovered = try JSONSerialization.jsonObject(with: JSONEncoder().encode(GPPApplicability(applicableSections: [8]))) as? [String: Any]
        #expect(notCovered?["mspaMode"] is NSNull && notCovered?["mspaCoveredTransaction"] as? Bool == false)
    }

    @Test("a configuration survives encoding and decoding unchanged")
    func roundTrip() throws {
        let data = try JSONEncoder().encode(Self.full)
        #expect(try JSONDecoder().decode(AppConfig.self, from: data) == Self.full)
    }

    /// Options as the console publishes them: two languages, French texts, a dark-red theme.
    static let options = NoticeOptions(
        publisherName: "Exemple Presse", privacyPolicyUrl: "https://example.com/confidentialite", logo: "https://example.com/logo.png",
        layout: .banner, firstLayer: .purposes, offersAdFree: true,
        theme: NoticeTheme(cornerRadius: 4, light: NoticeTheme.Palette(
            background: "#ffffff", surface: "#f6f1f1", text: "#1b1111", mutedText: "#4d3d3d", primary: "#8a1c1c",
            onPrimary: "#ffffff", border: "#d8c8c8", link: "#8a1c1c"), buttonStyle: .outlined),
        languages: ["fr", "en"], texts: ["fr": ["title": "Vos choix, Exemple Presse"]])

    @Test("the published notice's options survive encoding and decoding unchanged, under notice.options")
    func noticeOptionsRoundTrip() throws {
        var config = Self.full
        config.notice = AppConfig.NoticeVersions(noticeVersion: 4, materialNoticeVersion: 3, options: Self.options)
        let data = try JSONEncoder().encode(config)
        #expect(try JSONDecoder().decode(AppConfig.self, from: data) == config)
        let notice = try #require(try jsonObject(config)["notice"] as? [String: Any])
        let options = try #require(notice["options"] as? [String: Any])
        #expect(notice["noticeVersion"] as? Int == 4 && notice["materialNoticeVersion"] as? Int == 3)
        #expect(Set(options.keys) == ["publisherName", "privacyPolicyUrl", "logo", "layout", "firstLayer", "offersAdFree", "theme",
                                      "languages", "texts"])
        #expect(options["layout"] as? String == "banner" && options["firstLayer"] as? String == "purposes")
        #expect(options["languages"] as? [String] == ["fr", "en"])
        #expect((options["texts"] as? [String: [String: String]])?["fr"]?["title"] == "Vos choix, Exemple Presse")
        #expect((options["theme"] as? [String: Any])?["buttonStyle"] as? String == "outlined")
    }

    @Test("a notice from a server before published options decodes with them nil, and is written without them")
    func noticeWithoutOptions() throws {
        let json = """
            {"appId":"com.example.app","gdprApplies":null,"region":"unknown","country":null,"geoSource":"none",
             "publishers":[],"vendorIds":[],"adTechProviders":[],"vendorListVersion":45,"tcfPolicyVersion":4,
             "notice":{"noticeVersion":2,"materialNoticeVersion":1}}
            """
        let config = try JSONDecoder().decode(AppConfig.self, from: Data(json.utf8))
        #expect(config.notice == AppConfig.NoticeVersions(noticeVersion: 2, materialNoticeVersion: 1))
        #expect(config.notice?.options == nil)
        let notice = try #require(try jsonObject(config)["notice"] as? [String: Any])
        #expect(notice["options"] == nil)
    }

    @Test("published options this SDK cannot read (a later layout) are left out: the versions and the rest still apply")
    func unreadableOptionsAreLeftOut() throws {
        let json = """
            {"appId":"a","gdprApplies":true,"region":"eea","country":"DE","geoSource":"header",
             "publishers":[],"vendorIds":[],"adTechProviders":[],"vendorListVersion":1,"tcfPolicyVersion":4,
             "notice":{"noticeVersion":2,"materialNoticeVersion":1,"options":{"publisherName":"P","privacyPolicyUrl":"https://p.example/",
             "layout":"sidebar","firstLayer":"stacks","offersAdFree":false,"theme":{"cornerRadius":12,
             "light":{"background":"#ffffff","surface":"#ffffff","text":"#000000","mutedText":"#000000","primary":"#000000","onPrimary":"#ffffff","border":"#000000","link":"#000000"},
             "dark":{"background":"#000000","surface":"#000000","text":"#ffffff","mutedText":"#ffffff","primary":"#ffffff","onPrimary":"#000000","border":"#ffffff","link":"#ffffff"}},
             "languages":["en"],"texts":{}}}}
            """
        let config = try JSONDecoder().decode(AppConfig.self, from: Data(json.utf8))
        #expect(config.notice == AppConfig.NoticeVersions(noticeVersion: 2, materialNoticeVersion: 1, options: nil))
        #expect(config.region == .eea && config.country == "DE")
        let known = json.replacingOccurrences(of: "\"sidebar\"", with: "\"sheet\"")
        #expect(try JSONDecoder().decode(AppConfig.self, from: Data(known.utf8)).notice?.options?.layout == .sheet)
    }

    @Test("regions, geo sources and debug regions carry the API's raw values")
    func rawValues() {
        #expect(AppConfig.Region.allCases.map(\.rawValue) == ["eea", "uk", "ch", "us", "other", "unknown"])
        #expect(AppConfig.GeoSource.allCases.map(\.rawValue) == ["header", "cidr", "debug", "none"])
        #expect(DebugRegion.allCases.prefix(4).map(\.rawValue) == ["eea", "not_eea", "us", "us-ak"])
        #expect(DebugRegion.queryName == "debug_geo")
    }

    @Test("a region the SDK does not know fails decoding rather than being guessed")
    func unknownRegionIsRefused() {
        let json = """
            {"appId":"a","gdprApplies":true,"region":"mars","country":null,"geoSource":"none",
             "publishers":[],"vendorIds":[],"adTechProviders":[],"vendorListVersion":1,"tcfPolicyVersion":4}
            """
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(AppConfig.self, from: Data(json.utf8)) }
    }
}

/// The JSON object a value encodes to.
func jsonObject(_ value: some Encodable) throws -> [String: Any] {
    try #require(JSONSerialization.jsonObject(with: JSONEncoder().encode(value)) as? [String: Any])
}
