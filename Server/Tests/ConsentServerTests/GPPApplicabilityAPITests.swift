@testable import ConsentServer
import ConsentKit
import ConsentdAPI
import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

/// The publishers' `us:` settings, checked when the file is read, and the GPP sections
/// `GET /v1/config` and `POST /v1/web/session` answer with the visitor's state.
@Suite("GPP applicability in consentd")
struct GPPApplicabilityAPITests {
    static let yaml = """
        publishers:
          - id: pub-news
            name: Example News
            apps: [com.example.news]
            vendorIds: [755]
            us: { mspaCoveredTransaction: true, mspaMode: serviceProvider }
          - id: pub-games
            name: Example Games
            apps: [com.example.news]
            vendorIds: [32]
          - id: pub-national
            name: Example National
            apps: [com.example.news]
            us:
              approach: national
        websites:
          - appId: com.example.web
            name: Example News
            privacyPolicyUrl: https://news.example.com/privacy
            publisherIds: [pub-news]
            us: { mspaCoveredTransaction: false }
        """

    @Test("a us: block is read for publishers and websites; without one a publisher is not covered, state approach")
    func settingsAreRead() throws {
        let configuration = try PublisherConfiguration.parse(Self.yaml, file: "p.yaml")
        #expect(configuration.usPrivacy["pub-news"] == USPrivacySettings(mspaCoveredTransaction: true, mspaMode: .serviceProvider))
        #expect(configuration.usPrivacy["pub-games"] == nil)
        #expect(configuration.usPrivacy(publisherIds: ["pub-games"]) == .standard)
        #expect(configuration.usPrivacy["pub-national"] == USPrivacySettings(approach: .national))
        let website = try #require(configuration.websites["com.example.web"])
        #expect(configuration.usPrivacy(of: website) == .standard)
    }

    @Test("a us: block that is not one is refused, naming the file, line and field", arguments: [
        ("us: { mspaCoveredTransaction: yes please }", 5, "mspaCoveredTransaction", "must be true or false"),
        ("us: { mspaCoveredTransaction: true }", 5, "mspaMode",
         "is required when mspaCoveredTransaction is true: optOut (Opt-Out Option Mode) or serviceProvider (Service Provider Mode)"),
        ("us: { mspaMode: optOut }", 5, "mspaMode",
         "applies only to MSPA covered transactions: set mspaCoveredTransaction: true, or remove mspaMode"),
        ("us: { mspaCoveredTransaction: true, mspaMode: optIn }", 5, "mspaMode", "is optIn; expected one of: optOut, serviceProvider"),
        ("us: { approach: federal }", 5, "approach", "is federal; expected one of: national, state"),
        ("us: { gpc: true }", 5, "gpc", "is not a known setting (expected one of: mspaCoveredTransaction, mspaMode, approach)"),
        ("us: national", 5, nil, "must be a mapping of keys to values"),
    ] as [(String, Int, String?, String)])
    func refused(block: String, line: Int, key: String?, message: String) {
        let yaml = """
            publishers:
              - id: pub-news
                name: Example News
                apps: [com.example.news]
                \(block)
            """
        #expect(throws: ConfigurationError(file: "p.yaml", line: line, field: "publishers[0].us" + (key.map { "." + $0 } ?? ""), message: message)) {
            try PublisherConfiguration.parse(yaml, file: "p.yaml")
        }
    }

    @Test("/v1/config answers the state and the sections of the publishers asked for", arguments: [
        ("US-CA", "pub-games", "CA", [8], false, nil),
        ("US", "pub-games", nil, [7], false, nil),
        ("us-wa", "pub-games", "WA", [7], false, nil),
        ("US-TX", "pub-national", "TX", [7], false, nil),
        ("US-TX", "pub-news,pub-games", "TX", [7], true, "serviceProvider"),
        ("DE", "pub-news", nil, [], true, "serviceProvider"),
    ] as [(String, String, String?, [Int], Bool, String?)])
    func configAnswer(header: String, publishers: String, state: String?, sections: [Int], covered: Bool, mode: String?) async throws {
        let server = try await TestServer.make(publishers: Self.yaml)
        try await server.test { client async throws in
            let response = try await client.send(.get, "/v1/config?publisherIds=\(publishers)", bearer: server.publishable,
                                                 headers: [HTTPField.Name("CF-IPCountry")!: header])
            #expect(response.status == .ok)
            #expect(response.object["subdivision"] as? String == state)
            #expect(response.object["subdivision"] != nil, "written as null when unknown")
            let gpp = try #require(response.object["gpp"] as? [String: Any])
            #expect(gpp["applicableSections"] as? [Int] == sections)
            #expect(gpp["mspaCoveredTransaction"] as? Bool == covered)
            #expect(gpp["mspaMode"] as? String == mode)
            let config = try JSONDecoder().decode(AppConfig.self, from: Data(response.body.readableBytesView))
            #expect(config.gpp?.applicableSections == sections && config.subdivision == state)
        }
    }

    @Test("/v1/config takes the state from the second header and the CIDR table, and debug_geo's us-xx")
    func configSources() async throws {
        let server = try await TestServer.make(publishers: Self.yaml) { settings in
            settings.subdivisionHeader = "CF-Region-Code"
            settings.clientIPHeader = "X-Forwarded-For"
        }
        try await server.test { client async throws in
            let second = try await client.send(.get, "/v1/config?publisherIds=pub-games", bearer: server.publishable,
                                               headers: [HTTPField.Name("CF-IPCountry")!: "US", HTTPField.Name("CF-Region-Code")!: "VA"])
            #expect(second.object["subdivision"] as? String == "VA" && second.object["region"] as? String == "us")
            #expect((second.object["gpp"] as? [String: Any])?["applicableSections"] as? [Int] == [9])
            let cidr = try await client.send(.get, "/v1/config?publisherIds=pub-games", bearer: server.publishable,
                                             headers: [HTTPField.Name("X-Forwarded-For")!: "198.51.100.4"])
            #expect(cidr.object["geoSource"] as? String == "cidr" && cidr.object["subdivision"] as? String == "TX")
            #expect((cidr.object["gpp"] as? [String: Any])?["applicableSections"] as? [Int] == [16])
            let debug = try await client.send(.get, "/v1/config?publisherIds=pub-games&debug_geo=us-co", bearer: server.publishable,
                                              headers: [HTTPField.Name("CF-IPCountry")!: "DE"])
            #expect(debug.object["subdivision"] as? String == "CO" && debug.object["gdprApplies"] as? Bool == false)
            #expect((debug.object["gpp"] as? [String: Any])?["applicableSections"] as? [Int] == [10])
            let bad = try await client.send(.get, "/v1/config?publisherIds=pub-games&debug_geo=us-zz", bearer: server.publishable)
            #expect(bad.status == .badRequest && bad.errorField == "debug_geo")
        }
    }

    @Test("/v1/web/session answers the visitor's state and the site's sections: the US notice at collection, no TCF notice, GDPR not applying")
    func webSessionAnswer() async throws {
        let server = try await TestServer.make(publishers: Self.yaml)
        try await server.test { client async throws in
            let key = try await server.consentd.keys.create(appId: "com.example.web", kind: .publishable, label: "site").token
            let california = try await WebCMPAPITests.web(client, "/v1/web/session", #"{"credential":"\#(key)","debugRegion":"us-ca"}"#)
            #expect(california.object["region"] as? String == "us" && california.object["subdivision"] as? String == "CA")
            #expect(california.object["gdprApplies"] as? Bool == false)
            #expect(california.object["ask"] as? String == "noDecision" && california.object["uiTCData"] == nil)
            #expect((california.object["document"] as? [String: Any])?["mode"] as? String == "us")
            let gpp = try #require(california.object["gpp"] as? [String: Any])
            #expect(gpp["applicableSections"] as? [Int] == [8] && gpp["mspaCoveredTransaction"] as? Bool == false && gpp["mspaMode"] is NSNull)
            let europe = try await WebCMPAPITests.web(client, "/v1/web/session", #"{"credential":"\#(key)","debugRegion":"eea"}"#)
            #expect(europe.object["subdivision"] == nil)
            #expect((europe.object["gpp"] as? [String: Any])?["applicableSections"] as? [Int] == [2], "the TCF section is in force in the EEA")
            let refused = try await WebCMPAPITests.web(client, "/v1/web/session", #"{"credential":"\#(key)","debugRegion":"us-zz"}"#)
            #expect(refused.status == .badRequest && refused.errorField == "debugRegion")
        }
    }
}
