import ConsentKit
import ConsentKitUI
import Foundation
import TCF
import Testing

/// Seed 001 (Google's Consent SDK): `load(completionHandler:)` reports an error when the form
/// cannot load, distinct from the form's choices. A presenter reports what a showing came to
/// (``NoticeSession/Event/outcome``): a notice that could not be shown, or whose answer could not
/// be recorded, is `failed` with the reason, never `dismissed`.
@Suite("001-15: a notice that cannot load is reported as a failure, not as dismissed")
struct NoticeLoadFailureTests {
    private func session(_ manager: ConsentManager, dismissible: Bool = false) throws -> NoticeSession {
        try NoticeSession(manager: manager, settings: publisherSettings, request: NoticeRequest(reason: .noDecision, allowsDismissal: dismissible))
    }

    @Test("001-15: a page that refuses its document ends the showing as failed, naming the page's code")
    func pageLoadError() async throws {
        let notice = try session(await noticeManager())
        let event = notice.receive(Data(#"{"protocol":1,"type":"loadError","code":"malformed_document","message":"cannot render"}"#.utf8))
        #expect(event.outcome == .failed("the notice page refused its document: malformed_document: cannot render"))
    }

    @Test("001-15: a notice that cannot be prepared (no vendor list yet) is a failure with the reason")
    func cannotBePrepared() async throws {
        let manager = ConsentManager(configuration: ConsentConfiguration(
            consentd: nil, cmp: noticeCMP, store: InMemoryKeyValueStore(), log: .silent, now: { noticeDate }, sync: .disabled))
        manager.start(refreshing: false)
        let error = try #require(throws: NoticeSessionError.self) { try session(manager) }
        #expect(error == .scope(.noVendorList))
        guard case .failed(let reason) = NoticeOutcome(error) else { Issue.record("not a failure"); return }
        #expect(reason == error.description && reason.contains("cannot be shown yet"))
    }

    @Test("001-15: an answer the document did not allow, or a choice the manager refused, ends as failed; nothing is written")
    func refusedAnswers() async throws {
        let manager = await noticeManager()
        let notice = try session(manager)
        guard case .failed(let reason) = notice.receive(resultJSON("dismissed")).outcome else { Issue.record("not a failure"); return }
        #expect(reason.contains("did not offer dismissed"))
        #expect(manager.consent == nil && manager.configuration.store.value(forKey: "IABTCF_TCString") == nil)
        let failed = NoticeSession.Event.failed(.noVendorList).outcome
        #expect(failed == .failed("the choice could not be recorded: \(ConsentKitError.noVendorList)"))
    }

    @Test("001-15: a decision is decided, closing without a choice is dismissed, and the first layer being ready keeps the notice up")
    func otherEvents() async throws {
        let manager = await noticeManager()
        #expect(try session(manager).receive(Data(#"{"protocol":1,"type":"ready","layer":1,"renderMs":2}"#.utf8)).outcome == nil)
        #expect(try session(manager, dismissible: true).receive(resultJSON("dismissed")).outcome == .dismissed)
        #expect(try session(manager).receive(resultJSON("acceptAll")).outcome == .decided)
        #expect(manager.consent != nil)
    }
}
