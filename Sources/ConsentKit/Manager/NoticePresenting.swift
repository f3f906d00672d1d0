/// Shows the consent notice for ``ConsentFlow`` and ``ConsentManager/presentPrivacyOptions(with:)``:
/// the app's notice UI, or a test double.
///
/// The presenter records the user's choice through the ``ConsentManager`` (``ConsentManager/agreeToAll()``,
/// ``ConsentManager/disagreeToAll()``, ``ConsentManager/update(_:)``) before it returns
/// ``NoticeOutcome/decided``. When ``NoticeRequest/allowsDismissal`` is false it must offer no
/// way to close the notice without a choice.
public protocol NoticePresenting: Sendable {
    /// Shows the notice and returns when it is gone.
    @MainActor func present(_ request: NoticeRequest) async -> NoticeOutcome
}

/// What ``ConsentFlow`` asks of the notice.
public struct NoticeRequest: Sendable, Equatable {
    /// Why the user is asked (never a verdict that says not to ask).
    public var reason: AskRules.Verdict
    /// Whether the notice may be closed without a choice. False while the ATT prompt may still
    /// follow (its status is not determined): Apple rejects apps whose message before the
    /// prompt can be put off.
    public var allowsDismissal: Bool

    /// Whether the user opened the notice (the app's "Privacy settings" entry,
    /// ``ConsentManager/presentPrivacyOptions(with:)``) rather than the rules asking: the notice
    /// then opens on the user's present choices.
    public var isUserInitiated: Bool

    /// A request.
    public init(reason: AskRules.Verdict, allowsDismissal: Bool, isUserInitiated: Bool = false) {
        self.reason = reason
        self.allowsDismissal = allowsDismissal
        self.isUserInitiated = isUserInitiated
    }
}

/// How the notice ended, as its presenter reports it.
public enum NoticeOutcome: Sendable, Equatable {
    /// The user made a choice, and the presenter recorded it through the manager.
    case decided
    /// The user closed the notice without a choice.
    case dismissed
    /// The notice could not be shown, or its answer could not be recorded: nothing was
    /// written. The reason is for the developer (the presenter also logs it): no scope yet (no
    /// vendor list offline), a document that cannot be built, Google's form where GDPR does not
    /// apply or for a user under the age of consent, a page that did not load or refused its
    /// document. Google's `load(completionHandler:)` reported these as its error.
    case failed(String)
}
