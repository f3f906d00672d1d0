import ConsentKit
import ConsentKitUI
import Foundation
import TCF
import Testing

/// Issue 27 §2, decision record 0017: Google's form records what it shows, offers a refusal one
/// tap away, and opens the TCF layers with "Manage options".
@Suite("Google's form is honest under the TCF: what each answer records, and a refusal always offered")
struct GoogleFormHonestyTests {
    private func googleSession(
        _ manager: ConsentManager, refusal: Bool = true, adFree: Bool = false, appIcon: String? = nil
    ) throws -> NoticeSession {
        var settings = publisherSettings
        settings.mode = .google
        settings.offersRefusal = refusal
        settings.offersAdFree = adFree
        settings.appIcon = appIcon
        return try NoticeSession(manager: manager, settings: settings, request: NoticeRequest(reason: .noDecision, allowsDismissal: false))
    }

    private func decided(_ event: NoticeSession.Event) -> ConsentState? {
        guard case .decided(_, let decision, _) = event else { return nil }
        return decision
    }

    @Test("\"Yes\" consents to every purpose, vendor and ad-tech provider shown, and opts into no special feature")
    func yesRecordsNoSpecialFeature() async throws {
        let manager = await noticeManager()
        let notice = try googleSession(manager)
        #expect(!notice.document.specialFeatures.isEmpty, "the vendors use special features: the test must be able to fail")
        let decision = try #require(decided(notice.receive(resultJSON("acceptAll"))))
        #expect(decision.purposeConsents == IDSet(validIds: notice.document.purposes.keys.compactMap(Int.init)))
        #expect(decision.vendorConsents == IDSet(validIds: notice.document.vendors.map(\.id)))
        #expect(decision.adTechProviderConsents == IDSet(validIds: notice.document.adTechProviders.map(\.id)))
        #expect(decision.specialFeatureOptIns.isEmpty)
        #expect(GoogleAdsConsent(manager: manager).status == .personalized)
    }

    @Test("\"No\" is one tap from the form and consents to the same without purposes 3-6 and without special features")
    func noIsOneTap() async throws {
        let manager = await noticeManager()
        let notice = try googleSession(manager)
        let decision = try #require(decided(notice.receive(resultJSON("nonPersonalized", layer: 1))))
        let shown = IDSet(validIds: notice.document.purposes.keys.compactMap(Int.init))
        #expect(decision.purposeConsents == shown.subtracting([3, 4, 5, 6]))
        #expect(decision.specialFeatureOptIns.isEmpty && decision.consentScreen == 1)
        #expect(GoogleAdsConsent(manager: manager).status == .nonPersonalized)
    }

    @Test("\"Do not consent\" records no consent, no opt-in and an objection to every legitimate interest; ads are npa=1")
    func doNotConsentRefuses() async throws {
        let manager = await noticeManager()
        let notice = try googleSession(manager)
        let decision = try #require(decided(notice.receive(resultJSON("rejectAll"))))
        #expect(decision.purposeConsents.isEmpty && decision.vendorConsents.isEmpty && decision.specialFeatureOptIns.isEmpty)
        #expect(decision.adTechProviderConsents.isEmpty && decision.purposeLegitimateInterests.isEmpty)
        #expect(GoogleAdsConsent(manager: manager).adRequestParameters["npa"] == "1")
    }

    @Test("with \"Do not consent\" turned off, the form's first screen refuses that answer (the TCF layers keep Reject all)")
    func refusalOffRefusesRejectOnTheForm() async throws {
        let manager = await noticeManager()
        let notice = try googleSession(manager, refusal: false, adFree: true)
        #expect(notice.document.google?.refusalOffered == false)
        #expect(notice.receive(resultJSON("rejectAll", layer: 1)) == .refused(.actionNotOffered(.rejectAll)))
        #expect(manager.consent == nil)
        #expect(decided(notice.receive(resultJSON("rejectAll", layer: 2))) != nil)
    }

    @Test("a Google form with \"Do not consent\" off and no ad-free version is not built, with a typed error naming the settings")
    func noRefusalIsNotBuilt() async throws {
        let manager = await noticeManager()
        #expect(throws: NoticeSessionError.document(.googleFormWithoutRefusal)) { try googleSession(manager, refusal: false) }
        #expect("\(NoticeDocumentError.googleFormWithoutRefusal)".contains("offersRefusal"))
        #expect(try googleSession(manager, refusal: false, adFree: true).document.adFree.offered)
    }

    @Test("\"Manage options\" saves exactly the switches, a special feature only when switched on")
    func manageOptionsSavesTheSwitches() async throws {
        let manager = await noticeManager()
        let notice = try googleSession(manager)
        let feature = try #require(notice.document.specialFeatures.keys.compactMap(Int.init).min())
        let choices = #"{"purposeConsents":[1,3,4],"purposeLegitimateInterests":[],"specialFeatureOptIns":[\#(feature)],"vendorConsents":[755],"vendorLegitimateInterests":[],"adTechProviderConsents":[]}"#
        let decision = try #require(decided(notice.receive(resultJSON("save", layer: 2, choices: choices))))
        #expect(decision.purposeConsents == [1, 3, 4] && decision.specialFeatureOptIns == IDSet(validIds: [feature]))
        #expect(decision.vendorConsents == [755] && decision.adTechProviderConsents.isEmpty && decision.consentScreen == 2)
    }

    @Test("\"Accept all\" on the TCF layers behind \"Manage options\", where the special features are shown, is the TCF's accept-all")
    func acceptAllOnTheLayersIsTheTCFs() async throws {
        let manager = await noticeManager()
        let notice = try googleSession(manager)
        let decision = try #require(decided(notice.receive(resultJSON("acceptAll", layer: 2))))
        #expect(decision.specialFeatureOptIns == IDSet(validIds: notice.document.specialFeatures.keys.compactMap(Int.init)))
    }

    @Test("the app's icon is carried to the form; one the page could not show is refused with a typed error", arguments: [
        ("data:image/png;base64,iVBORw0KGgo=", true), ("https://cdn.example/icon.png", true), ("/v1/assets/icon.png", true),
        ("http://cdn.example/icon.png", false), ("javascript:alert(1)", false), ("//cdn.example/icon.png", false),
    ])
    func appIcon(icon: String, accepted: Bool) async throws {
        let manager = await noticeManager()
        if accepted {
            #expect(try googleSession(manager, appIcon: icon).document.google?.appIcon == icon)
        } else {
            #expect(throws: NoticeSessionError.document(.appIconInvalid(icon))) { try googleSession(manager, appIcon: icon) }
        }
    }
}
