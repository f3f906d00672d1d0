/// App Tracking Transparency without a device, for tests (the SDK's and the app's): it answers
/// like the system, prompting at most once.
///
/// The first ``requestAuthorization()`` while the status is
/// ``TrackingAuthorizationStatus/notDetermined`` takes the scripted answer:
/// ``TrackingAuthorizationStatus/authorized`` or ``TrackingAuthorizationStatus/denied`` count as
/// a prompt shown; ``TrackingAuthorizationStatus/restricted`` becomes the status without a
/// prompt; ``TrackingAuthorizationStatus/notDetermined`` shows nothing, as the system does for an
/// app that is not active. Once determined, every request returns the status without prompting.
///
/// ```swift
/// let tracking = SimulatedTrackingAuthorization(answer: .denied)
/// let result = await ConsentFlow(manager: manager, policy: .trackingFirst, tracking: tracking, notice: presenter).run()
/// #expect(tracking.promptCount == 1)
/// ```
public final class SimulatedTrackingAuthorization: TrackingAuthorizing {
    private struct State {
        var status: TrackingAuthorizationStatus
        var answer: TrackingAuthorizationStatus
        var promptCount = 0
        var requestCount = 0
    }

    private let state: Locked<State>

    /// Whether ATT exists on the simulated device.
    public let isAvailable: Bool

    /// A device whose ATT stands at `status` and whose user answers `answer` when prompted.
    public init(status: TrackingAuthorizationStatus = .notDetermined, answer: TrackingAuthorizationStatus = .authorized, isAvailable: Bool = true) {
        state = Locked(State(status: status, answer: answer))
        self.isAvailable = isAvailable
    }

    /// A device without ATT (before iOS 14, or a platform that has none): never prompts.
    public static func unavailable() -> SimulatedTrackingAuthorization {
        SimulatedTrackingAuthorization(isAvailable: false)
    }

    /// The status now.
    public var status: TrackingAuthorizationStatus { state.withLock { $0.status } }

    /// How many times the prompt was shown: 0 or 1.
    public var promptCount: Int { state.withLock { $0.promptCount } }

    /// How many times ``requestAuthorization()`` was called, prompt or not.
    public var requestCount: Int { state.withLock { $0.requestCount } }

    /// Answers like the system: see the type's description.
    public func requestAuthorization() async -> TrackingAuthorizationStatus {
        let available = isAvailable
        return state.withLock { state in
            state.requestCount += 1
            guard available, state.status == .notDetermined else { return state.status }
            switch state.answer {
            case .authorized, .denied:
                state.promptCount += 1
                state.status = state.answer
            case .restricted:
                state.status = .restricted
            case .notDetermined:
                break
            }
            return state.status
        }
    }

    /// Changes the status as the user does in Settings (no prompt): turning tracking off for
    /// the app, for instance.
    public func changeInSettings(to status: TrackingAuthorizationStatus) {
        state.withLock { $0.status = status }
    }
}
