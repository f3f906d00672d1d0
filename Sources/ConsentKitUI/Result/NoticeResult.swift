import Foundation
import TCF

/// The page's answer: what the user did on the notice, checked against the document it was
/// shown (`docs/notice-protocol.md`, protocol 1). Make one with ``init(json:document:)``, which
/// refuses anything the document did not offer; ``decision(scope:current:at:)`` turns it into
/// the decision to record.
public struct NoticeResult: Sendable, Equatable {
    /// What the user did.
    public enum Action: String, Sendable, Equatable, Codable, CaseIterable {
        /// Everything the notice shows (Google's form, layer 1: personalized ads, every purpose,
        /// vendor and ad-tech provider, no special feature; decision record 0017).
        case acceptAll
        /// No consent, no opt-in, an objection to every legitimate interest (Google's form: "Do
        /// not consent").
        case rejectAll
        /// Exactly the choices made on the second layer (in Google mode, behind "Manage options").
        case save
        /// Google's form: non-personalized ads.
        case nonPersonalized
        /// The user will pay for the ad-free version: no positive signal is written.
        case adFree
        /// Closed without a choice.
        case dismissed
        /// US mode: "Continue" on the notice at collection: no opt-out (but what GPC or a known
        /// child force).
        case acknowledged
        /// US mode: "Do Not Sell or Share My Personal Information": the three opt-outs on, the
        /// sensitive-data limit as it was.
        case optOut
    }

    /// The action.
    public let action: Action
    /// Where the choice was made: 1 the first layer, 2 purposes, 3 vendors, 4 legitimate
    /// interest (recorded as `ConsentScreen`).
    public let layer: Int
    /// The notice's language.
    public let language: String
    /// The notice version shown.
    public let noticeVersion: Int
    /// The choices of ``Action/save``.
    public let choices: NoticeChoices?
    /// In US mode, the opt-outs the result records, the host's rules applied: ``Action/acknowledged``
    /// none, ``Action/optOut`` sale, sharing and targeted advertising (both keeping the
    /// sensitive-data limit as the document's `current` had it), ``Action/save`` the choices; with GPC or a known child
    /// (``NoticeDocument/US``) the three opt-outs on whatever the page said. Nil outside US mode
    /// and for ``Action/dismissed``. ``usChoice(at:)`` makes the choice to keep.
    public let us: USNoticeChoices?
    /// In US mode, the opt-outs as the user gave them, before GPC or a known child forced any:
    /// ``us`` without the forcing. Where the signal locked the three switches on (``Action/save``
    /// with GPC or a known child) the user changed none of them: they stay as the document's
    /// `current` had them (none opted out without one). What a host keeps as the user's own
    /// answer, so that the signal's end gives it back (decision record 0046); ``usOwnChoice(at:)``
    /// makes it a choice. Nil where ``us`` is.
    public let usOwn: USNoticeChoices?
    /// Milliseconds from the document's arrival to the first layer being interactive, and to the choice.
    public let shownMilliseconds: Double?
    /// Milliseconds from the document's arrival to the choice.
    public let decidedMilliseconds: Double?

    private struct Wire: Decodable {
        var `protocol`: Int?
        var type: String?
        var action: String?
        var layer: Int?
        var language: String?
        var noticeVersion: Int?
        var choices: NoticeChoices?
        var timings: Timings?
        struct Timings: Decodable {
            var shownMs: Double?
            var decidedMs: Double?
        }
    }

    /// Decodes the page's result message and checks it against `document`.
    ///
    /// - Throws: ``NoticeResultError``; nothing is recorded for a refused result.
    public init(json: Data, document: NoticeDocument) throws(NoticeResultError) {
        let wire: Wire
        do {
            wire = try JSONDecoder().decode(Wire.self, from: json)
        } catch {
            throw .malformed(Self.describe(error))
        }
        guard let version = wire.protocol else { throw .malformed("no protocol version") }
        guard version == NoticeDocument.protocolVersion else { throw .unsupportedProtocol(version) }
        guard wire.type == "result" else { throw .notAResult(wire.type ?? "none") }
        guard let name = wire.action else { throw .malformed("no action") }
        guard let action = Action(rawValue: name) else { throw .unknownAction(name) }
        guard let layer = wire.layer else { throw .malformed("no layer") }
        guard (1...(document.mode == .us ? 2 : 4)).contains(layer) else { throw .layerOutOfRange(layer) }
        guard let language = wire.language else { throw .malformed("no language") }
        guard language == document.language else { throw .languageMismatch(shown: document.language, answered: language) }
        guard let noticeVersion = wire.noticeVersion else { throw .malformed("no noticeVersion") }
        guard noticeVersion == document.noticeVersion else {
            throw .noticeVersionMismatch(shown: document.noticeVersion, answered: noticeVersion)
        }
        // US mode offers acknowledged, optOut, save and dismissed; the other modes never the first two.
        let usAction = [.acknowledged, .optOut].contains(action)
        if document.mode == .us ? !usAction && action != .save && action != .dismissed : usAction {
            throw .actionNotOffered(action)
        }
        switch action {
        case .nonPersonalized where document.google?.nonPersonalizedOffered != true:
            throw .actionNotOffered(action)
        case .adFree where !document.adFree.offered:
            throw .actionNotOffered(action)
        case .dismissed where !document.allowsDismissal:
            throw .actionNotOffered(action)
        case .acceptAll where document.mode == .google && layer == 1 && document.google?.personalizedOffered != true:
            throw .actionNotOffered(action)
        case .rejectAll where document.mode == .google && layer == 1 && document.google?.refusalOffered != true:
            throw .actionNotOffered(action)
        default:
            break
        }
        if action == .save, let us = document.us {
            guard let chosen = wire.choices?.us else { throw .choicesMissing }
            if chosen.sensitiveDataLimited, !us.limitSensitive { throw .sensitiveDataLimitNotOffered }
        } else if action == .save {
            guard let choices = wire.choices else { throw .choicesMissing }
            guard choices.us == nil else { throw .usChoicesOutsideUSMode }
            try Self.check(choices, against: document)
        } else if wire.choices != nil {
            throw .choicesNotExpected(action)
        }
        self.action = action
        self.layer = layer
        self.language = language
        self.noticeVersion = noticeVersion
        self.choices = wire.choices
        let own = document.us.flatMap { Self.usOwnChoices(action, saved: wire.choices?.us, shown: $0, current: document.current?.us) }
        self.usOwn = own
        self.us = document.us.flatMap { shown in own.map { Self.forced($0, shown: shown) } }
        self.shownMilliseconds = wire.timings?.shownMs
        self.decidedMilliseconds = wire.timings?.decidedMs
    }

    /// The opt-outs a US result records as the user gave them (see ``usOwn``).
    private static func usOwnChoices(
        _ action: Action, saved: USNoticeChoices?, shown: NoticeDocument.US, current: USNoticeChoices?
    ) -> USNoticeChoices? {
        var choices: USNoticeChoices
        switch action {
        case .acknowledged:
            choices = USNoticeChoices(saleOptOut: false, sharingOptOut: false, targetedAdvertisingOptOut: false,
                                      sensitiveDataLimited: current?.sensitiveDataLimited ?? false)
        case .optOut:
            choices = USNoticeChoices(saleOptOut: true, sharingOptOut: true, targetedAdvertisingOptOut: true,
                                      sensitiveDataLimited: current?.sensitiveDataLimited ?? false)
        case .save:
            guard let saved else { return nil }
            choices = saved
            if shown.gpc || shown.knownChild {
                // The three switches were locked on: the page's values are the signal's, not the user's.
                choices.saleOptOut = current?.saleOptOut ?? false
                choices.sharingOptOut = current?.sharingOptOut ?? false
                choices.targetedAdvertisingOptOut = current?.targetedAdvertisingOptOut ?? false
            }
        case .dismissed, .acceptAll, .rejectAll, .nonPersonalized, .adFree:
            return nil
        }
        choices.sensitiveDataLimited = choices.sensitiveDataLimited && shown.limitSensitive
        return choices
    }

    /// `own` with the host's rules applied (see ``us``): with GPC or a known child, the three opt-outs on.
    private static func forced(_ own: USNoticeChoices, shown: NoticeDocument.US) -> USNoticeChoices {
        var choices = own
        if shown.gpc || shown.knownChild {
            choices.saleOptOut = true
            choices.sharingOptOut = true
            choices.targetedAdvertisingOptOut = true
        }
        return choices
    }

    /// Every id must be one the document showed, with the legal basis it showed it under.
    private static func check(_ choices: NoticeChoices, against document: NoticeDocument) throws(NoticeResultError) {
        let offered = document.offered
        let vendors = offered.vendors, interestVendors = offered.interestVendors, interestPurposes = offered.interestPurposes
        for id in choices.purposeConsents where document.purposes[String(id)] == nil { throw .unknownId(.purpose, id) }
        for id in choices.purposeLegitimateInterests {
            if consentOnly.contains(id) { throw .consentOnlyPurpose(id) }
            guard document.purposes[String(id)] != nil, interestPurposes.contains(id) else { throw .unknownId(.purpose, id) }
        }
        for id in choices.specialFeatureOptIns where document.specialFeatures[String(id)] == nil {
            throw .unknownId(.specialFeature, id)
        }
        for id in choices.vendorConsents where !vendors.contains(id) { throw .unknownId(.vendor, id) }
        for id in choices.vendorLegitimateInterests {
            guard vendors.contains(id) else { throw .unknownId(.vendor, id) }
            guard interestVendors.contains(id) else { throw .noLegitimateInterest(vendor: id) }
        }
        let providers = Set(document.adTechProviders.map(\.id))
        for id in choices.adTechProviderConsents where !providers.contains(id) { throw .unknownId(.adTechProvider, id) }
    }

    private static let consentOnly: Set<Int> = [1, 3, 4, 5, 6]

    private static func describe(_ error: any Error) -> String {
        switch error {
        case DecodingError.dataCorrupted(let context):
            return "not JSON of the expected form at \(path(context.codingPath)): \(context.debugDescription)"
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            return "wrong type at \(path(context.codingPath)): \(context.debugDescription)"
        case DecodingError.keyNotFound(let key, let context):
            return "missing \(path(context.codingPath + [key]))"
        default:
            return "\(error)"
        }
    }

    private static func path(_ keys: [any CodingKey]) -> String {
        keys.isEmpty ? "the top level" : keys.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
    }
}

/// Why a result from the page was refused; nothing is recorded.
public enum NoticeResultError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What an unknown id was meant to name.
    public enum Kind: String, Sendable, Equatable {
        /// A purpose.
        case purpose
        /// A special feature.
        case specialFeature = "special feature"
        /// A vendor.
        case vendor
        /// A Google ad-tech provider.
        case adTechProvider = "ad-tech provider"
    }

    /// Not a JSON object of the protocol's form.
    case malformed(String)
    /// A protocol version this build does not speak.
    case unsupportedProtocol(Int)
    /// A message that is not a result (`ready`, `loadError`, …) where a result was expected.
    case notAResult(String)
    /// An action the protocol does not define.
    case unknownAction(String)
    /// A layer the notice does not have: outside 1-4, or 1-2 in US mode.
    case layerOutOfRange(Int)
    /// An id the document did not show.
    case unknownId(Kind, Int)
    /// Legitimate interest kept for a purpose allowed only on consent (1, 3-6).
    case consentOnlyPurpose(Int)
    /// Legitimate interest kept for a vendor that declares none.
    case noLegitimateInterest(vendor: Int)
    /// ``NoticeResult/Action/save`` without choices.
    case choicesMissing
    /// Choices with another action.
    case choicesNotExpected(NoticeResult.Action)
    /// An action the document did not offer.
    case actionNotOffered(NoticeResult.Action)
    /// A language other than the document's.
    case languageMismatch(shown: String, answered: String)
    /// A notice version other than the document's.
    case noticeVersionMismatch(shown: Int, answered: Int)
    /// US mode: "Limit the Use of My Sensitive Personal Information" chosen where the notice did
    /// not offer it (the section's sensitive data is not an opt-out).
    case sensitiveDataLimitNotOffered
    /// US choices (`choices.us`) in a result of a notice that is not in US mode.
    case usChoicesOutsideUSMode

    /// What was refused.
    public var description: String {
        switch self {
        case .malformed(let detail): "the notice result is malformed: \(detail)"
        case .unsupportedProtocol(let version):
            "the notice result speaks protocol \(version); this build speaks \(NoticeDocument.protocolVersion)"
        case .notAResult(let type): "expected a result message, got \"\(type)\""
        case .unknownAction(let action): "unknown action \"\(action)\""
        case .layerOutOfRange(let layer): "layer \(layer) is not one of the notice's layers (1-4; 1-2 in US mode)"
        case .unknownId(let kind, let id): "\(kind.rawValue) \(id) was not shown on the notice"
        case .consentOnlyPurpose(let id): "purpose \(id) cannot be on legitimate interest (TCF 2.2: purposes 1 and 3-6 need consent)"
        case .noLegitimateInterest(let vendor): "vendor \(vendor) declares no legitimate interest to keep"
        case .choicesMissing: "a save result must carry its choices"
        case .choicesNotExpected(let action): "\(action.rawValue) carries no choices"
        case .actionNotOffered(let action): "the notice did not offer \(action.rawValue)"
        case .languageMismatch(let shown, let answered): "the notice was shown in \(shown) but the result says \(answered)"
        case .noticeVersionMismatch(let shown, let answered): "notice version \(shown) was shown but the result says \(answered)"
        case .sensitiveDataLimitNotOffered:
            "choices.us.sensitiveDataLimited is true but the notice did not offer to limit the use of sensitive personal information"
        case .usChoicesOutsideUSMode: "choices.us answers a US notice, but the notice shown was not in US mode"
        }
    }
}

extension NoticeDocument {
    /// What a document offered, as a result is checked and applied against it.
    struct Offered {
        /// The vendors shown.
        let vendors: IDSet
        /// The vendors whose legitimate interest showing them established (``Vendor/legitimateInterest``).
        let interestVendors: IDSet
        /// Those of them the user may object to (with ``Vendor/legIntPurposes``).
        let objectableVendors: IDSet
        /// The purposes on legitimate interest the user may object to (never 1 or 3-6).
        let interestPurposes: IDSet
    }

    /// One pass over the vendors, reading the fields it needs by position.
    var offered: Offered {
        var shown: [Int] = [], established: [Int] = [], objectable: [Int] = [], purposes: [Int] = []
        shown.reserveCapacity(vendors.count)
        for index in vendors.indices {
            shown.append(vendors[index].id)
            if vendors[index].legitimateInterest { established.append(vendors[index].id) }
            if !vendors[index].legIntPurposes.isEmpty {
                objectable.append(vendors[index].id)
                purposes.append(contentsOf: vendors[index].legIntPurposes)
            }
        }
        return Offered(
            vendors: IDSet(validIds: shown), interestVendors: IDSet(validIds: established),
            objectableVendors: IDSet(validIds: objectable), interestPurposes: IDSet(validIds: purposes))
    }
}
