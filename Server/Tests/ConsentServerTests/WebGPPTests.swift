@testable import ConsentServer
import ConsentKit
import ConsentdAPI
import Foundation
import GPP
import HTTPTypes
import HummingbirdTesting
import TCF
import Testing

/// The `gpp` object of `POST /v1/web/session` and `POST /v1/web/choices`: what the page's
/// `__gpp` answers, from the same choice as its `__tcfapi` (contract §C of issue 28).
@Suite("The web CMP's GPP answers")
struct WebGPPTests {
    /// The `gpp` object of an answer.
    static func gpp(_ response: TestResponse) throws -> [String: Any] {
        try #require(response.object["gpp"] as? [String: Any])
    }

    @Test("a first page view in the EEA: tcfeuv2 in force, no section yet (the visitor has not decided)")
    func eeaBeforeAChoice() async throws {
        let server = try await TestServer.make()
        try await server.test { client async throws in
            let key = try await server.consentd.demoSite.key(server.consentd.keys)
            let answer = try await WebCMPAPITests.web(client, "/v1/web/session", #"{"credential":"\#(key)","debugRegion":"eea"}"#)
            let gpp = try Self.gpp(answer)
            #expect(gpp["applicableSections"] as? [Int] == [2])
            #expect(gpp["sectionList"] as? [Int] == [] && gpp["gppString"] as? String == "DBAA")
            #expect((gpp["parsedSections"] as? [String: Any])?.isEmpty == true)
            #expect((gpp["supportedAPIs"] as? [String])?.contains("2:tcfeuv2") == true)
        }
    }

    @Test("a choice in the EEA answers the TC string, byte for byte, as the tcfeuv2 section; the next page view answers the same")
    func eeaChoice() async throws {
        let server = try await TestServer.make()
        try await server.test { client async throws in
            let key = try await server.consentd.demoSite.key(server.consentd.keys)
            let accept = #"{"protocol":1,"type":"result","action":"acceptAll","layer":1,"language":"en","noticeVersion":0}"#
            let chosen = try await WebCMPAPITests.web(client, "/v1/web/choices", #"{"credential":"\#(key)","message":\#(accept)}"#)
            let tcString = try #require(chosen.object["tcString"] as? String)
            let gpp = try Self.gpp(chosen)
            let gppString = try #require(gpp["gppString"] as? String)
            #expect(gppString.split(separator: "~").last.map(String.init) == tcString)
            #expect(try GPPString(decoding: gppString).sectionIds == [2])
            #expect(gpp["sectionList"] as? [Int] == [2] && gpp["applicableSections"] as? [Int] == [2])
            let parsed = try #require((gpp["parsedSections"] as? [String: Any])?["tcfeuv2"] as? [[String: Any]])
            #expect(parsed.first?["CmpId"] as? Int == (try TCString(decoding: tcString)).cmpId)
            #expect(try GPPString(decoding: gppString).tcfeuv2 == (try TCString(decoding: tcString)))

            let ac = try #require(chosen.object["addtlConsent"] as? String)
            let next = try await WebCMPAPITests.web(
                client, "/v1/web/session", #"{"credential":"\#(key)","debugRegion":"eea","tcString":"\#(tcString)","addtlConsent":"\#(ac)"}"#)
            #expect(next.object["ask"] is NSNull)
            #expect(try Self.gpp(next) as NSDictionary == gpp as NSDictionary)
        }
    }

    @Test("outside the EEA and the US no section applies: the header alone, DBAA, and [-1]")
    func elsewhere() async throws {
        let server = try await TestServer.make()
        try await server.test { client async throws in
            let key = try await server.consentd.demoSite.key(server.consentd.keys)
            let answer = try await WebCMPAPITests.web(client, "/v1/web/session", #"{"credential":"\#(key)","debugRegion":"not_eea"}"#)
            let gpp = try Self.gpp(answer)
            #expect(gpp["applicableSections"] as? [Int] == [-1] && gpp["sectionList"] as? [Int] == [] && gpp["gppString"] as? String == "DBAA")
        }
    }
}

/// The US: the notice at collection, the choice recorded with its GPP string, GPC honoured.
@Suite("The web CMP in the US")
struct WebUSTests {
    /// The answer's gpp, and its US section decoded.
    static func usSection(_ response: TestResponse, _ id: GPPSectionID) throws -> (gpp: [String: Any], section: USSection) {
        let gpp = try WebGPPTests.gpp(response)
        let text = try #require(gpp["gppString"] as? String)
        let section = try #require(try GPPString(decoding: text).us(id))
        return (gpp, section)
    }

    /// A US notice's result message.
    static func result(_ action: String, choices: String? = nil) -> String {
        #"{"protocol":1,"type":"result","action":"\#(action)","layer":1,"language":"en","noticeVersion":0"#
            + (choices.map { #","choices":{"us":\#($0)}"# } ?? "") + "}"
    }

    @Test("a first page view in California: the US notice (usca, limit sensitive offered), usca in force, notices not yet provided, no opt-out")
    func californiaFirstView() async throws {
        let server = try await TestServer.make()
        try await server.test { client async throws in
            let key = try await server.consentd.demoSite.key(server.consentd.keys)
            let answer = try await WebCMPAPITests.web(client, "/v1/web/session", #"{"credential":"\#(key)","debugRegion":"us-ca"}"#)
            #expect(answer.object["gdprApplies"] as? Bool == false && answer.object["ask"] as? String == "noDecision")
            #expect(answer.object["uiTCData"] == nil && (answer.object["tcData"] as? [String: Any])?["gdprApplies"] as? Bool == false)
            let document = try #require(answer.object["document"] as? [String: Any])
            let us = try #require(document["us"] as? [String: Any])
            #expect(document["mode"] as? String == "us" && us["section"] as? String == "usca" && us["state"] as? String == "CA")
            #expect(us["limitSensitive"] as? Bool == true && us["gpc"] as? Bool == false)
            let (gpp, usca) = try Self.usSection(answer, .usca)
            #expect(gpp["applicableSections"] as? [Int] == [8] && gpp["sectionList"] as? [Int] == [8])
            #expect(usca.saleOptOutNotice == .notProvided && usca.saleOptOut == .didNotOptOut && usca.sharingOptOut == .didNotOptOut)
            #expect(usca.gpc == false)
            let parsed = try #require((gpp["parsedSections"] as? [String: Any])?["usca"] as? [[String: Any]])
            #expect(parsed.last?["SubsectionType"] as? Int == 1 && parsed.last?["Gpc"] as? Bool == false)
        }
    }

    @Test("Global Privacy Control, by Sec-GPC: 1 or gpc in the body, sets the opt-outs and Gpc before any click, and the notice says so")
    func gpcWithoutAClick() async throws {
        let server = try await TestServer.make()
        try await server.test { client async throws in
            let key = try await server.consentd.demoSite.key(server.consentd.keys)
            let header = try await client.send(.post, "/v1/web/session", json: #"{"credential":"\#(key)","debugRegion":"us-ca"}"#,
                                               headers: [.contentType: "text/plain", HTTPField.Name("Sec-GPC")!: "1"])
            let body = try await WebCMPAPITests.web(client, "/v1/web/session", #"{"credential":"\#(key)","debugRegion":"us-ca","gpc":true}"#)
            for answer in [header, body] {
                let (_, usca) = try Self.usSection(answer, .usca)
                #expect(usca.saleOptOut == .optedOut && usca.sharingOptOut == .optedOut && usca.gpc == true)
                #expect(((answer.object["document"] as? [String: Any])?["us"] as? [String: Any])?["gpc"] as? Bool == true)
            }
        }
    }

    @Test("\"Do Not Sell or Share\" is recorded as an event of kind us with the GPP string, its opt-outs and no TC string; the next page view keeps it and shows no notice")
    func optOutRecorded() async throws {
        let server = try await TestServer.make()
        try await server.test { client async throws in
            let key = try await server.consentd.demoSite.key(server.consentd.keys)
            let chosen = try await WebCMPAPITests.web(
                client, "/v1/web/choices", #"{"credential":"\#(key)","debugRegion":"us-ca","message":\#(Self.result("optOut"))}"#)
            #expect(chosen.status == .created && chosen.object["action"] as? String == "optOut")
            #expect(chosen.object["tcString"] == nil && chosen.object["tcData"] == nil)
            let (gpp, usca) = try Self.usSection(chosen, .usca)
            #expect(usca.saleOptOutNotice == .provided && usca.saleOptOut == .optedOut && usca.sharingOptOut == .optedOut && usca.gpc == false)
            let gppString = try #require(gpp["gppString"] as? String)
            let subjectId = try #require(chosen.object["subjectId"] as? String)
            let event = try #require(chosen.object["event"] as? [String: Any])
            let consent = try #require((event["current"] as? [String: Any])?["consent"] as? [String: Any])
            #expect(consent["gppString"] as? String == gppString && consent["tcString"] == nil)
            #expect((consent["proof"] as? [String: Any])?["method"] as? String == "rejectAll")
            #expect(consent["kind"] as? String == "us")
            #expect(consent["usChoice"] as? [String: Bool] == ["saleOptOut": true, "sharingOptOut": true, "targetedAdvertisingOptOut": true,
                                                               "sensitiveDataLimited": false])
            #expect(event["subjectId"] as? String == subjectId)

            let next = try await WebCMPAPITests.web(
                client, "/v1/web/session", #"{"credential":"\#(key)","debugRegion":"us-ca","gppString":"\#(gppString)"}"#)
            #expect(next.object["document"] == nil && next.object["ask"] is NSNull)
            #expect(try WebGPPTests.gpp(next)["gppString"] as? String == gppString)
        }
    }

    @Test("a saved selection in Virginia (usva, no GPC sub-section) opts out of targeted advertising only")
    func virginiaSave() async throws {
        let server = try await TestServer.make()
        try await server.test { client async throws in
            let key = try await server.consentd.demoSite.key(server.consentd.keys)
            let choices = #"{"saleOptOut":false,"sharingOptOut":false,"targetedAdvertisingOptOut":true,"sensitiveDataLimited":false}"#
            let chosen = try await WebCMPAPITests.web(
                client, "/v1/web/choices", #"{"credential":"\#(key)","debugRegion":"us-va","message":\#(Self.result("save", choices: choices))}"#)
            let (gpp, usva) = try Self.usSection(chosen, .usva)
            #expect(gpp["applicableSections"] as? [Int] == [9])
            #expect(usva.saleOptOut == .didNotOptOut && usva.targetedAdvertisingOptOut == .optedOut && usva.gpc == nil)
        }
    }

    @Test("a TCF action on the US notice is refused (422), nothing recorded")
    func tcfActionRefused() async throws {
        let server = try await TestServer.make()
        try await server.test { client async throws in
            let key = try await server.consentd.demoSite.key(server.consentd.keys)
            let refused = try await WebCMPAPITests.web(
                client, "/v1/web/choices", #"{"credential":"\#(key)","debugRegion":"us-ca","message":\#(Self.result("acceptAll"))}"#)
            #expect(refused.status == .unprocessableContent && refused.errorCode == "notice_result_refused")
        }
    }

    @Test("a US visitor without a known state gets usnat; the demo's region picker offers California, Virginia, Colorado and usnat")
    func nationalAndDemoPicker() async throws {
        let server = try await TestServer.make()
        try await server.test { client async throws in
            let key = try await server.consentd.demoSite.key(server.consentd.keys)
            let answer = try await WebCMPAPITests.web(client, "/v1/web/session", #"{"credential":"\#(key)","debugRegion":"us"}"#)
            #expect(try WebGPPTests.gpp(answer)["applicableSections"] as? [Int] == [7])
            #expect(try Self.usSection(answer, .usnat).section.saleOptOut == .didNotOptOut)
            let page = String(buffer: try await client.send(.get, "/demo?region=us-va").body)
            #expect(page.contains(#"data-debug-region="us-va""#))
            for region in [#""us-ca""#, #""us-va""#, #""us-co""#, #""us""#] { #expect(page.contains("<option value=" + region), "\(region)") }
        }
    }
}
