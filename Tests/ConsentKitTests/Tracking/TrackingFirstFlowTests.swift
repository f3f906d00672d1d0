import Testing
import TCF
@testable import ConsentKit

@Suite("Consent flow: ATT first, then the notice")
struct TrackingFirstFlowTests {
    /// Runs `.trackingFirst` over a fresh manager (unless given) with this ATT and notice action.
    private func run(
        _ tracking: SimulatedTrackingAuthorization, action: ScriptedNotice.Action = .agreeToAll, manager: ConsentManager = makeTrackingManager()
    ) async -> (ConsentFlowResult, ScriptedNotice, ConsentManager) {
        let notice = ScriptedNotice(manager: manager, tracking: tracking, action: action)
        let result = await ConsentFlow(manager: manager, policy: .trackingFirst, tracking: tracking, notice: notice).run()
        return (result, notice, manager)
    }

    @Test("authorized: the prompt comes first, then a notice that may be dismissed")
    func authorized() async {
        let tracking = SimulatedTrackingAuthorization(answer: .authorized)
        let (result, notice, manager) = await run(tracking)
        #expect(notice.presentations.map(\.promptsBefore) == [1])
        #expect(result.steps == [.trackingRequested(answer: .authorized), .noticePresented(NoticeRequest(reason: .noDecision, allowsDismissal: true), .decided)])
        #expect(result.decisionRecorded)
        #expect(manager.consent?.purposeConsents.isEmpty == false)
    }

    @Test("denied: reject all is recorded and the notice is not shown")
    func denied() async throws {
        let tracking = SimulatedTrackingAuthorization(answer: .denied)
        let (result, notice, manager) = await run(tracking)
        #expect(notice.presentations.isEmpty)
        #expect(result.steps == [.trackingRequested(answer: .denied), .noticeWithheld, .disagreedToAll])
        let consent = try #require(manager.consent)
        #expect(consent.purposeConsents.isEmpty && consent.vendorConsents.isEmpty && consent.specialFeatureOptIns.isEmpty)
        #expect(consent.disclosedVendors == trackingTestVendors)
    }

    @Test("restricted: no prompt, and the notice shows")
    func restricted() async {
        let tracking = SimulatedTrackingAuthorization(answer: .restricted)
        let (result, notice, _) = await run(tracking)
        #expect(tracking.promptCount == 0)
        #expect(notice.presentations.map(\.request.allowsDismissal) == [true])
        #expect(result.trackingStatus == .restricted)
    }

    @Test("ATT unavailable: the notice shows and may be dismissed")
    func unavailable() async {
        let tracking = SimulatedTrackingAuthorization.unavailable()
        let (result, notice, _) = await run(tracking)
        #expect(tracking.requestCount == 0)
        #expect(notice.presentations.map(\.request.allowsDismissal) == [true])
        #expect(result.trackingStatus == nil)
    }

    @Test("the system shows no prompt (the status stays open): the notice shows and cannot be dismissed")
    func promptNotShown() async {
        let tracking = SimulatedTrackingAuthorization(answer: .notDetermined)
        let (result, notice, _) = await run(tracking)
        #expect(notice.presentations.map(\.request.allowsDismissal) == [false])
        #expect(result.trackingStatus == .notDetermined)
    }

    @Test("the status stays open and the notice is dismissed anyway: the missing choice is reported")
    func promptNotShownAndDismissed() async {
        let (result, _, manager) = await run(SimulatedTrackingAuthorization(answer: .notDetermined), action: .dismiss)
        #expect(result.problem == .noticeEndedWithoutChoice(.dismissed))
        #expect(manager.consent == nil)
    }

    @Test("a notice after ATT may be dismissed without a choice: nothing is recorded and nothing is wrong")
    func dismissAfterTracking() async {
        let (result, _, manager) = await run(SimulatedTrackingAuthorization(answer: .authorized), action: .dismiss)
        #expect(result.problem == nil)
        #expect(!result.decisionRecorded)
        #expect(manager.consent == nil)
    }

    @Test("ATT denied in an earlier launch: no prompt, no notice, reject all recorded")
    func deniedEarlier() async {
        let tracking = SimulatedTrackingAuthorization(status: .denied)
        let (result, notice, manager) = await run(tracking)
        #expect(tracking.requestCount == 0)
        #expect(notice.presentations.isEmpty)
        #expect(result.steps == [.noticeWithheld, .disagreedToAll])
        #expect(manager.consent?.purposeConsents.isEmpty == true)
    }

    @Test("ATT authorized in an earlier launch: no prompt, and the notice shows")
    func authorizedEarlier() async {
        let tracking = SimulatedTrackingAuthorization(status: .authorized)
        let (result, notice, _) = await run(tracking)
        #expect(tracking.requestCount == 0)
        #expect(notice.presentations.count == 1)
        #expect(!result.trackingRequested)
    }

    @Test("denied while the user's decision still holds: the decision is left as it is")
    func deniedWithDecisionHolding() async throws {
        let manager = makeTrackingManager()
        try manager.agreeToAll()
        let before = manager.consent
        let (result, notice, _) = await run(SimulatedTrackingAuthorization(answer: .denied), manager: manager)
        #expect(result.steps == [.trackingRequested(answer: .denied)])
        #expect(notice.presentations.isEmpty)
        #expect(manager.consent == before)
    }

    @Test("GDPR does not apply: ATT is still requested, and no notice shows")
    func gdprDoesNotApply() async {
        let tracking = SimulatedTrackingAuthorization(answer: .authorized)
        let (result, notice, _) = await run(tracking, manager: makeTrackingManager(gdpr: .doesNotApply))
        #expect(tracking.promptCount == 1)
        #expect(notice.presentations.isEmpty)
        #expect(result.verdict == .gdprDoesNotApply)
    }

    @Test("reject all cannot be recorded without a vendor list: the failure is reported")
    func denialWithoutVendorList() async {
        let (result, _, manager) = await run(SimulatedTrackingAuthorization(answer: .denied), manager: makeTrackingManager(holdingList: false))
        #expect(result.problem == .decisionFailed(.noVendorList))
        #expect(!result.decisionRecorded)
        #expect(manager.consent == nil)
    }

    @Test("running on every launch prompts once")
    func promptsOnceAcrossRuns() async {
        let tracking = SimulatedTrackingAuthorization(answer: .authorized)
        let manager = makeTrackingManager()
        _ = await run(tracking, manager: manager)
        let (second, notice, _) = await run(tracking, manager: manager)
        #expect(tracking.promptCount == 1)
        #expect(second.steps.isEmpty)
        #expect(notice.presentations.isEmpty)
    }
}
