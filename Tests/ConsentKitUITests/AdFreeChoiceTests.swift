import ConsentKit
import ConsentKitUI
import Foundation
import TCF
import Testing

/// Seed 000 (IAB Mobile In-App CMP API), *optional*: an integrated "paid-app alternative" choice;
/// seed 001's `shouldOfferAdFree`. The TCF notice offers it as Google's form does.
@Suite("000-27: the ad-free version is a choice on the TCF notice too")
struct AdFreeChoiceTests {
    private func tcfSession(_ manager: ConsentManager, adFree: Bool) throws -> NoticeSession {
        var settings = publisherSettings
        settings.offersAdFree = adFree
        return try NoticeSession(manager: manager, settings: settings, request: NoticeRequest(reason: .noDecision, allowsDismissal: false))
    }

    @Test("000-27: the TCF document offers the ad-free version exactly when the publisher sells one")
    func offeredWhenSold() async throws {
        let manager = await noticeManager()
        #expect(try tcfSession(manager, adFree: true).document.adFree.offered)
        #expect(try !tcfSession(manager, adFree: false).document.adFree.offered)
        #expect(try tcfSession(manager, adFree: true).document.texts["adFree"] == "Pay for the ad-free version")
    }

    @Test("000-27: choosing it on the TCF notice records no consent, the preference for the paid version and Google's adFree")
    func recordedAsAdFree() async throws {
        let manager = await noticeManager()
        let notice = try tcfSession(manager, adFree: true)
        guard case .decided(let result, let decision, _) = notice.receive(resultJSON("adFree")) else { Issue.record("not decided"); return }
        #expect(result.action == .adFree && result.layer == 1)
        #expect(decision.prefersAdFree && GoogleAdsConsent(manager: manager).prefersAdFree)
        #expect(decision.purposeConsents.isEmpty && decision.vendorConsents.isEmpty && decision.specialFeatureOptIns.isEmpty)
        #expect(decision.adTechProviderConsents.isEmpty)
        let choice = try #require(try notice.exchange?.decide(result, at: noticeDate))
        #expect(choice.method == .custom && choice.googleStatus == nil && choice.googleAdsChoice == .adFree)
        let string = try TCString(decoding: #require(manager.configuration.store.value(forKey: "IABTCF_TCString")?.string))
        #expect(string.purposesConsent.isEmpty && string.vendorConsents.isEmpty)
        #expect(string.disclosedVendors == IDSet(validIds: notice.document.vendors.map(\.id)))
    }

    @Test("000-27: a TCF notice that does not offer it refuses the answer and writes nothing")
    func refusedWhenNotSold() async throws {
        let manager = await noticeManager()
        #expect(try tcfSession(manager, adFree: false).receive(resultJSON("adFree")) == .refused(.actionNotOffered(.adFree)))
        #expect(manager.consent == nil && manager.configuration.store.value(forKey: "IABTCF_TCString") == nil)
    }
}
