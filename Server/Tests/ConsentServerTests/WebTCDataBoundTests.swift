@testable import ConsentServer
import ConsentKit
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import TCF
import Testing

/// The web CMP's `TCData` answers over a real listener on loopback (issue 24, H1): a TC string
/// naming every vendor 1–65,535 under restrictions of every 6-bit purpose id made a 773-byte
/// page view a 43.7 MB answer.
@Suite("The web routes' TCData, bounded by the vendor list")
struct WebTCDataBoundTests {
    /// The security review's string (`tcenc.tc()`, 637 characters), written by the TCF encoder,
    /// which picks the same ranges: vendor consents, legitimate interests and disclosed vendors
    /// 1–65,535; 64 restrictions, purpose ids 0–63, of vendors 1–65,535; created `now`; vendor
    /// list 45, policy 4.
    static func reviewString(now: Date) throws -> String {
        let everyVendor = IDSet(1...IDSet.maxID)
        return try TCString(
            created: TCFTimestamp(now), lastUpdated: TCFTimestamp(now), cmpId: 4095, cmpVersion: 1, consentScreen: 1,
            consentLanguage: "EN", vendorListVersion: 45, tcfPolicyVersion: 4, purposesConsent: IDSet(1...24),
            vendorConsents: everyVendor, vendorLegitimateInterests: everyVendor,
            publisherRestrictions: (0..<64).map { PublisherRestriction(purposeId: $0, restrictionType: .requireConsent, vendorIds: everyVendor) },
            disclosedVendors: everyVendor
        ).encoded()
    }

    /// Runs `body` against the server listening on 127.0.0.1 (an ephemeral port), then closes it.
    static func live(_ server: TestServer, _ body: @escaping @Sendable (any TestClientProtocol) async throws -> Void) async throws {
        let app = Application(router: server.consentd.router(), configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        do {
            try await app.test(.live, body)
        } catch {
            await server.consentd.close()
            throw error
        }
        await server.consentd.close()
    }

    @Test("h1: the review's page view and the app's consent hand-over answer at most 1 MB, over loopback")
    func h1TCDataBoundedToVendorList() async throws {
        let server = try await TestServer.make()
        let text = try Self.reviewString(now: Date())
        #expect(text.count < 700)
        try await Self.live(server) { client in
            let key = try await server.consentd.demoSite.key(server.consentd.keys)
            let page: HTTPFields = [.contentType: "text/plain;charset=UTF-8", .origin: "https://news.example.com"]
            // The demo site's ad-tech providers all consented: the stored decision holds, so the
            // answer carries the TCData of the string.
            let session = #"{"credential":"\#(key)","tcString":"\#(text)","addtlConsent":"2~89.1051.2677~dv.","debugRegion":"eea"}"#
            let opened = try await client.send(.post, "/v1/web/session", json: session, headers: page)
            #expect(opened.status == .ok)
            #expect(opened.body.readableBytes <= 1_000_000, "/v1/web/session: \(opened.body.readableBytes) bytes")
            #expect(opened.object["ask"] is NSNull && opened.object["tcData"] is [String: Any], "the decision holds and its TCData is built")
            // __gpp's parsed tcfeuv2 section is bounded alike; its string is the visitor's own.
            let gpp = try #require(opened.object["gpp"] as? [String: Any])
            #expect((gpp["gppString"] as? String)?.split(separator: "~").last.map(String.init) == text)
            let parsed = try #require(((gpp["parsedSections"] as? [String: Any])?["tcfeuv2"] as? [[String: Any]])?.first)
            let listedIds = Set(server.consentd.catalog.vendorList.vendors.keys)
            #expect(Set(try #require(parsed["VendorConsent"] as? [Int])) == listedIds, "only the held list's vendors")
            let restrictions = try #require(parsed["PubRestrictions"] as? [[String: Any]])
            #expect(restrictions.allSatisfy { Set(($0["Vendors"] as? [Int]) ?? []).isSubset(of: listedIds) })

            // The app's consent, with the app's own credential (M4).
            let token = try await WebAppConsentTests.appToken(client, server, subjectId: "app-user-1")
            let handOver = #"{"credential":"\#(key)","appConsent":{"tcString":"\#(text)","subjectToken":"\#(token)","subjectId":"app-user-1"}}"#
            let chosen = try await client.send(.post, "/v1/web/choices", json: handOver, headers: page)
            #expect(chosen.status == .created)
            #expect(chosen.body.readableBytes <= 1_000_000, "/v1/web/choices: \(chosen.body.readableBytes) bytes")
            let tcData = try #require(chosen.object["tcData"] as? [String: Any])
            let consents = try #require((tcData["vendor"] as? [String: Any])?["consents"] as? [String: Bool])
            let listed = Set(server.consentd.catalog.vendorList.vendors.keys)
            #expect(Set(consents.filter(\.value).keys.compactMap { Int($0) }) == listed, "only the held list's vendors")
        }
    }
}
