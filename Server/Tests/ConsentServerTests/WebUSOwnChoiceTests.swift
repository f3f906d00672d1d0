@testable import ConsentServer
import ConsentKit
import ConsentdAPI
import Foundation
import GPP
import HummingbirdTesting
import Testing

/// The visitor's own US choice on the web, kept apart from Global Privacy Control (issue 28 §2/§3,
/// decision record 0046): a choice's answer gives it (`usChoice`), the page sends it back with the
/// next page view, and consentd encodes the GPP string from it and the GPC of that view.
@Suite("The web CMP keeps a US visitor's own choice apart from GPC")
struct WebUSOwnChoiceTests {
    static let noOptOut = ["saleOptOut": false, "sharingOptOut": false, "targetedAdvertisingOptOut": false, "sensitiveDataLimited": false]
    static let allOptOut = ["saleOptOut": true, "sharingOptOut": true, "targetedAdvertisingOptOut": true, "sensitiveDataLimited": false]

    /// The JSON text of an own choice, as the page sends it.
    static func json(_ choice: [String: Bool]) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: choice, options: [.sortedKeys]), as: UTF8.self)
    }

    /// A page view in California with what the page keeps.
    static func view(_ client: some TestClientProtocol, key: String, gpc: Bool, gppString: String? = nil, own: [String: Bool]? = nil,
                     reopen: Bool = false, region: String = "us-ca") async throws -> TestResponse {
        var body = #"{"credential":"\#(key)","debugRegion":"\#(region)","gpc":\#(gpc)"#
        if let gppString { body += #","gppString":"\#(gppString)""# }
        if let own { body += #","usChoice":"# + (try json(own)) }
        if reopen { body += #","reopen":true"# }
        return try await WebCMPAPITests.web(client, "/v1/web/session", body + "}")
    }

    /// A choice on the US notice in California.
    static func choose(_ client: some TestClientProtocol, key: String, _ message: String, gpc: Bool, gppString: String? = nil,
                       own: [String: Bool]? = nil) async throws -> TestResponse {
        var body = #"{"credential":"\#(key)","debugRegion":"us-ca","gpc":\#(gpc),"message":\#(message)"#
        if let gppString { body += #","gppString":"\#(gppString)""# }
        if let own { body += #","usChoice":"# + (try json(own)) }
        return try await WebCMPAPITests.web(client, "/v1/web/choices", body + "}")
    }

    /// The usca section of an answer's gpp, and its GPP string.
    static func usca(_ response: TestResponse) throws -> (section: USSection, gppString: String) {
        let text = try #require(try WebGPPTests.gpp(response)["gppString"] as? String)
        return (try #require(try GPPString(decoding: text).us(.usca)), text)
    }

    /// The recorded event's consent.
    static func consent(_ response: TestResponse) throws -> [String: Any] {
        try #require(((response.object["event"] as? [String: Any])?["current"] as? [String: Any])?["consent"] as? [String: Any])
    }

    @Test("\"Continue\" with GPC on: the GPP string opts out with Gpc 1, the answer's usChoice and the event's values are the visitor's own (no opt-out)")
    func allowUnderGPCIsKeptAsTheVisitorsOwn() async throws {
        let server = try await TestServer.make()
        try await server.test { client async throws in
            let key = try await server.consentd.demoSite.key(server.consentd.keys)
            let chosen = try await Self.choose(client, key: key, WebUSTests.result("acknowledged"), gpc: true)
            #expect(chosen.status == .created)
            let (section, gppString) = try Self.usca(chosen)
            #expect(section.saleOptOut == .optedOut && section.sharingOptOut == .optedOut && section.gpc == true)
            #expect(chosen.object["usChoice"] as? [String: Bool] == Self.noOptOut)
            let consent = try Self.consent(chosen)
            #expect(consent["usChoice"] as? [String: Bool] == Self.noOptOut, "the event holds the own answer (openapi's USChoice)")
            #expect(consent["gppString"] as? String == gppString, "and the GPP string what GPC made of it")
        }
    }

    @Test("the next page view with GPC off gets the own \"Continue\" back: no opt-out, Gpc 0, no notice; with GPC on again the opt-outs")
    func gpcOffGivesTheOwnChoiceBack() async throws {
        let server = try await TestServer.make()
        try await server.test { client async throws in
            let key = try await server.consentd.demoSite.key(server.consentd.keys)
            let chosen = try await Self.choose(client, key: key, WebUSTests.result("acknowledged"), gpc: true)
            let forced = try Self.usca(chosen).gppString
            let own = try #require(chosen.object["usChoice"] as? [String: Bool])

            let off = try await Self.view(client, key: key, gpc: false, gppString: forced, own: own)
            let (section, _) = try Self.usca(off)
            #expect(section.saleOptOutNotice == .provided && section.saleOptOut == .didNotOptOut && section.sharingOptOut == .didNotOptOut)
            #expect(section.gpc == false)
            #expect(off.object["document"] == nil && off.object["ask"] is NSNull, "the visitor answered: no notice")

            let on = try await Self.view(client, key: key, gpc: true, gppString: forced, own: own)
            let again = try Self.usca(on).section
            #expect(again.saleOptOut == .optedOut && again.sharingOptOut == .optedOut && again.gpc == true)
            #expect(on.object["document"] == nil)
        }
    }

    @Test("an opt-out made with GPC off is kept with GPC on (Gpc 1) and off again (Gpc 0)")
    func anOptOutHoldsEitherWay() async throws {
        let server = try await TestServer.make()
        try await server.test { client async throws in
            let key = try await server.consentd.demoSite.key(server.consentd.keys)
            let chosen = try await Self.choose(client, key: key, WebUSTests.result("optOut"), gpc: false)
            let own = try #require(chosen.object["usChoice"] as? [String: Bool])
            #expect(own == Self.allOptOut)
            let stored = try Self.usca(chosen).gppString
            for gpc in [true, false] {
                let view = try await Self.view(client, key: key, gpc: gpc, gppString: stored, own: own)
                let section = try Self.usca(view).section
                #expect(section.saleOptOut == .optedOut && section.sharingOptOut == .optedOut && section.gpc == gpc, "GPC \(gpc)")
                #expect(view.object["document"] == nil)
            }
        }
    }

    @Test("reopened with GPC off, the notice opens on the own choice, not on the opt-outs GPC forced when it was made")
    func reopenShowsTheOwnChoice() async throws {
        let server = try await TestServer.make()
        try await server.test { client async throws in
            let key = try await server.consentd.demoSite.key(server.consentd.keys)
            let chosen = try await Self.choose(client, key: key, WebUSTests.result("acknowledged"), gpc: true)
            let forced = try Self.usca(chosen).gppString
            let reopened = try await Self.view(client, key: key, gpc: false, gppString: forced, own: Self.noOptOut, reopen: true)
            let document = try #require(reopened.object["document"] as? [String: Any])
            let current = try #require((document["current"] as? [String: Any])?["us"] as? [String: Bool])
            #expect(current == Self.noOptOut)
            #expect((document["us"] as? [String: Any])?["gpc"] as? Bool == false)
        }
    }

    @Test("a selection saved with GPC on keeps the own opt-outs the locked switches hid, and its sensitive-data limit")
    func saveUnderGPCKeepsTheOwnOptOuts() async throws {
        let server = try await TestServer.make()
        try await server.test { client async throws in
            let key = try await server.consentd.demoSite.key(server.consentd.keys)
            // The switches GPC locked on, as the page sends them; the limit is the visitor's.
            let saved = #"{"saleOptOut":true,"sharingOptOut":true,"targetedAdvertisingOptOut":true,"sensitiveDataLimited":true}"#
            let own = ["saleOptOut": false, "sharingOptOut": true, "targetedAdvertisingOptOut": false, "sensitiveDataLimited": false]
            let chosen = try await Self.choose(client, key: key, WebUSTests.result("save", choices: saved), gpc: true, own: own)
            #expect(chosen.status == .created)
            #expect(chosen.object["usChoice"] as? [String: Bool] ==
                    ["saleOptOut": false, "sharingOptOut": true, "targetedAdvertisingOptOut": false, "sensitiveDataLimited": true])
            let section = try Self.usca(chosen).section
            #expect(section.saleOptOut == .optedOut && section.sharingOptOut == .optedOut && section.gpc == true)
        }
    }

    @Test("a TCF choice's answer has no usChoice")
    func noOwnUSChoiceForATCFChoice() async throws {
        let server = try await TestServer.make()
        try await server.test { client async throws in
            let key = try await server.consentd.demoSite.key(server.consentd.keys)
            let accept = #"{"protocol":1,"type":"result","action":"acceptAll","layer":1,"language":"en","noticeVersion":0}"#
            let chosen = try await WebCMPAPITests.web(client, "/v1/web/choices", #"{"credential":"\#(key)","debugRegion":"eea","message":\#(accept)}"#)
            #expect(chosen.status == .created && chosen.object["tcString"] is String && chosen.object["usChoice"] == nil)
        }
    }

    // MARK: - A page that kept only the GPP string (decision record 0046)

    @Test("an older page's string written under GPC (Gpc 1, opt-outs): with GPC off its opt-outs hold and the notice asks again, opening on them")
    func oldStringWrittenUnderGPCIsAskedAgain() async throws {
        let server = try await TestServer.make()
        try await server.test { client async throws in
            let key = try await server.consentd.demoSite.key(server.consentd.keys)
            let chosen = try await Self.choose(client, key: key, WebUSTests.result("acknowledged"), gpc: true)
            let forced = try Self.usca(chosen).gppString

            let off = try await Self.view(client, key: key, gpc: false, gppString: forced)
            let section = try Self.usca(off).section
            #expect(section.saleOptOut == .optedOut && section.sharingOptOut == .optedOut && section.gpc == false,
                    "possibly forced opt-outs are kept: never an opt-in the visitor did not give")
            #expect(off.object["ask"] as? String == "noDecision")
            let document = try #require(off.object["document"] as? [String: Any])
            #expect(document["allowsDismissal"] as? Bool == false)
            #expect((document["current"] as? [String: Any])?["us"] as? [String: Bool] == Self.allOptOut)

            let on = try await Self.view(client, key: key, gpc: true, gppString: forced)
            #expect(on.object["document"] == nil && on.object["ask"] is NSNull, "GPC on: the opt-outs hold whatever the answer, nobody is asked")
            #expect(try Self.usca(on).section.gpc == true)
        }
    }

    @Test("an older page's string that GPC cannot have written (Gpc 0) is the visitor's own choice, read as before: no notice")
    func oldStringWithoutGPCIsTheOwnChoice() async throws {
        let server = try await TestServer.make()
        try await server.test { client async throws in
            let key = try await server.consentd.demoSite.key(server.consentd.keys)
            let chosen = try await Self.choose(client, key: key, WebUSTests.result("optOut"), gpc: false)
            let stored = try Self.usca(chosen).gppString
            #expect(!USGPP.possiblyForced(stored))
            let off = try await Self.view(client, key: key, gpc: false, gppString: stored)
            #expect(off.object["document"] == nil && off.object["ask"] is NSNull)
            #expect(try Self.usca(off).gppString == stored)
        }
    }

    @Test("which stored strings are possibly forced: opt-outs with Gpc 1 only; not Gpc 0, not a section without Gpc, not a string without opt-outs")
    func possiblyForced() throws {
        let california = GPPApplicability(applicableSections: [GPPSectionID.usca.rawValue], mspaCoveredTransaction: false, mspaMode: nil)
        let virginia = GPPApplicability(applicableSections: [GPPSectionID.usva.rawValue], mspaCoveredTransaction: false, mspaMode: nil)
        let none = USPrivacyChoice(saleOptOut: false, sharingOptOut: false, targetedAdvertisingOptOut: false, noticeVersion: 0, language: "en",
                                   decided: Date(timeIntervalSince1970: 0))
        var out = none
        out.saleOptOut = true
        #expect(USGPP.possiblyForced(try USGPP.encode(applicability: california, choice: none, gpc: true).gppString))
        #expect(!USGPP.possiblyForced(try USGPP.encode(applicability: california, choice: out, gpc: false).gppString))
        #expect(!USGPP.possiblyForced(try USGPP.encode(applicability: virginia, choice: none, gpc: true).gppString))
        #expect(!USGPP.possiblyForced(try USGPP.encode(applicability: california, choice: nil, gpc: true).gppString), "no notice provided: no choice")
        #expect(!USGPP.possiblyForced("not a GPP string") && !USGPP.possiblyForced(nil))
    }

    // MARK: - Bad input

    @Test("a usChoice with a key of its own, or without one of the four, is refused (400) naming the field")
    func badOwnChoiceRefused() async throws {
        let server = try await TestServer.make()
        try await server.test { client async throws in
            let key = try await server.consentd.demoSite.key(server.consentd.keys)
            let extra = #"{"saleOptOut":false,"sharingOptOut":false,"targetedAdvertisingOptOut":false,"sensitiveDataLimited":false,"gpc":true}"#
            let missing = #"{"saleOptOut":false,"sharingOptOut":false,"targetedAdvertisingOptOut":false}"#
            for path in ["/v1/web/session", "/v1/web/choices"] {
                let message = path == "/v1/web/choices" ? #","message":\#(WebUSTests.result("acknowledged"))"# : ""
                let unknown = try await WebCMPAPITests.web(
                    client, path, #"{"credential":"\#(key)","debugRegion":"us-ca","usChoice":\#(extra)\#(message)}"#)
                #expect(unknown.status == .badRequest && unknown.errorField == "usChoice.gpc", "\(path) \(unknown.object)")
                let incomplete = try await WebCMPAPITests.web(
                    client, path, #"{"credential":"\#(key)","debugRegion":"us-ca","usChoice":\#(missing)\#(message)}"#)
                #expect(incomplete.status == .badRequest && incomplete.errorField == "usChoice.sensitiveDataLimited", "\(path) \(incomplete.object)")
            }
        }
    }
}
