import Foundation
import Testing
import TCF
@testable import ConsentKit

/// An app's explainer that notes when it was shown, against the ATT prompts.
final class RecordingExplainer: TrackingExplaining {
    private let tracking: SimulatedTrackingAuthorization
    private let shown = Locked<[Int]>([])

    init(tracking: SimulatedTrackingAuthorization) {
        self.tracking = tracking
    }

    /// The ATT prompts shown before each showing of the explainer.
    var promptsBefore: [Int] { shown.withLock { $0 } }

    @MainActor func explainTracking() async {
        let prompts = tracking.promptCount
        shown.withLock { $0.append(prompts) }
    }
}

/// Audit item 15, seed 004 "explain the reason before the ATT prompt": the policy's explainer
/// comes right before ATT's prompt, and only when the prompt follows.
@Suite("004-4: the app's explainer before the ATT prompt")
struct TrackingExplainerFlowTests {
    private func run(
        _ policy: ConsentFlowPolicy, tracking: SimulatedTrackingAuthorization, action: ScriptedNotice.Action = .agreeToAll,
        manager: ConsentManager = makeTrackingManager()
    ) async -> (ConsentFlowResult, ScriptedNotice) {
        let notice = ScriptedNotice(manager: manager, tracking: tracking, action: action)
        return (await ConsentFlow(manager: manager, policy: policy, tracking: tracking, notice: notice).run(), notice)
    }

    @Test("004-4: tracking first, the explainer shows right before the prompt")
    func trackingFirstExplainsBeforePrompt() async {
        let tracking = SimulatedTrackingAuthorization(answer: .authorized)
        let explainer = RecordingExplainer(tracking: tracking)
        let (result, _) = await run(.trackingFirst.explainingTracking(with: explainer), tracking: tracking)
        #expect(explainer.promptsBefore == [0])
        #expect(Array(result.steps.prefix(2)) == [.trackingExplained, .trackingRequested(answer: .authorized)])
    }

    @Test("004-4: notice first, the explainer shows after the notice and right before the prompt")
    func noticeFirstExplainsAfterNotice() async {
        let tracking = SimulatedTrackingAuthorization(answer: .denied)
        let explainer = RecordingExplainer(tracking: tracking)
        let (result, notice) = await run(.noticeFirst(tracking: .always).explainingTracking(with: explainer), tracking: tracking)
        #expect(notice.presentations.count == 1)
        #expect(explainer.promptsBefore == [0])
        #expect(result.steps.count == 3)
        #expect(Array(result.steps.suffix(2)) == [.trackingExplained, .trackingRequested(answer: .denied)])
    }

    @Test("004-4, 003-6: never after a denial: ATT denied in an earlier launch, no explainer and no prompt", arguments: [
        ConsentFlowPolicy.Order.trackingFirst, .noticeFirst(tracking: .always),
    ])
    func neverAfterDenial(order: ConsentFlowPolicy.Order) async {
        let tracking = SimulatedTrackingAuthorization(status: .denied)
        let explainer = RecordingExplainer(tracking: tracking)
        let (result, _) = await run(ConsentFlowPolicy(order: order, trackingExplainer: explainer), tracking: tracking)
        #expect(explainer.promptsBefore.isEmpty)
        #expect(!result.steps.contains(.trackingExplained))
        #expect(tracking.requestCount == 0)
    }

    @Test("004-4: no explainer once ATT was answered, is restricted or is unavailable: no prompt follows", arguments: [
        SimulatedTrackingAuthorization(status: .authorized), SimulatedTrackingAuthorization(status: .restricted), .unavailable(),
    ])
    func noExplainerWithoutPrompt(tracking: SimulatedTrackingAuthorization) async {
        let explainer = RecordingExplainer(tracking: tracking)
        _ = await run(.trackingFirst.explainingTracking(with: explainer), tracking: tracking)
        #expect(explainer.promptsBefore.isEmpty)
        #expect(tracking.promptCount == 0)
    }

    @Test("004-4: the explainer shows once across runs, as the prompt does")
    func onceAcrossRuns() async {
        let tracking = SimulatedTrackingAuthorization(answer: .authorized)
        let explainer = RecordingExplainer(tracking: tracking)
        let manager = makeTrackingManager()
        _ = await run(.noticeFirst(tracking: .always).explainingTracking(with: explainer), tracking: tracking, manager: manager)
        _ = await run(.noticeFirst(tracking: .always).explainingTracking(with: explainer), tracking: tracking, manager: manager)
        #expect(explainer.promptsBefore == [0])
        #expect(tracking.promptCount == 1)
    }

    @Test("004-4: under ifAnyPurposeConsented a rejection gets neither the explainer nor the prompt")
    func noExplainerWhenNoPromptFollowsRejection() async {
        let tracking = SimulatedTrackingAuthorization(answer: .authorized)
        let explainer = RecordingExplainer(tracking: tracking)
        _ = await run(.noticeFirst(tracking: .ifAnyPurposeConsented).explainingTracking(with: explainer), tracking: tracking,
                      action: .disagreeToAll)
        #expect(explainer.promptsBefore.isEmpty)
        #expect(tracking.requestCount == 0)
    }
}
