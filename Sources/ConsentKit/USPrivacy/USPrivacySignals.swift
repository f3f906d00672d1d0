/// What the CMP knows about a US visitor besides their ``USPrivacyChoice``; each signal opts the
/// visitor out of sale, sharing and targeted advertising whatever the choice says.
public struct USPrivacySignals: Sendable, Equatable {
    /// A Global Privacy Control signal is honoured: the browser sent `Sec-GPC: 1` or has
    /// `navigator.globalPrivacyControl`, or the app says its user turned GPC on
    /// (``ConsentConfiguration/globalPrivacyControl``). Written in the GPC sub-section where the
    /// section has one.
    public var gpc: Bool
    /// The host knows the user is a child (the app's under-age tag): no sale, sharing or
    /// targeting, and no known-child consent.
    public var knownChild: Bool

    /// Signals; none by default.
    public init(gpc: Bool = false, knownChild: Bool = false) {
        self.gpc = gpc
        self.knownChild = knownChild
    }

    /// No signal.
    public static let none = USPrivacySignals()
}
