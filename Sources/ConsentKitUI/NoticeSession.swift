import ConsentKit
import Foundation

/// One showing of the notice for a ``ConsentKit/ConsentManager``: the document built from what
/// the manager knows, and the page's messages turned into the manager's decisions. Everything a
/// presenter does but drawing; the iOS presenter is a thin shell around it.
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
    /// What the page is shown.
    public let document: NoticeDocument
    /// The document as the JavaScript literal handed to `ConsentKitNotice.configure`.
    public let documentJSON: String
    /// What the notice covers (the scope the document was built from).
    public let scope: ConsentScope

    /// What a message from the page came to.
    public enum Event: Sendable, Equatable {
        /// The first layer is interactive, `milliseconds` after the document arrived.
        case ready(milliseconds: Double?)
        /// The page refused the document (`code` as in the protocol); it shows nothing.
        case loadFailed(code: String, message: String)
        /// The user decided; `decision` is recorded through the manager.
        case decided(NoticeResult, decision: ConsentState, languageFallback: NoticeDocument.LanguageFallback?)
        /// The user closed the notice without a choice; nothing was written.
        case dismissed
        /// The message was refused; nothing was written.
        case refused(NoticeResultError)
        /// The decision could not be recorded (the manager said why); nothing was written.
        case failed(ConsentKitError)
    }

    /// Builds the document for `request` from the manager's scope, decision, CMP identity and
    /// consentd's ad-tech providers. Custom texts mark the scope as using non-standard texts.
    ///
    /// - Throws: ``NoticeSessionError``: no scope yet (``ConsentKit/ConsentKitError``), or a
    ///   document that cannot be built (``NoticeDocumentError``).
    public init(
        manager: ConsentManager, settings: NoticeSettings, request: NoticeRequest, textsDirectory: URL? = nil
    ) throws(NoticeSessionError) {
        var scope: ConsentScope
        do {
            scope = try manager.scope()
        } catch {
            throw .scope(error)
        }
        if !settings.customTexts.isEmpty { scope = scope.usingNonStandardTexts() }
        do {
            document = try NoticeDocument.build(
                scope: scope, settings: settings, cmp: manager.cmp, current: manager.consent, request: request,
                adTechProviders: manager.appConfig?.adTechProviders ?? [], textsDirectory: textsDirectory)
        } catch {
            throw .document(error)
        }
        self.manager = manager
        self.scope = scope
        self.documentJSON = String(decoding: document.jsonBytes(), as: UTF8.self)
    }

    /// Handles one message from the page (its JSON): a result is checked against the document,
    /// then recorded through the manager as one decision.
    public func receive(_ message: Data) -> Event {
        struct Header: Decodable {
            var type: String?
            var code: String?
            var message: String?
            var renderMs: Double?
        }
        let header = try? JSONDecoder().decode(Header.self, from: message)
        switch header?.type {
        case "ready":
            return .ready(milliseconds: header?.renderMs)
        case "loadError":
            return .loadFailed(code: header?.code ?? "unknown", message: header?.message ?? "")
        default:
            break
        }
        let result: NoticeResult
        do {
            result = try NoticeResult(json: message, document: document)
        } catch {
            return .refused(error)
        }
        do {
            guard let decision = try result.decision(
                document: document, scope: scope, current: manager.consent, at: manager.configuration.now())
            else { return .dismissed }
            // consentd's proof: the two one-click answers as such, any other choice as custom.
            let method: ConsentProof.Method = switch result.action {
            case .acceptAll: .acceptAll
            case .rejectAll: .rejectAll
            default: .custom
            }
            switch (document.mode, result.action) {
            case (.google, .acceptAll):
                try GoogleAdsConsent(manager: manager).record(decision, as: .personalized, method: method)
            case (.google, .nonPersonalized):
                try GoogleAdsConsent(manager: manager).record(decision, as: .nonPersonalized, method: method)
            default:
                try manager.record(decision, method: method)
            }
            return .decided(result, decision: decision, languageFallback: document.languageFallback)
        } catch {
            return .failed(error)
        }
    }
}

/// Why a notice could not be prepared.
public enum NoticeSessionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The manager cannot say what the notice covers yet (no vendor list, or consentd has not
    /// named the publisher's vendors).
    case scope(ConsentKitError)
    /// The document could not be built.
    case document(NoticeDocumentError)

    /// What went wrong.
    public var description: String {
        switch self {
        case .scope(let error): "the notice cannot be shown yet: \(error)"
        case .document(let error): "the notice cannot be shown: \(error)"
        }
    }
}

extension ConsentScope {
    /// The same scope, marked as shown with non-standard texts (`UseNonStandardTexts`).
    func usingNonStandardTexts() -> ConsentScope {
        ConsentScope(
            vendorList: vendorList, vendorIds: vendorIds, publisherPurposes: publisherPurposes,
            publisherLegitimateInterestPurposes: publisherLegitimateInterestPurposes, numCustomPurposes: numCustomPurposes,
            customLegitimateInterestPurposes: customLegitimateInterestPurposes, publisherCC: publisherCC,
            purposeOneTreatment: purposeOneTreatment, useNonStandardTexts: true, publisherRestrictions: publisherRestrictions,
            consentScreen: consentScreen, consentLanguage: consentLanguage, noticeVersion: noticeVersion,
            adTechProviderIds: adTechProviderIds, nonPersonalizedOnly: nonPersonalizedOnly)
    }
}
