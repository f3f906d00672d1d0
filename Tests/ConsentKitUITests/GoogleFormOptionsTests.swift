import ConsentKit
import ConsentKitUI
import Foundation
import TCF
import Testing

/// Seed 001 (Google's Consent SDK): `PACConsentForm`'s `shouldOfferPersonalizedAds` (YES),
/// `shouldOfferNonPersonalizedAds` (YES) and `shouldOfferAdFree` (NO) are `NoticeSettings`'
/// `offersPersonalized`, `offersNonPersonalized` and `offersAdFree`.
@Suite("001-12: Google's form offers the kinds of ads the publisher chose, and nothing else is recorded")
struct GoogleFormOptionsTests {
    private func googleSession(
        _ manager: ConsentManager, personalized: Bool = true, nonPersonalized: Bool = true, adFree: Bool = false
    ) throws -> NoticeSession {
        var settings = publisherSettings
        settings.mode = .google
        settings.offersPersonalized = personalized
        settings.offersNonPersonalized = nonPersonalized
        settings.offersAdFree = adFree
        return try NoticeSession(manager: manager, settings: settings, request: NoticeRequest(reason: .noDecision, allowsDismissal: false))
    }

    @Test("001-12: by default the form offers personalized and non-personalized ads, and the ad-free version only when asked")
    func defaultsAreGoogles() async throws {
        let settings = NoticeSettings(mode: .google, publisherName: "Example News", privacyPolicyURL: URL(string: "https://news.example/privacy"))
        #expect(settings.offersPersonalized && settings.offersNonPersonalized && !settings.offersAdFree)
        let manager = await noticeManager()
        let document = try NoticeSession(
            manager: manager, settings: settings, request: NoticeRequest(reason: .noDecision, allowsDismissal: false)
        ).document
        #expect(document.google?.personalizedOffered == true && document.google?.nonPersonalizedOffered == true)
        #expect(document.adFree.offered == false)
        let json = try #require(JSONSerialization.jsonObject(with: document.json()) as? [String: Any])
        // Issue 27 §2 adds "refusalOffered" (on by default) and "appIcon" (none) to the form's object.
        let google = try #require(json["google"] as? [String: Any])
        #expect(google["personalizedOffered"] as? Bool == true && google["nonPersonalizedOffered"] as? Bool == true)
        #expect(google["refusalOffered"] as? Bool == true && google["appIcon"] is NSNull)
    }

    @Test("001-12: with offersPersonalized off the form offers non-personalized ads only, and refuses a personalized answer")
    func personalizedOff() async throws {
        let manager = await noticeManager()
        let notice = try googleSession(manager, personalized: false)
        #expect(notice.document.google?.personalizedOffered == false && notice.document.google?.nonPersonalizedOffered == true)
        #expect(notice.receive(resultJSON("acceptAll")) == .refused(.actionNotOffered(.acceptAll)))
        #expect(manager.consent == nil)
        guard case .decided = notice.receive(resultJSON("nonPersonalized")) else { Issue.record("nonPersonalized not decided"); return }
        #expect(GoogleAdsConsent(manager: manager).status == .nonPersonalized)
    }

    @Test("001-12: with offersNonPersonalized off the form offers personalized ads only, and refuses a non-personalized answer")
    func nonPersonalizedOff() async throws {
        let manager = await noticeManager()
        let notice = try googleSession(manager, nonPersonalized: false)
        #expect(notice.document.google?.personalizedOffered == true && notice.document.google?.nonPersonalizedOffered == false)
        #expect(notice.receive(resultJSON("nonPersonalized", layer: 2)) == .refused(.actionNotOffered(.nonPersonalized)))
        #expect(manager.consent == nil)
        guard case .decided = notice.receive(resultJSON("acceptAll")) else { Issue.record("acceptAll not decided"); return }
        #expect(GoogleAdsConsent(manager: manager).status == .personalized)
    }

    @Test("001-12: with offersNonPersonalized off and the ad-free version offered, paying is the other answer")
    func personalizedOrAdFree() async throws {
        let manager = await noticeManager()
        let notice = try googleSession(manager, nonPersonalized: false, adFree: true)
        guard case .decided = notice.receive(resultJSON("adFree")) else { Issue.record("adFree not decided"); return }
        #expect(GoogleAdsConsent(manager: manager).prefersAdFree && manager.consent?.purposeConsents.isEmpty == true)
    }

    @Test(
        "001-12: a form that would offer no kind of ads is not built, with a typed error",
        arguments: [
            (personalized: false, nonPersonalized: false, publisherNonPersonalizedOnly: false, adFree: false),
            (personalized: false, nonPersonalized: false, publisherNonPersonalizedOnly: false, adFree: true),
            // The publisher serves non-personalized ads only, and the settings turn them off.
            (personalized: true, nonPersonalized: false, publisherNonPersonalizedOnly: true, adFree: false),
        ])
    func noKindOfAds(personalized: Bool, nonPersonalized: Bool, publisherNonPersonalizedOnly: Bool, adFree: Bool) async throws {
        let manager = await noticeManager(nonPersonalizedOnly: publisherNonPersonalizedOnly)
        #expect(throws: NoticeSessionError.document(.noGoogleChoice)) {
            try googleSession(manager, personalized: personalized, nonPersonalized: nonPersonalized, adFree: adFree)
        }
        #expect("\(NoticeDocumentError.noGoogleChoice)".contains("offersNonPersonalized"))
    }

    @Test("001-12: the TCF notice ignores the Google options: accept all stays its own answer")
    func tcfIgnoresThem() async throws {
        var settings = publisherSettings
        settings.offersPersonalized = false
        settings.offersNonPersonalized = false
        let manager = await noticeManager()
        let notice = try NoticeSession(manager: manager, settings: settings, request: NoticeRequest(reason: .noDecision, allowsDismissal: false))
        #expect(notice.document.google == nil)
        #expect(notice.receive(resultJSON("nonPersonalized")) == .refused(.actionNotOffered(.nonPersonalized)))
        guard case .decided = notice.receive(resultJSON("acceptAll")) else { Issue.record("acceptAll not decided"); return }
    }
}
