/// Asks for App Tracking Transparency and shows the consent notice in the order a
/// ``ConsentFlowPolicy`` sets, keeping Apple's rules in every policy:
///
/// - The notice is never shown once ATT is denied, in this run or an earlier launch: Apple
///   reads a notice after a denial as asking the user to reconsider.
/// - A notice shown while the ATT prompt may still follow (status not determined) cannot be
///   dismissed without a choice (``NoticeRequest/allowsDismissal`` is false), and the flow
///   checks that the manager recorded one before it requests ATT. When none was recorded it
///   records nothing, does not request ATT, and reports
///   ``ConsentFlowResult/Problem/noticeEndedWithoutChoice(_:)``; the next run shows the notice again.
/// - A notice that cannot be built (no vendor list held, or the publisher's vendors not known:
///   a first launch offline without a bundled snapshot) is not shown and does not hold ATT back
///   launch after launch: the flow reports ``ConsentFlowResult/Problem/noticeUnavailable(_:)``
///   and goes on as after a notice ended without a decision (under
///   ``TrackingAfterNotice/always`` ATT is requested; under
///   ``TrackingAfterNotice/ifAnyPurposeConsented`` it waits for a consent). The notice shows on a
///   later run, once it can be built, unless ATT was denied meanwhile.
/// - The policy's explainer (``ConsentFlowPolicy/trackingExplainer``) is shown right before the
///   ATT prompt, only when the prompt follows.
/// - After a denial in ``ConsentFlowPolicy/trackingFirst`` the refusal is recorded with the
///   proof method `trackingDenied` and the notice id
///   ``ConsentSyncSettings/trackingPromptNoticeId``: no notice was
///   shown, so none is named.
///
/// The notice is shown only when ``ConsentManager/askVerdict()`` says to ask. ATT is requested
/// only while its status is not determined, so a run on every launch prompts once at most.
/// The flow first awaits the refresh the manager's `start()` began
/// (``ConsentManager/refreshed()``), so the region is decided when it asks. Run it one run at a
/// time, and while the app is active: the system shows no ATT prompt to an inactive app (at
/// launch, before the first scene is active) and answers "not determined".
///
/// ```swift
/// import ConsentKitAppTracking   // the system's ATT; without it, pass tracking: yourself
///
/// let flow = ConsentFlow(manager: manager, policy: .noticeFirst(tracking: .always), notice: noticePresenter)
/// let result = await flow.run()
/// ```
public struct ConsentFlow: Sendable {
    /// The manager that says whether to ask and records decisions.
    public let manager: ConsentManager
    /// The order of ATT and the notice.
    public let policy: ConsentFlowPolicy
    /// App Tracking Transparency.
    public let tracking: any TrackingAuthorizing
    /// The notice.
    public let notice: any NoticePresenting

    /// A flow asking ATT through `tracking`: `SystemTrackingAuthorization` (the app links
    /// `ConsentKitAppTracking`, which also has this initializer without `tracking:`) or
    /// ``SimulatedTrackingAuthorization``.
    public init(
        manager: ConsentManager, policy: ConsentFlowPolicy, tracking: any TrackingAuthorizing,
        notice: any NoticePresenting
    ) {
        self.manager = manager
        self.policy = policy
        self.tracking = tracking
        self.notice = notice
    }

    /// Runs the policy once and says what happened.
    public func run() async -> ConsentFlowResult {
        await manager.refreshed()
        return switch policy.order {
        case .trackingFirst: await trackingFirst()
        case .noticeFirst(let after): await noticeFirst(then: after)
        }
    }

    /// ATT; then the notice unless denied; on denial, "reject all" where the user should be asked.
    private func trackingFirst() async -> ConsentFlowResult {
        var steps: [ConsentFlowResult.Step] = []
        let status = await requestTrackingIfUndetermined(&steps)
        let verdict = manager.askVerdict()
        var result = ConsentFlowResult(steps: steps, verdict: verdict, trackingStatus: status)
        guard verdict.shouldAsk else { return result }
        if status == .denied {
            result.steps.append(.noticeWithheld)
            do {
                // Recorded as what it is: a refusal after the ATT prompt, no notice shown (N4).
                try manager.record(.disagreeToAll(scope: try manager.scope(), at: manager.configuration.now()), method: .trackingDenied)
                result.steps.append(.disagreedToAll)
                result.decisionRecorded = true
            } catch {
                result.problem = .decisionFailed(error)
            }
            return result
        }
        _ = await presentNotice(verdict, trackingStatus: status, into: &result)
        return result
    }

    /// The notice unless ATT is denied; then ATT as `after` says, once the notice ended with a
    /// choice where one was required.
    private func noticeFirst(then after: TrackingAfterNotice) async -> ConsentFlowResult {
        let verdict = manager.askVerdict()
        var result = ConsentFlowResult(verdict: verdict, trackingStatus: currentTrackingStatus)
        // Not known whether a notice is due: requesting ATT now could put it before the notice.
        if verdict == .regionUnknown { return result }
        if verdict.shouldAsk {
            if result.trackingStatus == .denied {
                result.steps.append(.noticeWithheld)
                return result
            }
            do {
                _ = try manager.scope()
                guard await presentNotice(verdict, trackingStatus: result.trackingStatus, into: &result) else { return result }
            } catch {
                // Nothing to show (N7): report it, and let ATT follow as after a notice without a decision.
                result.problem = .noticeUnavailable(error)
            }
        }
        if after == .ifAnyPurposeConsented, verdict != .gdprDoesNotApply, manager.consent?.purposeConsents.isEmpty ?? true {
            return result
        }
        result.trackingStatus = await requestTrackingIfUndetermined(&result.steps)
        return result
    }

    /// The ATT status now; nil when ATT is unavailable.
    private var currentTrackingStatus: TrackingAuthorizationStatus? {
        tracking.isAvailable ? tracking.status : nil
    }

    /// Requests ATT while its status is not determined, and returns the status afterwards.
    private func requestTrackingIfUndetermined(_ steps: inout [ConsentFlowResult.Step]) async -> TrackingAuthorizationStatus? {
        guard let status = currentTrackingStatus, status == .notDetermined else { return currentTrackingStatus }
        if let explainer = policy.trackingExplainer {
            await explainer.explainTracking()
            steps.append(.trackingExplained)
        }
        let answer = await tracking.requestAuthorization()
        steps.append(.trackingRequested(answer: answer))
        return answer
    }

    /// Shows the notice; dismissal is allowed only when no ATT prompt can follow. Returns false
    /// when a required choice was not recorded (and sets the problem).
    private func presentNotice(
        _ verdict: AskRules.Verdict, trackingStatus: TrackingAuthorizationStatus?, into result: inout ConsentFlowResult
    ) async -> Bool {
        let request = NoticeRequest(reason: verdict, allowsDismissal: trackingStatus != .notDetermined)
        // A choice counts when the manager records one while the notice is up, whatever the
        // presenter says.
        let commits = manager.commitCount
        let outcome = await notice.present(request)
        let choiceRecorded = manager.commitCount != commits && manager.consent != nil
        result.steps.append(.noticePresented(request, outcome))
        if choiceRecorded { result.decisionRecorded = true }
        if !request.allowsDismissal && !choiceRecorded {
            result.problem = .noticeEndedWithoutChoice(outcome)
            return false
        }
        return true
    }
}
