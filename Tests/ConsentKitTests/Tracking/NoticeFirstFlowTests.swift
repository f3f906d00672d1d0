import Testing
import TCF
@testable import ConsentKit

@Suite("Consent flow: the notice first, then ATT")
struct NoticeFirstFlowTests {
    /// Runs `.noticeFirst(tracking: after)` over a fresh manager (unless given).
    private func run(
        _ tracking: SimulatedTrackingAuthorization, after: TrackingAfterNotice = .always, action: ScriptedNotice.Action = .agreeToAll,
        manager: ConsentManager = makeTrackingManager()
    ) async -> (ConsentFlowResult, ScriptedNotice, ConsentManager) {
        let notice = ScriptedNotice(manager: manager, tracking: tracking, action: action)
        let result = await ConsentFlow(manager: manager, policy: .noticeFirst(tracking: after), tracking: tracking, notice: notice).run()
        return (result, notice, manager)
    }

    @Test("the notice comes first, cannot be dismissed, and ATT follows with the user's answer", arguments: [TrackingAuthorizationStatus.authorized, .denied, .restricted, .notDetermined])
    func noticeThenTracking(answer: TrackingAuthorizationStatus) async {
        let tracking = SimulatedTrackingAuthorization(answer: answer)
        let (result, notice, _) = await run(tracking)
        #expect(notice.presentations == [ScriptedNotice.Presentation(
            request: NoticeRequest(reason: .noDecision, allowsDismissal: false), promptsBefore: 0, trackingStatus: .notDetermined)])
        #expect(result.steps == [.noticePresented(NoticeRequest(reason: .noDecision, allowsDismissal: false), .decided), .trackingRequested(answer: answer)])
        #expect(result.trackingStatus == answer)
        #expect(result.decisionRecorded)
    }

    @Test("always: ATT follows even when the user rejected everything")
    func alwaysAfterRejection() async {
        let tracking = SimulatedTrackingAuthorization(answer: .authorized)
        let (result, _, _) = await run(tracking, after: .always, action: .disagreeToAll)
        #expect(tracking.promptCount == 1)
        #expect(result.trackingStatus == .authorized)
    }

    @Test("if any purpose consented: ATT follows a choice that consents to a purpose")
    func ifAnyPurposeWithPurpose() async {
        let tracking = SimulatedTrackingAuthorization(answer: .authorized)
        let (result, _, manager) = await run(tracking, after: .ifAnyPurposeConsented, action: .consentToPurposeOne)
        #expect(manager.consent?.purposeConsents == [1])
        #expect(tracking.promptCount == 1)
        #expect(result.trackingRequested)
    }

    @Test("if any purpose consented: ATT is not requested after a choice that consents to none")
    func ifAnyPurposeWithoutPurpose() async {
        let tracking = SimulatedTrackingAuthorization(answer: .authorized)
        let (result, _, _) = await run(tracking, after: .ifAnyPurposeConsented, action: .disagreeToAll)
        #expect(tracking.requestCount == 0)
        #expect(result.trackingStatus == .notDetermined)
    }

    @Test("ATT denied in an earlier launch: the notice is withheld and nothing is recorded", arguments: [TrackingAfterNotice.always, .ifAnyPurposeConsented])
    func deniedEarlier(after: TrackingAfterNotice) async {
        let tracking = SimulatedTrackingAuthorization(status: .denied)
        let (result, notice, manager) = await run(tracking, after: after)
        #expect(notice.presentations.isEmpty)
        #expect(result.steps == [.noticeWithheld])
        #expect(manager.consent == nil)
        #expect(tracking.requestCount == 0)
    }

    @Test("ATT authorized in an earlier launch: the notice may be dismissed and ATT is not requested again")
    func authorizedEarlier() async {
        let tracking = SimulatedTrackingAuthorization(status: .authorized)
        let (result, notice, _) = await run(tracking, action: .dismiss)
        #expect(notice.presentations.map(\.request.allowsDismissal) == [true])
        #expect(result.problem == nil)
        #expect(tracking.requestCount == 0)
    }

    @Test("ATT restricted: the notice may be dismissed and there is no prompt")
    func restrictedEarlier() async {
        let tracking = SimulatedTrackingAuthorization(status: .restricted)
        let (result, notice, _) = await run(tracking)
        #expect(notice.presentations.map(\.request.allowsDismissal) == [true])
        #expect(tracking.promptCount == 0)
        #expect(result.trackingStatus == .restricted)
    }

    @Test("ATT unavailable: the notice may be dismissed and ATT is not requested")
    func unavailable() async {
        let tracking = SimulatedTrackingAuthorization.unavailable()
        let (result, notice, _) = await run(tracking)
        #expect(notice.presentations.map(\.request.allowsDismissal) == [true])
        #expect(tracking.requestCount == 0)
        #expect(result.trackingStatus == nil)
    }

    @Test("a presenter that dismisses the notice before ATT: nothing recorded, ATT not requested, the problem reported")
    func dismissedBeforeTracking() async {
        let tracking = SimulatedTrackingAuthorization(answer: .authorized)
        let (result, _, manager) = await run(tracking, action: .dismiss)
        #expect(result.problem == .noticeEndedWithoutChoice(.dismissed))
        #expect(manager.consent == nil)
        #expect(tracking.requestCount == 0)
        #expect(!result.decisionRecorded)
    }

    @Test("a presenter that says decided without recording a choice is treated as no choice")
    func claimedDecision() async {
        let tracking = SimulatedTrackingAuthorization(answer: .authorized)
        let (result, _, _) = await run(tracking, action: .claimDecidedWithoutRecording)
        #expect(result.problem == .noticeEndedWithoutChoice(.decided))
        #expect(tracking.requestCount == 0)
    }

    @Test("after a notice ended without a choice, the next run shows it again before ATT")
    func nextRunAsksAgain() async {
        let tracking = SimulatedTrackingAuthorization(answer: .authorized)
        let manager = makeTrackingManager()
        _ = await run(tracking, action: .dismiss, manager: manager)
        let (result, notice, _) = await run(tracking, action: .agreeToAll, manager: manager)
        #expect(notice.presentations.map(\.promptsBefore) == [0])
        #expect(result.problem == nil)
        #expect(tracking.promptCount == 1)
    }

    @Test("the region is unknown: the notice comes first, as where GDPR applies", arguments: [TrackingAfterNotice.always, .ifAnyPurposeConsented])
    func regionUnknownAsks(after: TrackingAfterNotice) async {
        let tracking = SimulatedTrackingAuthorization(answer: .authorized)
        let manager = makeTrackingManager(gdpr: nil)
        let (result, notice, _) = await run(tracking, after: after, manager: manager)
        // Issue 26 §1: once the user decided where the region is unknown, GDPR applies to the decision (was .undetermined).
        #expect(manager.gdprApplies == .applies)
        #expect(result.verdict == .noDecision)
        #expect(notice.presentations.map(\.promptsBefore) == [0])
        #expect(result.decisionRecorded)
        #expect(tracking.requestCount == 1)
    }

    @Test("the region is unknown under the doNotAsk policy: neither the notice nor ATT", arguments: [TrackingAfterNotice.always, .ifAnyPurposeConsented])
    func regionUnknown(after: TrackingAfterNotice) async {
        let tracking = SimulatedTrackingAuthorization(answer: .authorized)
        let (result, notice, _) = await run(tracking, after: after, manager: makeTrackingManager(gdpr: nil, askRules: AskRules(whenRegionUnknown: .doNotAsk)))
        #expect(result.verdict == .regionUnknown)
        #expect(notice.presentations.isEmpty)
        #expect(tracking.requestCount == 0)
    }

    @Test("GDPR does not apply: no notice, and ATT is requested under either setting", arguments: [TrackingAfterNotice.always, .ifAnyPurposeConsented])
    func gdprDoesNotApply(after: TrackingAfterNotice) async {
        let tracking = SimulatedTrackingAuthorization(answer: .denied)
        let (result, notice, _) = await run(tracking, after: after, manager: makeTrackingManager(gdpr: .doesNotApply))
        #expect(notice.presentations.isEmpty)
        #expect(tracking.promptCount == 1)
        #expect(result.trackingStatus == .denied)
    }

    @Test("the decision holds and ATT was never asked: no notice, ATT follows")
    func decisionHolds() async throws {
        let manager = makeTrackingManager()
        try manager.agreeToAll()
        let tracking = SimulatedTrackingAuthorization(answer: .authorized)
        let (result, notice, _) = await run(tracking, manager: manager)
        #expect(notice.presentations.isEmpty)
        #expect(result.steps == [.trackingRequested(answer: .authorized)])
    }
}
