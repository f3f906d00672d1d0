import ConsentKit

extension NoticeSession.Event {
    /// How the notice ends after this event, as a presenter reports it
    /// (``ConsentKit/NoticeOutcome``); nil while it stays up (``ready(milliseconds:)``).
    ///
    /// The page closes itself once it has sent a result or a load error, so every other event
    /// ends the showing: a decision as ``ConsentKit/NoticeOutcome/decided``, a dismissal as
    /// ``ConsentKit/NoticeOutcome/dismissed``, and a page that refused its document, an answer
    /// the document did not allow, or a choice the manager could not record as
    /// ``ConsentKit/NoticeOutcome/failed(_:)`` (nothing was written), never as a dismissal.
    public var outcome: NoticeOutcome? {
        switch self {
        case .ready: nil
        case .decided, .usDecided: .decided
        case .dismissed: .dismissed
        case .loadFailed(let code, let message): .failed("the notice page refused its document: \(code): \(message)")
        case .refused(let error): .failed("the notice's answer was refused, nothing was recorded: \(error)")
        case .failed(let error): .failed("the choice could not be recorded: \(error)")
        }
    }
}

extension NoticeOutcome {
    /// The outcome of a notice that could not be prepared (``NoticeSession/init(manager:settings:request:textsDirectory:)``
    /// threw): ``ConsentKit/NoticeOutcome/failed(_:)`` with the reason.
    public init(_ error: NoticeSessionError) {
        self = .failed(error.description)
    }
}
