/// In which order ``ConsentFlow`` asks for ATT and shows the consent notice (the two orders
/// Didomi's ATT guide recommends), and whether the app's own explainer comes before the ATT
/// prompt (IOLib's advice: explain the reason before asking).
public struct ConsentFlowPolicy: Sendable {
    /// The order of ATT and the notice.
    public enum Order: Sendable, Equatable {
        /// ATT first; then the notice (when the user should be asked) only if tracking was
        /// authorized or restricted, or ATT is unavailable. A denial records "reject all"
        /// instead of showing the notice: the user is asked once.
        case trackingFirst
        /// The notice first (when the user should be asked, and not after ATT was denied), then
        /// ATT as the value says.
        case noticeFirst(tracking: TrackingAfterNotice)
    }

    /// The order of ATT and the notice.
    public var order: Order
    /// The app's explainer, shown right before every ATT prompt the flow requests (never when
    /// none follows: not once ATT is denied, restricted or answered, nor where ATT is
    /// unavailable); nil: none.
    public var trackingExplainer: (any TrackingExplaining)?

    /// A policy: `order`, and `trackingExplainer` before the ATT prompt when given.
    public init(order: Order, trackingExplainer: (any TrackingExplaining)? = nil) {
        self.order = order
        self.trackingExplainer = trackingExplainer
    }

    /// ATT first; then the notice (when the user should be asked) only if tracking was
    /// authorized or restricted, or ATT is unavailable. A denial records "reject all" instead
    /// of showing the notice (proof method `trackingDenied`): the user is asked once. Didomi's
    /// recommended order.
    public static var trackingFirst: ConsentFlowPolicy { ConsentFlowPolicy(order: .trackingFirst) }

    /// The notice first (when the user should be asked, and not after ATT was denied), then
    /// ATT as `tracking` says. The user can choose differently in each.
    public static func noticeFirst(tracking: TrackingAfterNotice) -> ConsentFlowPolicy {
        ConsentFlowPolicy(order: .noticeFirst(tracking: tracking))
    }

    /// The same policy, with `explainer` shown right before the ATT prompt.
    public func explainingTracking(with explainer: any TrackingExplaining) -> ConsentFlowPolicy {
        ConsentFlowPolicy(order: order, trackingExplainer: explainer)
    }
}

/// When ATT follows the notice in ``ConsentFlowPolicy/noticeFirst(tracking:)``.
public enum TrackingAfterNotice: Sendable, Equatable {
    /// Always, whatever the user chose: Apple's guideline for a message shown before the prompt.
    case always
    /// Only if the held decision consents to at least one TCF purpose
    /// (``ConsentState/purposeConsents``); where GDPR does not apply, and no notice is shown,
    /// always.
    case ifAnyPurposeConsented
}
