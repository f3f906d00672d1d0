@testable import ConsentServer
import ConsentKit
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import TCF
import Testing

/// `POST /v1/web/choices` with `appConsent` (issue 24, M4): the consent of the app whose web view
/// shows the page is recorded only with the app's own subject token, for that subject, and only
/// for strings of consentd's CMP that were not made in the future.
@Suite("An app's consent handed to its web view")
struct WebAppConsentTests {
    /// A string of `cmp` (consentd's by default) agreeing to purposes 1 and 2 and vendors 755
    /// and 21, created and last updated at `created`.
    static func appString(_ server: TestServer, cmp: CMPIdentity? = nil, created: Date = Date()) throws -> String {
        let list = server.consentd.catalog.vendorList
        let cmp = cmp ?? server.consentd.web.cmp
        return try TCString(created: TCFTimestamp(created), lastUpdated: TCFTimestamp(created), cmpId: cmp.cmpId, cmpVersion: cmp.cmpVersion,
                            consentScreen: 1, consentLanguage: "EN", vendorListVersion: list.vendorListVersion,
                            tcfPolicyVersion: list.tcfPolicyVersion ?? 4, purposesConsent: [1, 2], vendorConsents: [755, 21]).encoded()
    }

    /// A subject token the app's backend minted for its user `subjectId` (app com.example.news).
    static func appToken(_ client: some TestClientProtocol, _ server: TestServer, subjectId: String) async throws -> String {
        let minted = try await client.send(.post, "/v1/subjects/\(subjectId)/tokens", bearer: server.secret)
        return try #require(minted.object["token"] as? String)
    }

    @Test("m4AppConsentWithThePageKeyAloneIsRefused: a page key (or the visitor's own token) never records an app's consent")
    func m4AppConsentWithThePageKeyAloneIsRefused() async throws {
        let server = try await TestServer.make()
        try await server.test { client async throws in
            let key = try await server.consentd.demoSite.key(server.consentd.keys)
            let string = try Self.appString(server)
            let alone = try await WebCMPAPITests.web(client, "/v1/web/choices", #"{"credential":"\#(key)","appConsent":{"tcString":"\#(string)"}}"#)
            #expect(alone.status == .forbidden && alone.errorCode == "subject_credential_required" && alone.errorField == "appConsent.subjectToken")
            #expect(alone.object["subjectId"] == nil && alone.object["tcString"] == nil)

            // The visitor's own subject token, which page scripts can read, is no app credential either.
            let accept = #"{"protocol":1,"type":"result","action":"acceptAll","layer":1,"language":"en","noticeVersion":0}"#
            let visitor = try await WebCMPAPITests.web(client, "/v1/web/choices", #"{"credential":"\#(key)","message":\#(accept)}"#)
            let token = try #require(visitor.object["subjectToken"] as? String), subjectId = try #require(visitor.object["subjectId"] as? String)
            let asPage = try await WebCMPAPITests.web(client, "/v1/web/choices",
                                                      #"{"credential":"\#(token)","subjectId":"\#(subjectId)","appConsent":{"tcString":"\#(string)"}}"#)
            #expect(asPage.status == .forbidden && asPage.errorCode == "subject_credential_required")
            #expect(try await server.consentd.store.current(appId: DemoSite.appId, subjectId: subjectId)?.consent.proof.method == .acceptAll)
        }
    }

    @Test("m4AppConsentCreatedInTheFutureIsRefused: Created or LastUpdated beyond the events' clock skew is 422")
    func m4AppConsentCreatedInTheFutureIsRefused() async throws {
        let server = try await TestServer.make()
        try await server.test { client async throws in
            let key = try await server.consentd.demoSite.key(server.consentd.keys)
            let token = try await Self.appToken(client, server, subjectId: "app-user-1")
            for created in [Date(timeIntervalSince1970: 4_102_444_800), Date().addingTimeInterval(3600)] {  // 2100-01-01, an hour ahead
                let string = try Self.appString(server, created: created)
                let answer = try await WebCMPAPITests.web(client, "/v1/web/choices", #"""
                    {"credential":"\#(key)","appConsent":{"tcString":"\#(string)","subjectToken":"\#(token)","subjectId":"app-user-1"}}
                    """#)
                #expect(answer.status == .unprocessableContent && answer.errorCode == "invalid_tc_string" && answer.errorField == "appConsent.tcString",
                        "\(created): \(answer.status)")
            }
            #expect(try await server.consentd.store.current(appId: server.appId, subjectId: "app-user-1") == nil)
        }
    }

    @Test("m4AppConsentFromAnotherCMPIsRefused: only strings of consentd's own CMP are recorded")
    func m4AppConsentFromAnotherCMPIsRefused() async throws {
        let server = try await TestServer.make()
        try await server.test { client async throws in
            let key = try await server.consentd.demoSite.key(server.consentd.keys)
            let token = try await Self.appToken(client, server, subjectId: "app-user-1")
            let foreign = try Self.appString(server, cmp: CMPIdentity(cmpId: 10, cmpVersion: 2))
            let answer = try await WebCMPAPITests.web(client, "/v1/web/choices", #"""
                {"credential":"\#(key)","appConsent":{"tcString":"\#(foreign)","subjectToken":"\#(token)","subjectId":"app-user-1"}}
                """#)
            #expect(answer.status == .unprocessableContent && answer.errorCode == "invalid_tc_string" && answer.errorField == "appConsent.tcString")
        }
    }

    @Test("with the app's subject token the string is recorded as is, method sync, for the app's subject and no other")
    func m4AppConsentIsRecordedForTheAppsSubject() async throws {
        let server = try await TestServer.make()
        try await server.test { client async throws in
            let key = try await server.consentd.demoSite.key(server.consentd.keys)
            let token = try await Self.appToken(client, server, subjectId: "app-user-1")
            let string = try Self.appString(server)
            let answer = try await WebCMPAPITests.web(client, "/v1/web/choices", #"""
                {"credential":"\#(key)","appConsent":{"tcString":"\#(string)","subjectToken":"\#(token)","subjectId":"app-user-1"}}
                """#)
            #expect(answer.status == .created && answer.object["action"] as? String == "sync")
            #expect(answer.object["tcString"] as? String == string && answer.object["subjectId"] as? String == "app-user-1")
            #expect(answer.object["subjectToken"] == nil, "no token is minted for the page")
            let stored = try await server.consentd.store.current(appId: server.appId, subjectId: "app-user-1")
            #expect(stored?.consent.proof.method == .sync && stored?.consent.tcString == string && stored?.consent.proof.platform == .web)
            #expect(try await server.consentd.store.current(appId: DemoSite.appId, subjectId: "app-user-1") == nil)

            // The app's token writes its own subject only.
            let other = try await WebCMPAPITests.web(client, "/v1/web/choices", #"""
                {"credential":"\#(key)","appConsent":{"tcString":"\#(string)","subjectToken":"\#(token)","subjectId":"app-user-2"}}
                """#)
            #expect(other.status == .forbidden)
            let bad = try await WebCMPAPITests.web(client, "/v1/web/choices", #"""
                {"credential":"\#(key)","appConsent":{"tcString":"not a string","subjectToken":"\#(token)","subjectId":"app-user-1"}}
                """#)
            #expect(bad.status == .unprocessableContent && bad.errorField == "appConsent.tcString")
        }
    }
}
