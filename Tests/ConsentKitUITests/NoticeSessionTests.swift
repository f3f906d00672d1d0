import ConsentKit
import ConsentKitUI
import Foundation
import Testing

@Suite("Notice sessions: what may be shown to whom")
struct NoticeSessionTests {
    private func session(_ manager: ConsentManager, mode: NoticeSettings.Mode) throws(NoticeSessionError) -> NoticeSession {
        var settings = publisherSettings
        settings.mode = mode
        return try NoticeSession(manager: manager, settings: settings, request: NoticeRequest(reason: .noDecision, allowsDismissal: true, isUserInitiated: true))
    }

    @Test("001-25: Google's form refuses to load for a user tagged under the age of consent, with a typed error")
    func googleFormRefusedUnderAge() async throws {
        let manager = await noticeManager()
        manager.setTagForUnderAgeOfConsent(true)
        #expect(throws: NoticeSessionError.googleFormRefused(.taggedUnderAgeOfConsent)) { try session(manager, mode: .google) }
        #expect(manager.consent == nil)
    }

    @Test("001-25: untagged, the same Google form loads")
    func googleFormLoadsUntagged() async throws {
        let manager = await noticeManager()
        manager.setTagForUnderAgeOfConsent(true)
        manager.setTagForUnderAgeOfConsent(false)
        #expect(try session(manager, mode: .google).document.google != nil)
    }

    @Test("the proof's document hash is the SHA-256 of the JSON the page is handed, each session its own")
    func documentHashIsThatOfTheDocumentShown() async throws {
        let manager = await noticeManager()
        let sessions = try [NoticeSettings.Mode.tcf, .google, .tcf].map { try session(manager, mode: $0) }
        for session in sessions {
            #expect(session.documentHash == ConsentProof.hash(ofDocument: Array(session.documentJSON.utf8)))
        }
        #expect(sessions[0].documentHash != sessions[1].documentHash)
    }
}
