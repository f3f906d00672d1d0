import ConsentKit
import ConsentKitUI
import Foundation
import TCF
import Testing

/// The notice without a manager (``NoticeExchange``): document out, result in, decision, method
/// and Google choice out. Vendors of GVL v3 #45: 1 (consent and special purposes, flexible
/// purposes on consent by default), 56 (special purposes only), 66 (flexible purposes on consent
/// by default, no special purpose), 755 (Google: purposes 2, 7, 9, 10 on legitimate interest).
@Suite("Notice exchange")
struct NoticeExchangeTests {
    static func exchange(mode: NoticeSettings.Mode = .tcf, restrictions: [PublisherRestriction] = []) throws -> NoticeExchange {
        let scope = ConsentScope(
            vendorList: Fixtures.v3v45, vendorIds: [1, 56, 66, 755], publisherRestrictions: restrictions, noticeVersion: 3,
            adTechProviderIds: [89])
        var settings = publisherSettings
        settings.mode = mode
        return try NoticeExchange(
            scope: scope, settings: settings, cmp: noticeCMP, current: nil, request: NoticeRequest(reason: .noDecision, allowsDismissal: false),
            adTechProviders: [AppConfig.AdTechProvider(id: 89, name: "Example Ad Network", privacyPolicyUrl: "https://ads.example/privacy")])
    }

    static func choose(_ exchange: NoticeExchange, _ message: Data) throws -> NoticeExchange.Choice {
        guard case .result(let result) = try exchange.read(message) else { throw NoticeResultError.notAResult("other") }
        return try #require(try exchange.decide(result, at: noticeDate))
    }

    static let saveNothing = #"{"purposeConsents":[],"purposeLegitimateInterests":[],"specialFeatureOptIns":[],"vendorConsents":[],"vendorLegitimateInterests":[],"adTechProviderConsents":[]}"#

    @Test("the proof's method: accept all and reject all as such (the US notice's Continue and Do Not Sell or Share as them), every other action as custom")
    func methodPerAction() {
        for action in NoticeResult.Action.allCases {
            let expected: ConsentProof.Method = switch action {
            case .acceptAll, .acknowledged: .acceptAll
            case .rejectAll, .optOut: .rejectAll
            default: .custom
            }
            #expect(ConsentProof.Method(action) == expected, "\(action)")
        }
    }

    @Test("the document gives each vendor its objectable purposes and whether its legitimate interest is established")
    func documentCarriesTheRule() throws {
        let vendors = Dictionary(uniqueKeysWithValues: try Self.exchange().document.vendors.map { ($0.id, $0) })
        #expect(vendors[1]?.legIntPurposes == [] && vendors[1]?.legitimateInterest == true)
        #expect(vendors[56]?.legIntPurposes == [] && vendors[56]?.legitimateInterest == true)
        #expect(vendors[66]?.legIntPurposes == [] && vendors[66]?.legitimateInterest == false)
        #expect(vendors[755]?.legIntPurposes == [2, 7, 9, 10] && vendors[755]?.legitimateInterest == true)
        let restricted = try Self.exchange(restrictions: [PublisherRestriction(purposeId: 2, restrictionType: .requireLegitimateInterest, vendorIds: [66])])
        #expect(restricted.document.vendors.first { $0.id == 66 }?.legIntPurposes == [2])
    }

    @Test("vendor 1's legitimate interest is set after accept all and equally after a save that showed it no objection")
    func acceptAllAndSaveAgreeOnVendorOne() throws {
        let exchange = try Self.exchange()
        let all = try Self.choose(exchange, resultJSON("acceptAll"))
        let saved = try Self.choose(exchange, resultJSON("save", layer: 3, choices: Self.saveNothing))
        #expect(all.decision.vendorLegitimateInterests == [1, 56, 755])
        #expect(saved.decision.vendorLegitimateInterests == [1, 56])
        #expect(all.method == .acceptAll && saved.method == .custom)
    }

    @Test("reject all keeps the bit of vendors with nothing to object to and clears Google's")
    func rejectAllKeepsUnobjectable() throws {
        let rejected = try Self.choose(try Self.exchange(), resultJSON("rejectAll", layer: 2))
        #expect(rejected.decision.vendorLegitimateInterests == [1, 56])
        #expect(rejected.decision.purposeLegitimateInterests.isEmpty)
        #expect(rejected.method == .rejectAll)
    }

    @Test("Google mode: consent asks for and records personalized ads, do not consent non-personalized ones")
    func googleMode() throws {
        let exchange = try Self.exchange(mode: .google)
        let personalized = try Self.choose(exchange, resultJSON("acceptAll"))
        #expect(personalized.googleStatus == .personalized && personalized.googleAdsChoice == .personalized)
        let nonPersonalized = try Self.choose(exchange, resultJSON("nonPersonalized"))
        #expect(nonPersonalized.googleStatus == .nonPersonalized && nonPersonalized.googleAdsChoice == .nonPersonalized)
        #expect(nonPersonalized.method == .custom)
        let tcf = try Self.choose(try Self.exchange(), resultJSON("acceptAll"))
        #expect(tcf.googleStatus == nil && tcf.googleAdsChoice == .personalized)
    }

    @Test("closing the notice without a choice decides nothing")
    func dismissedDecidesNothing() throws {
        let scope = ConsentScope(vendorList: Fixtures.v3v45, vendorIds: [755], noticeVersion: 3)
        let exchange = try NoticeExchange(
            scope: scope, settings: publisherSettings, cmp: noticeCMP, current: nil,
            request: NoticeRequest(reason: .decisionHolds, allowsDismissal: true, isUserInitiated: true))
        guard case .result(let result) = try exchange.read(resultJSON("dismissed")) else { Issue.record("not a result"); return }
        #expect(try exchange.decide(result, at: noticeDate) == nil)
    }
}
