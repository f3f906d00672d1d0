/// The app's own screen that explains why it will ask for tracking, shown by ``ConsentFlow``
/// right before the system's ATT prompt when the policy has one
/// (``ConsentFlowPolicy/explainingTracking(with:)``).
///
/// Apple allows such a message before the prompt as long as it does not imitate the system's
/// alert or reward an answer; it must lead to the prompt, so it offers no way to skip it: the
/// flow requests ATT as soon as ``explainTracking()`` returns. It is never shown once ATT is
/// denied, restricted or answered, or where ATT is unavailable, since no prompt follows then.
public protocol TrackingExplaining: Sendable {
    /// Shows the explainer and returns when the user has read it (taps "Continue").
    @MainActor func explainTracking() async
}
