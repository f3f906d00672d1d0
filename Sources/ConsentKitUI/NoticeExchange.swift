import ConsentKit
import ConsentdAPI
import Foundation

/// One showing of the notice, with no manager: the document built from what the host knows,
/// and the page's messages turned into the decision to record, its proof's method and, in
/// Google mode, its Google choice. The app (``NoticeSession``), consentd's demo and its web CMP
/// all show the notice through it, so a choice becomes the same decision on every surface.
///
/// ```swift
/// let exchange = try NoticeExchange(scope: scope, settings: settings, cmp: cmp, current: decision, request: request)
/// // hand exchange.documentJSON to the page; for each message it posts:
/// if case .result(let result) = try exchange.read(message), let choice = try exchange.decide(result, at: Date()) {
///     record(choice.decision, method: choice.method)
/// }
/// ```
public struct NoticeExchange: Sendable {
    /// What the notice covers (marked as using non-standard texts when the settings modify a
    /// stack description or illustrations: ``NoticeSettings/usesNonStandardTexts``).
    public let scope: ConsentScope
    /// What the page is shown.
    public let document: NoticeDocument
    /// The decision the notice opens on (the user's present choices), if any.
    public let current: ConsentState?

    /// Builds the document for `request`: `scope`'s vendors with `settings`, `cmp`'s identity,
    /// the user's `current` decision and the publisher's `adTechProviders`. Modified stack
    /// descriptions or illustrations mark the scope as using non-standard texts; UI texts do not.
    ///
    /// - Throws: ``NoticeDocumentError`` when the document cannot be built.
    public init(
        scope: ConsentScope, settings: NoticeSettings, cmp: CMPIdentity, current: ConsentState?, request: NoticeRequest,
        adTechProviders: [AppConfig.AdTechProvider] = [], textsDirectory: URL? = nil
    ) throws(NoticeDocumentError) {
        let scope = settings.usesNonStandardTexts ? scope.usingNonStandardTexts() : scope
        self.document = try NoticeDocument.build(
            scope: scope, settings: settings, cmp: cmp, current: current, request: request, adTechProviders: adTechProviders,
            textsDirectory: textsDirectory)
        self.scope = scope
        self.current = current
    }

    /// The document as the JavaScript literal handed to `ConsentKitNotice.configure`.
    public var documentJSON: String { String(decoding: document.jsonBytes(), as: UTF8.self) }

    /// The proof content of the notice: the SHA-256 of ``documentJSON``, the document the user
    /// is shown (`ConsentProof.hash(ofDocument:)`), which every decision made on
    /// it is recorded with.
    public var documentHash: String { ConsentProof.hash(ofDocument: document.jsonBytes()) }

    /// A message from the page.
    public enum Message: Sendable, Equatable {
        /// The first layer is interactive, `milliseconds` after the document arrived.
        case ready(milliseconds: Double?)
        /// The page refused the document (`code` as in the protocol); it shows nothing.
        case loadFailed(code: String, message: String)
        /// The user's answer, checked against the document.
        case result(NoticeResult)
    }

    /// Reads one message from the page (its JSON); a result is checked against the document.
    ///
    /// - Throws: ``NoticeResultError`` for a result the document does not allow.
    public func read(_ message: Data) throws(NoticeResultError) -> Message {
        try Self.read(message, document: document)
    }

    /// Reads one message from the page showing `document` (any mode, the US notice's too).
    ///
    /// - Throws: ``NoticeResultError`` for a result the document does not allow.
    public static func read(_ message: Data, document: NoticeDocument) throws(NoticeResultError) -> Message {
        struct Header: Decodable {
            var type: String?
            var code: String?
            var message: String?
            var renderMs: Double?
        }
        let header = try? JSONDecoder().decode(Header.self, from: message)
        switch header?.type {
        case "ready": return .ready(milliseconds: header?.renderMs)
        case "loadError": return .loadFailed(code: header?.code ?? "unknown", message: header?.message ?? "")
        default: return .result(try NoticeResult(json: message, document: document))
        }
    }

    /// What a result comes to: the decision to record and how.
    public struct Choice: Sendable, Equatable {
        /// The page's result.
        public var result: NoticeResult
        /// The decision it records.
        public var decision: ConsentState
        /// The proof's method (``ConsentKit/ConsentProof/Method/init(_:)``).
        public var method: ConsentProof.Method
        /// In Google mode, the Google status the choice asked for ("Consent" personalized,
        /// "Do not consent" non-personalized), which the decision reaches; nil in TCF mode and
        /// for the ad-free version.
        public var googleStatus: GoogleConsentStatus?
        /// The Google choice the decision records (``ConsentKit/GoogleAdsChoice/init(_:status:)``).
        public var googleAdsChoice: GoogleAdsChoice?
    }

    /// The decision `result` records, made at `date`; nil when the notice was closed without a
    /// choice. In Google mode, a choice whose decision does not reach the status asked for
    /// (Google not among the vendors, or only non-personalized ads served) is refused.
    ///
    /// - Throws: ``ConsentKit/ConsentKitError/change(_:)`` for ids out of TCF's ranges,
    ///   ``ConsentKit/ConsentKitError/googleStatusUnreachable(requested:reached:)`` as above.
    public func decide(_ result: NoticeResult, at date: Date) throws(ConsentKitError) -> Choice? {
        guard let decision = try result.decision(document: document, scope: scope, current: current, at: date) else { return nil }
        let reached = GoogleConsentStatus.of(decision, config: nil, gdprApplies: .applies)
        // Google's "Yes" and "No" (the form, layer 1); the TCF layers behind "Manage options" ask for no status.
        let requested: GoogleConsentStatus? = switch (document.mode, result.action, result.layer) {
        case (.google, .acceptAll, 1): .personalized
        case (.google, .nonPersonalized, _): .nonPersonalized
        default: nil
        }
        if let requested, requested != reached {
            throw .googleStatusUnreachable(requested: requested.rawValue, reached: reached.rawValue)
        }
        return Choice(
            result: result, decision: decision, method: ConsentProof.Method(result.action), googleStatus: requested,
            googleAdsChoice: GoogleAdsChoice(decision, status: reached))
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
