import ConsentKit
import Foundation

/// One showing of the notice for a ``ConsentKit/ConsentManager``: a ``NoticeExchange`` built
/// from what the manager knows, whose decisions are recorded through the manager (Google mode's
/// through ``ConsentKit/GoogleAdsConsent/record(_:as:method:)``); where the US rules decide
/// (``ConsentKit/ConsentManager/followsUSPrivacyRules``), the US notice at collection, whose
/// answer is recorded with ``ConsentKit/ConsentManager/recordUSChoice(_:method:documentHash:)``. The iOS presenter is
/// a thin shell around it.
///
/// ```swift
/// let session = try NoticeSession(manager: consent, settings: settings, request: request)
/// webView.evaluateJavaScript("ConsentKitNotice.configure(\(session.documentJSON))")
/// // for each message the page posts:
/// switch session.receive(messageData) { case .decided, .dismissed: close(); default: break }
/// ```
public final class NoticeSession: Sendable {
    /// The manager decisions are recorded through.
    public let manager: ConsentManager
    /// The TCF notice or Google's form shown, with no manager; nil for the US notice.
    public let exchange: NoticeExchange?
    /// The document as the JavaScript literal handed to `ConsentKitNotice.configure`.
    public let documentJSON: String
    /// The SHA-256 of ``documentJSON``, the document the user is shown: the proof content
    /// (`documentHash`) every decision of this notice is recorded with
    /// (``NoticeExchange/documentHash``).
    ///
    /// Worked out on another thread from the moment the session is made (about 1.8 ms for the
    /// 468 KB of 813 vendors, a third of building the session), so that it is not on the way to
    /// showing the notice; reading it waits for it, which by the time a user has answered is long done.
    public var documentHash: String { hashing.value }
    private let hashing: Background<String>
    /// What the page is shown.
    public let document: NoticeDocument
    /// What the notice covers (the scope the document was built from); nil for the US notice.
    public var scope: ConsentScope? { exchange?.scope }

    /// What a message from the page came to.
    public enum Event: Sendable, Equatable {
        /// The first layer is interactive, `milliseconds` after the document arrived.
        case ready(milliseconds: Double?)
        /// The page refused the document (`code` as in the protocol); it shows nothing.
        case loadFailed(code: String, message: String)
        /// The user decided; `decision` is recorded through the manager.
        case decided(NoticeResult, decision: ConsentState, languageFallback: NoticeDocument.LanguageFallback?)
        /// The user answered the US notice; `choice` is recorded through the manager.
        case usDecided(NoticeResult, choice: USPrivacyChoice)
        /// The user closed the notice without a choice; nothing was written.
        case dismissed
        /// The message was refused; nothing was written.
        case refused(NoticeResultError)
        /// The decision could not be recorded (the manager said why); nothing was written.
        case failed(ConsentKitError)
    }

    /// Builds the document for `request` from the manager's scope, decision, CMP identity and
    /// consentd's ad-tech providers. Modified stack descriptions or illustrations mark the scope
    /// as using non-standard texts (``NoticeSettings/usesNonStandardTexts``); UI texts do not.
    /// Google's form is built only where Google's would load
    /// (``ConsentKit/GoogleAdsConsent/checkConsentFormCanLoad()``).
    ///
    /// When consentd's answer (``ConsentKit/ConsentManager/appConfig``) carries the notice's
    /// options as published in the console (``ConsentKit/AppConfig/NoticeVersions/options``), the
    /// notice is built from them over `settings`
    /// (``NoticeSettings/applying(_:language:)`` says which fields win): the publisher's texts,
    /// brand, layout and languages reach the app without a release. Where the notice is shown in
    /// English because the language chosen cannot be shown whole, the publisher's English texts
    /// are used. The notice version decisions are recorded under stays
    /// ``ConsentKit/ConsentConfiguration/noticeVersion``, which the app sets from the same answer.
    ///
    /// - Throws: ``NoticeSessionError``: Google's form where it may not load
    ///   (``ConsentKit/GoogleAdsConsent/checkConsentFormCanLoad()``: GDPR does not apply, or the user
    ///   is tagged under the age of consent), no scope yet (``ConsentKit/ConsentKitError``), or a
    ///   document that cannot be built (``NoticeDocumentError``).
    public init(
        manager: ConsentManager, settings: NoticeSettings, request: NoticeRequest, textsDirectory: URL? = nil
    ) throws(NoticeSessionError) {
        self.manager = manager
        let published = manager.appConfig?.notice?.options
        let settings = published.map { settings.applying($0, language: settings.language ?? manager.configuration.consentLanguage) } ?? settings
        // The publisher's texts in the language the document is in, when the build fell back to English.
        func inShownLanguage(_ language: String) -> NoticeSettings? {
            guard let published, language != settings.language else { return nil }
            var shown = settings
            shown.customTexts = published.texts[language] ?? [:]
            return shown
        }
        if settings.mode == .us || manager.followsUSPrivacyRules {
            func build(_ settings: NoticeSettings) throws(NoticeSessionError) -> NoticeDocument {
                do {
                    return try NoticeDocument.build(
                        us: manager.usApplicability, subdivision: manager.appConfig?.subdivision, signals: manager.usPrivacySignals,
                        current: manager.usPrivacyChoice, settings: settings, cmp: manager.cmp,
                        noticeVersion: manager.configuration.noticeVersion, language: manager.configuration.consentLanguage,
                        request: request, textsDirectory: textsDirectory)
                } catch {
                    throw .document(error)
                }
            }
            var document = try build(settings)
            if let shown = inShownLanguage(document.language) { document = try build(shown) }
            self.document = document
            self.exchange = nil
            (documentJSON, hashing) = Self.written(document)
            return
        }
        if settings.mode == .google {
            do throws(GoogleConsentError) {
                try GoogleAdsConsent(manager: manager).checkConsentFormCanLoad()
            } catch {
                throw .googleFormRefused(error)
            }
        }
        let scope: ConsentScope
        do {
            scope = try manager.scope()
        } catch {
            throw .scope(error)
        }
        func makeExchange(_ settings: NoticeSettings) throws(NoticeSessionError) -> NoticeExchange {
            do {
                return try NoticeExchange(
                    scope: scope, settings: settings, cmp: manager.cmp, current: manager.consent, request: request,
                    adTechProviders: manager.appConfig?.adTechProviders ?? [], textsDirectory: textsDirectory)
            } catch {
                throw .document(error)
            }
        }
        var exchange = try makeExchange(settings)
        if let shown = inShownLanguage(exchange.document.language) { exchange = try makeExchange(shown) }
        self.exchange = exchange
        self.document = exchange.document
        (documentJSON, hashing) = Self.written(exchange.document)
    }

    /// The document's JSON and its proof hash (begun on another thread), from one serialization
    /// (the 813 vendors' document is 468 KB; writing it a second time for the hash was a sixth of
    /// building the session).
    private static func written(_ document: NoticeDocument) -> (json: String, hash: Background<String>) {
        let bytes = document.jsonBytes()
        return (String(decoding: bytes, as: UTF8.self), Background { ConsentProof.hash(ofDocument: bytes) })
    }

    /// Handles one message from the page (its JSON): a result is checked against the document,
    /// then recorded through the manager as one decision.
    public func receive(_ message: Data) -> Event {
        let read: NoticeExchange.Message
        do {
            read = try NoticeExchange.read(message, document: document)
        } catch {
            return .refused(error)
        }
        switch read {
        case .ready(let milliseconds):
            return .ready(milliseconds: milliseconds)
        case .loadFailed(let code, let message):
            return .loadFailed(code: code, message: message)
        case .result(let result):
            guard let exchange else { return recordUS(result) }
            do {
                guard let choice = try exchange.decide(result, at: manager.configuration.now()) else { return closed(result) }
                if let status = choice.googleStatus {
                    try GoogleAdsConsent(manager: manager).record(choice.decision, as: status, method: choice.method, documentHash: documentHash)
                } else {
                    try manager.record(choice.decision, method: choice.method, documentHash: documentHash)
                }
                return .decided(result, decision: choice.decision, languageFallback: document.languageFallback)
            } catch {
                return .failed(error)
            }
        }
    }

    /// A result that decides nothing: nothing is recorded, and when the notice was closed
    /// (`dismissed`) consentd counts it (``ConsentManager/noticeClosedWithoutChoice(noticeVersion:language:)``,
    /// in the background, when sync is on).
    private func closed(_ result: NoticeResult) -> Event {
        if result.action == .dismissed {
            manager.noticeClosedWithoutChoice(noticeVersion: document.noticeVersion, language: document.language)
        }
        return .dismissed
    }

    /// Records the US notice's answer through the manager: the user's own (``NoticeResult/usOwnChoice(at:)``),
    /// over which the manager applies GPC and a known child while they last, so that turning the
    /// app's GPC off gives back what the user chose (decision record 0046).
    private func recordUS(_ result: NoticeResult) -> Event {
        guard let choice = result.usOwnChoice(at: manager.configuration.now()) else { return closed(result) }
        do {
            try manager.recordUSChoice(choice, method: ConsentProof.Method(result.action), documentHash: documentHash)
        } catch {
            return .failed(error)
        }
        return .usDecided(result, choice: choice)
    }
}

/// Why a notice could not be prepared.
public enum NoticeSessionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The manager cannot say what the notice covers yet (no vendor list, or consentd has not
    /// named the publisher's vendors).
    case scope(ConsentKitError)
    /// The document could not be built.
    case document(NoticeDocumentError)
    /// Google's form may not load for this user, as Google's did not: GDPR does not apply where
    /// the user is (``ConsentKit/GoogleConsentError/notInEEA``), or the user is tagged under the
    /// age of consent (``ConsentKit/GoogleConsentError/taggedUnderAgeOfConsent``).
    case googleFormRefused(GoogleConsentError)

    /// What went wrong.
    public var description: String {
        switch self {
        case .googleFormRefused(let error): "Google's consent form cannot be shown: \(error)"
        case .scope(let error): "the notice cannot be shown yet: \(error)"
        case .document(let error): "the notice cannot be shown: \(error)"
        }
    }
}

/// A value worked out on a global dispatch queue from the moment it is made; ``value`` waits for
/// it. Not on Swift concurrency's threads: ``value`` blocks the thread that reads it, which must
/// never be one the work is waiting for.
private final class Background<Value: Sendable>: Sendable {
    private let done = DispatchGroup()
    private let result = Locked<Value?>(nil)

    init(_ work: @escaping @Sendable () -> Value) {
        done.enter()
        DispatchQueue.global(qos: .userInitiated).async { [done, result] in
            let value = work()
            result.withLock { $0 = value }
            done.leave()
        }
    }

    /// The value, once the work is done.
    var value: Value {
        done.wait()
        return result.withLock { $0! }
    }
}
