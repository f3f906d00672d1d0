/// In which order ``ConsentFlow`` asks for ATT and shows the consent notice: the two orders
/// Didomi's ATT guide recommends.
public enum ConsentFlowPolicy: Sendable, Equatable {
    /// ATT first; then the notice (when the user should be asked) only if tracking was
    /// authorized or restricted, or ATT is unavailable. A denial records "reject all" instead
    /// of showing the notice: the user is asked once. Didomi's recommended order.
    case trackingFirst
    /// The notice first (when the user should be asked, and not after ATT was denied), then
    /// ATT as `tracking` says. The user can choose differently in each.
    case noticeFirst(tracking: TrackingAfterNotice)
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
