/// What a run of ``ConsentFlow`` did, in order, and where it ended.
public struct ConsentFlowResult: Sendable, Equatable {
    /// A step the flow took.
    public enum Step: Sendable, Equatable {
        /// The policy's explainer (``ConsentFlowPolicy/trackingExplainer``) was shown; the ATT
        /// prompt came next.
        case trackingExplained
        /// ATT was requested (its status was not determined) and answered this.
        case trackingRequested(answer: TrackingAuthorizationStatus)
        /// The notice was shown with this request and ended with this outcome.
        case noticePresented(NoticeRequest, NoticeOutcome)
        /// The manager said to ask, but ATT is denied: by Apple's rule the notice was not shown.
        case noticeWithheld
        /// "Reject all" was recorded because ATT is denied (``ConsentFlowPolicy/trackingFirst``),
        /// with the proof method `trackingDenied`.
        case disagreedToAll
    }

    /// Why a run stopped short.
    public enum Problem: Sendable, Equatable {
        /// The notice had to end with a choice (ATT could still follow) and ended without one
        /// recorded: nothing was recorded for the user and ATT was not requested. Running the
        /// flow again shows the notice again.
        case noticeEndedWithoutChoice(NoticeOutcome)
        /// Recording "reject all" failed.
        case decisionFailed(ConsentKitError)
        /// The notice could not be built (``ConsentManager/scope()`` threw: no vendor list held,
        /// or the publisher's vendors not yet known), so it was not shown; ATT followed as after
        /// a notice that ended without a decision. A later run shows the notice once it can be
        /// built.
        case noticeUnavailable(ConsentKitError)
    }

    /// The steps, in the order taken.
    public var steps: [Step]
    /// The manager's verdict the flow acted on. ``AskRules/Verdict/regionUnknown`` under
    /// ``ConsentFlowPolicy/noticeFirst(tracking:)`` means nothing was done: run the flow again
    /// once the region is decided.
    public var verdict: AskRules.Verdict
    /// The ATT status at the end; nil when ATT is unavailable.
    public var trackingStatus: TrackingAuthorizationStatus?
    /// Whether a decision was recorded during the run (by the notice, or "reject all").
    public var decisionRecorded: Bool
    /// Set when the run stopped short.
    public var problem: Problem?

    /// A result.
    public init(steps: [Step] = [], verdict: AskRules.Verdict, trackingStatus: TrackingAuthorizationStatus?, decisionRecorded: Bool = false, problem: Problem? = nil) {
        self.steps = steps
        self.verdict = verdict
        self.trackingStatus = trackingStatus
        self.decisionRecorded = decisionRecorded
        self.problem = problem
    }

    /// Whether the notice was shown.
    public var noticePresented: Bool {
        steps.contains { if case .noticePresented = $0 { true } else { false } }
    }

    /// Whether ATT was requested.
    public var trackingRequested: Bool {
        steps.contains { if case .trackingRequested = $0 { true } else { false } }
    }
}
