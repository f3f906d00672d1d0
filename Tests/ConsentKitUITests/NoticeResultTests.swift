import ConsentKit
import ConsentKitUI
import Foundation
import TCF
import Testing

@Suite("Notice results: checked, then recorded through the manager")
struct NoticeResultTests {
    private func session(_ manager: ConsentManager, mode: NoticeSettings.Mode = .tcf, adFree: Bool = false, dismissible: Bool = false) throws -> NoticeSession {
        var settings = publisherSettings
        settings.mode = mode
        settings.offersAdFree = adFree
        return try NoticeSession(
            manager: manager, settings: settings, request: NoticeRequest(reason: .noDecision, allowsDismissal: dismissible))
    }

    private func recordedString(_ manager: ConsentManager) throws -> TCString {
        try TCString(decoding: #require(manager.configuration.store.value(forKey: "IABTCF_TCString")?.string))
    }

    @Test("accept all: the manager's own accept-all, stamped with the layer and language; DisclosedVendors = what was shown")
    func acceptAll() async throws {
        let manager = await noticeManager()
        let notice = try session(manager)
        guard case .decided(let result, let decision, nil) = notice.receive(resultJSON("acceptAll")) else {
            Issue.record("not decided"); return
        }
        #expect(result.action == .acceptAll && result.shownMilliseconds == 3.5)
        let expected = ConsentState.agreeToAll(scope: try #require(notice.scope), at: noticeDate).changing(at: noticeDate) {
            $0.consentScreen = 1
            $0.consentLanguage = "EN"
        }
        #expect(decision == expected && manager.consent == expected)
        let string = try recordedString(manager)
        #expect(string.disclosedVendors == IDSet(validIds: notice.document.vendors.map(\.id)))
        #expect(string.vendorConsents.isSubset(of: string.disclosedVendors ?? []))
        #expect(string.consentScreen == 1 && string.consentLanguage == "EN" && string.isServiceSpecific)
        #expect(string.cmpId == 300 && string.cmpVersion == 7 && string.created == string.lastUpdated)
        #expect(string.vendorListVersion == 45 && string.tcfPolicyVersion == 4)
        #expect(manager.configuration.store.value(forKey: "IABTCF_AddtlConsent")?.string == "2~89.1301~dv.")
    }

    @Test("reject all: nothing consented, every legitimate interest objected to, the vendors still disclosed")
    func rejectAll() async throws {
        let manager = await noticeManager()
        let notice = try session(manager)
        guard case .decided = notice.receive(resultJSON("rejectAll", layer: 2)) else { Issue.record("not decided"); return }
        let string = try recordedString(manager)
        #expect(string.purposesConsent.isEmpty && string.vendorConsents.isEmpty && string.specialFeatureOptIns.isEmpty)
        // Objected to wherever the notice offered an objection; kept (TCF 2.3) where it could offer none.
        let unobjectable = notice.document.vendors.filter { $0.legitimateInterest && $0.legIntPurposes.isEmpty }.map(\.id)
        #expect(string.purposesLITransparency.isEmpty && string.vendorLegitimateInterests == IDSet(validIds: unobjectable))
        #expect(string.disclosedVendors == IDSet(validIds: notice.document.vendors.map(\.id)))
        #expect(string.consentScreen == 2)
        #expect(manager.configuration.store.value(forKey: "IABTCF_AddtlConsent")?.string == "2~~dv.89.1301")
    }

    @Test("save: the TC string holds exactly what was chosen on the notice")
    func saveChoices() async throws {
        let manager = await noticeManager()
        let notice = try session(manager)
        let choices = #"{"purposeConsents":[1,3,4],"purposeLegitimateInterests":[2,7],"specialFeatureOptIns":[1],"vendorConsents":[755],"vendorLegitimateInterests":[755],"adTechProviderConsents":[1301]}"#
        guard case .decided = notice.receive(resultJSON("save", layer: 3, choices: choices)) else { Issue.record("not decided"); return }
        let string = try recordedString(manager)
        #expect(string.purposesConsent == [1, 3, 4])
        #expect(string.purposesLITransparency == [2, 7])
        #expect(string.specialFeatureOptIns == [1])
        #expect(string.vendorConsents == [755])
        let unobjectable = notice.document.vendors.filter { $0.legitimateInterest && $0.legIntPurposes.isEmpty }.map(\.id)
        #expect(string.vendorLegitimateInterests == IDSet(validIds: unobjectable + [755]))
        #expect(string.consentScreen == 3)
        #expect(manager.configuration.store.value(forKey: "IABTCF_AddtlConsent")?.string == "2~1301~dv.89")
    }

    @Test("Google's form: personalized, non-personalized (npa=1) and ad-free through GoogleAdsConsent's own values")
    func googleChoices() async throws {
        let manager = await noticeManager()
        let google = GoogleAdsConsent(manager: manager)
        guard case .decided = try session(manager, mode: .google).receive(resultJSON("acceptAll")) else { Issue.record("acceptAll"); return }
        #expect(google.status == .personalized && google.adRequestParameters["npa"] == nil && !google.prefersAdFree)
        guard case .decided(_, let limited, _) = try session(manager, mode: .google).receive(resultJSON("nonPersonalized", layer: 2)) else {
            Issue.record("nonPersonalized"); return
        }
        #expect(google.status == .nonPersonalized && google.adRequestParameters["npa"] == "1")
        let expected = GoogleAdsConsent.decision(.nonPersonalized, prefersAdFree: false, scope: try manager.scope(), at: noticeDate)
        #expect(limited.purposeConsents == expected?.purposeConsents && limited.vendorConsents == expected?.vendorConsents)
        guard case .decided = try session(manager, mode: .google, adFree: true).receive(resultJSON("adFree")) else { Issue.record("adFree"); return }
        #expect(google.prefersAdFree)
        let string = try recordedString(manager)
        #expect(string.purposesConsent.isEmpty && string.vendorConsents.isEmpty && string.specialFeatureOptIns.isEmpty)
    }

    @Test("a publisher that serves only non-personalized ads: 'personalized' is not offered and refused")
    func nonPersonalizedOnly() async throws {
        let manager = await noticeManager(nonPersonalizedOnly: true)
        let notice = try session(manager, mode: .google)
        #expect(notice.document.google?.personalizedOffered == false)
        #expect(notice.receive(resultJSON("acceptAll")) == .refused(.actionNotOffered(.acceptAll)))
        guard case .decided = notice.receive(resultJSON("nonPersonalized")) else { Issue.record("nonPersonalized"); return }
    }

    @Test("dismissed: nothing is written")
    func dismissed() async throws {
        let manager = await noticeManager()
        #expect(try session(manager, dismissible: true).receive(resultJSON("dismissed")) == .dismissed)
        #expect(manager.consent == nil && manager.configuration.store.value(forKey: "IABTCF_TCString")?.string == nil)
    }

    @Test("ready and load errors are reported as such")
    func pageMessages() async throws {
        let notice = try session(await noticeManager())
        #expect(notice.receive(Data(#"{"protocol":1,"type":"ready","layer":1,"renderMs":12.5}"#.utf8)) == .ready(milliseconds: 12.5))
        #expect(
            notice.receive(Data(#"{"protocol":1,"type":"loadError","code":"no_vendors","message":"none"}"#.utf8))
                == .loadFailed(code: "no_vendors", message: "none"))
    }

    @Test(
        "a result the document did not offer is refused with a typed error and nothing changes",
        arguments: [
            (resultJSON("save", choices: #"{"purposeConsents":[],"purposeLegitimateInterests":[],"specialFeatureOptIns":[],"vendorConsents":[4242],"vendorLegitimateInterests":[],"adTechProviderConsents":[]}"#),
             NoticeResultError.unknownId(.vendor, 4242)),
            (resultJSON("save", choices: #"{"purposeConsents":[25],"purposeLegitimateInterests":[],"specialFeatureOptIns":[],"vendorConsents":[],"vendorLegitimateInterests":[],"adTechProviderConsents":[]}"#),
             .unknownId(.purpose, 25)),
            (resultJSON("save", choices: #"{"purposeConsents":[],"purposeLegitimateInterests":[3],"specialFeatureOptIns":[],"vendorConsents":[],"vendorLegitimateInterests":[],"adTechProviderConsents":[]}"#),
             .consentOnlyPurpose(3)),
            (resultJSON("save", choices: #"{"purposeConsents":[],"purposeLegitimateInterests":[1],"specialFeatureOptIns":[],"vendorConsents":[],"vendorLegitimateInterests":[],"adTechProviderConsents":[]}"#),
             .consentOnlyPurpose(1)),
            (resultJSON("save", choices: #"{"purposeConsents":[],"purposeLegitimateInterests":[],"specialFeatureOptIns":[],"vendorConsents":[],"vendorLegitimateInterests":[],"adTechProviderConsents":[7]}"#),
             .unknownId(.adTechProvider, 7)),
            (resultJSON("acceptAll", protocolVersion: 2), .unsupportedProtocol(2)),
            (resultJSON("acceptEverything"), .unknownAction("acceptEverything")),
            (resultJSON("acceptAll", layer: 9), .layerOutOfRange(9)),
            (resultJSON("save"), .choicesMissing),
            (resultJSON("acceptAll", choices: #"{"purposeConsents":[],"purposeLegitimateInterests":[],"specialFeatureOptIns":[],"vendorConsents":[],"vendorLegitimateInterests":[],"adTechProviderConsents":[]}"#),
             .choicesNotExpected(.acceptAll)),
            (resultJSON("acceptAll", language: "de"), .languageMismatch(shown: "en", answered: "de")),
            (resultJSON("acceptAll", noticeVersion: 2), .noticeVersionMismatch(shown: 3, answered: 2)),
            (resultJSON("dismissed"), .actionNotOffered(.dismissed)),
            (resultJSON("adFree"), .actionNotOffered(.adFree)),
            (resultJSON("nonPersonalized"), .actionNotOffered(.nonPersonalized)),
            (Data(#"{"protocol":1,"type":"hello"}"#.utf8), .notAResult("hello")),
        ])
    func refused(message: Data, error: NoticeResultError) async throws {
        let manager = await noticeManager()
        let event = try session(manager).receive(message)
        #expect(event == .refused(error))
        #expect(manager.consent == nil && manager.configuration.store.value(forKey: "IABTCF_TCString")?.string == nil)
    }

    @Test("malformed messages are refused, never decided", arguments: [
        "", "[]", "null", "{", #"{"protocol":"1","type":"result"}"#, #"{"protocol":1,"type":"result","action":"acceptAll","layer":1.5}"#,
        #"{"protocol":1,"type":"result","action":"acceptAll","layer":1,"language":"en"}"#,
        #"{"protocol":1,"type":"result","action":"save","layer":1,"language":"en","noticeVersion":3,"choices":{"purposeConsents":"all"}}"#,
    ])
    func malformed(message: String) async throws {
        let manager = await noticeManager()
        guard case .refused = try session(manager).receive(Data(message.utf8)) else { Issue.record("not refused: \(message)"); return }
        #expect(manager.consent == nil)
    }

    @Test("a legitimate interest kept for a vendor that declares none is refused")
    func vendorWithoutInterest() async throws {
        let manager = await noticeManager()
        let notice = try session(manager)
        let plain = try #require(notice.document.vendors.first { !$0.legitimateInterest })
        let choices = #"{"purposeConsents":[],"purposeLegitimateInterests":[],"specialFeatureOptIns":[],"vendorConsents":[],"vendorLegitimateInterests":[\#(plain.id)],"adTechProviderConsents":[]}"#
        #expect(notice.receive(resultJSON("save", choices: choices)) == .refused(.noLegitimateInterest(vendor: plain.id)))
    }
}
