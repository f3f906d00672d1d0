import ConsentdAPI

/// What a notice's answer was, as the analytics count it (docs/decisions/0039, 0044): a consent
/// event's, derived from the proof's method, which ConsentKit sets from the notice's action
/// (`ConsentProof.Method(_:)` in ConsentKitUI) wherever the choice is made, in an app or on a
/// website; or ``closed``, a notice closed without a choice, which is no event. The raw values
/// are the API's.
public enum ChoiceOutcome: String, Sendable, CaseIterable {
    /// Everything accepted: `acceptAll` (the notice's "Accept all", the US notice's "Continue").
    case acceptAll
    /// Everything refused: `rejectAll` (the notice's "Reject all", the US "Do Not Sell or Share")
    /// and `trackingDenied` (a refusal that follows "Ask App Not to Track").
    case rejectAll
    /// A choice of its own: `custom` (a saved selection, Google's non-personalized ads, the
    /// ad-free version), `sync` (a choice from another device) and `programmatic` (the app's API).
    case custom
    /// The decision taken back: `withdrawal` and `underAge`, events that carry no consent.
    case withdrawn
    /// The notice closed without a choice (its `dismissed` action, docs/notice-protocol.md):
    /// no consent event, never a subject's; only counted (``NoticeClose``, docs/decisions/0044).
    /// No proof method maps to it.
    case closed

    /// The outcome of an event made with `method`.
    public init(_ method: ConsentProof.Method) {
        switch method {
        case .acceptAll: self = .acceptAll
        case .rejectAll, .trackingDenied: self = .rejectAll
        case .custom, .sync, .programmatic: self = .custom
        case .withdrawal, .underAge: self = .withdrawn
        }
    }
}
