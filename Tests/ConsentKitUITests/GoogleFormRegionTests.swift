import ConsentKit
import ConsentKitUI
import Foundation
import TCF
import Testing

/// Seed 001 (Google's Consent SDK): "the consent form does not load if the user is not in the
/// EEA"; it loads where the location is unknown (`requestLocationInEEAOrUnknown`).
@Suite("001-18: Google's form is not built where GDPR does not apply")
struct GoogleFormRegionTests {
    private func session(_ manager: ConsentManager, mode: NoticeSettings.Mode, userInitiated: Bool = false) throws -> NoticeSession {
        var settings = publisherSettings
        settings.mode = mode
        return try NoticeSession(
            manager: manager, settings: settings,
            request: NoticeRequest(reason: .noDecision, allowsDismissal: userInitiated, isUserInitiated: userInitiated))
    }

    @Test("001-18: outside the EEA Google's form is refused with a typed error, from the rules and from the app's settings entry alike")
    func refusedOutsideTheEEA() async throws {
        let manager = await noticeManager(gdprApplies: false)
        #expect(manager.gdprApplies == .doesNotApply)
        for userInitiated in [false, true] {
            #expect(throws: NoticeSessionError.googleFormRefused(.notInEEA)) { try session(manager, mode: .google, userInitiated: userInitiated) }
        }
        #expect(NoticeOutcome(NoticeSessionError.googleFormRefused(.notInEEA)) == .failed(
            "Google's consent form cannot be shown: \(GoogleConsentError.notInEEA)"))
    }

    @Test("001-18: in the EEA and where the region is unknown Google's form is built")
    func builtInTheEEAOrUnknown() async throws {
        for gdpr in [true, nil] as [Bool?] {
            let manager = await noticeManager(gdprApplies: gdpr)
            #expect(try session(manager, mode: .google).document.mode == .google, "\(String(describing: gdpr))")
        }
    }

    @Test("001-18: the publisher's own TCF notice stays available outside the EEA (the app's settings entry)")
    func tcfNoticeOutsideTheEEA() async throws {
        let manager = await noticeManager(gdprApplies: false)
        #expect(try session(manager, mode: .tcf, userInitiated: true).document.mode == .tcf)
    }

}
