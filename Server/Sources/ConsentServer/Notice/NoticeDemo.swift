import ConsentKit
import ConsentKitUI
import ConsentRequests
import ConsentdAPI
import Foundation
import GPP
import TCF

/// `/demo`: the consent notice on a sample publisher. The page asks for a document
/// (``document(_:)``), shows the notice with it, and sends the notice's result back
/// (``decide(_:)``), which is checked against the same document and turned into the decision the
/// SDK would record. The route appends it as a consent event of the app `demo-playground` by the
/// rules of every other write (`ConsentAppender.appendEvents`): the page's publishable key creates the
/// visitor's subject, and only the token it gets back writes that subject again.
///
/// It uses the SDK's own pieces (ConsentKitUI's `NoticeDocument` and `NoticeResult`, the TCF
/// encoder and decoder, the GPP encoder), so what the demo shows is what an app records. With a
/// US `region` (``ConsentdAPI/DemoOptions/region``) the notice is the US notice at collection
/// (``usNotice(_:)``) and the choice is recorded as a website's US choice is: a `us` event with
/// the GPP string of the section in force.
struct NoticeDemo: Sendable {
    /// The app id the playground's events are stored under: not the demo site's (`demo`), so
    /// that its visitors' subjects are out of the playground's reach.
    static let appId = "demo-playground"

    let catalog: VendorListCatalog
    let cmp: CMPIdentity

    /// What the demo page asks for.
    typealias Options = DemoOptions

    /// A result to record (``ConsentdAPI/DemoResultRequest``): the options the document was built
    /// with, the page's message (kept as its JSON text, for `NoticeResult` to check), the page's
    /// credential (its publishable key, or the subject token the first result gave it) and, with
    /// a token, its subject.
    struct Decide: Sendable {
        var options: Options
        var message: Data
        var credential: String
        var subjectId: String?

        /// Reads the body: its keys checked (``ConsentRequests/WebRequestFields/demoResult``), then decoded.
        init(json: Data) throws {
            do throws(InvalidField) {
                try StrictJSONObject.check(json, known: WebRequestFields.demoResult)
            } catch {
                throw APIError(error)
            }
            let body = try RequestBody.decode(DemoResultRequest.self, from: json)
            guard case .object = body.message else { throw APIError.badRequest("message must be the notice's result object", field: "message") }
            options = body.options ?? Options()
            message = try JSONEncoder().encode(body.message)
            credential = body.credential
            subjectId = body.subjectId
        }
    }

    /// The demo publisher's Google ad-tech providers.
    static let adTechProviders = [
        AppConfig.AdTechProvider(id: 89, name: "Example Ad Network", privacyPolicyUrl: "https://ads.example.net/privacy"),
        AppConfig.AdTechProvider(id: 1051, name: "Sample Measurement Co", privacyPolicyUrl: "https://measure.example.org/privacy"),
        AppConfig.AdTechProvider(id: 2677, name: "Demo Retargeting Ltd", privacyPolicyUrl: "https://retarget.example.com/policy"),
    ]

    /// The demo's notice version.
    static let noticeVersion = 3

    /// The US notice the options ask for: the document, and the GPP sections in force that its
    /// choice is encoded for; nil when the region is the EEA.
    struct USNotice: Sendable {
        var document: NoticeDocument
        var applicability: GPPApplicability
    }

    /// Where the options put the visitor: the EEA, or the US with their state (nil: not known).
    enum Region: Equatable {
        case eea
        case us(state: String?)
    }

    /// The region the options name (`eea` by default, `us`, or `us-` and a state's code in lower case).
    static func region(_ options: Options) throws -> Region {
        let region = options.region ?? "eea"
        if region == "eea" { return .eea }
        if region == "us" { return .us(state: nil) }
        if region.hasPrefix("us-"), region.dropFirst(3).allSatisfy(\.isLowercase), let state = USStateCode.parse(region.dropFirst(3)) {
            return .us(state: state)
        }
        throw APIError.badRequest("region must be \"eea\", \"us\" or \"us-\" and a state's code in lower case (\"us-ca\")", field: "region")
    }

    /// The US notice at collection of the demo publisher (state approach, no MSPA) for the options'
    /// region, opening on the choice the page's stored GPP string holds (as a website's does:
    /// ``USGPP/storedChoice(_:)``); nil for the EEA.
    func usNotice(_ options: Options) throws -> USNotice? {
        guard case .us(let state) = try Self.region(options) else { return nil }
        let language = try Self.language(options)
        let applicability = USPrivacySettings.standard.applicability(region: .us, subdivision: state)
        let settings = NoticeSettings(
            mode: .tcf, publisherName: "Example News", privacyPolicyURL: URL(string: "https://news.example.com/privacy"), language: language)
        let reopen = options.reopen ?? false
        do {
            let document = try NoticeDocument.build(
                us: applicability, subdivision: state, signals: USPrivacySignals(gpc: false, knownChild: false),
                current: USGPP.storedChoice(options.gppString), settings: settings, cmp: cmp, noticeVersion: Self.noticeVersion,
                language: language, request: NoticeRequest(reason: .noDecision, allowsDismissal: reopen, isUserInitiated: reopen))
            return USNotice(document: document, applicability: applicability)
        } catch {
            throw APIError(.unprocessableContent, "notice_unavailable", "\(error)")
        }
    }

    /// The document the options ask for: the US notice in a US region, else the TCF's or Google's.
    func document(_ options: Options) throws -> NoticeDocument {
        if let us = try usNotice(options) { return us.document }
        return try exchange(options).document
    }

    /// The options' language, two lower-case letters (English by default).
    static func language(_ options: Options) throws -> String {
        let language = (options.language ?? "en").lowercased()
        guard language.count == 2, language.allSatisfy({ $0 >= "a" && $0 <= "z" }) else {
            throw APIError.badRequest("language must be a two-letter ISO 639-1 code", field: "language")
        }
        return language
    }

    /// The notice the options ask for: its scope, the present choices it opens on, and its document.
    func exchange(_ options: Options) throws -> NoticeExchange {
        let mode: NoticeSettings.Mode = options.mode == .google ? .google : .tcf
        let language = try Self.language(options)
        let everyVendor = catalog.vendorList.activeVendors().map(\.id)
        let vendorIds: [Int]
        switch options.vendors ?? "20" {
        case "all": vendorIds = everyVendor
        case "20": vendorIds = Array(everyVendor.filter { $0 != GoogleConsentStatus.googleVendorId }.prefix(19)) + [GoogleConsentStatus.googleVendorId]
        default: throw APIError.badRequest("vendors must be \"20\" or \"all\"", field: "vendors")
        }
        // The list as an app in that language receives it: translated when a loaded translation
        // covers it, else English (and says so).
        let trimmed = try catalog.trimmed(vendorIds: vendorIds.sorted(), language: language)
        let list = try VendorList(jsonData: trimmed.body)
        let scope = ConsentScope(
            vendorList: list, vendorIds: IDSet(validIds: vendorIds), publisherCC: "DE", consentLanguage: language,
            noticeVersion: Self.noticeVersion,
            adTechProviderIds: IDSet(validIds: Self.adTechProviders.map(\.id)))
        let current = try options.tcString.map { string in
            do {
                return ConsentState(tcString: try TCString(decoding: string))
            } catch {
                throw APIError.badRequest("tcString does not decode: \(error)", field: "tcString")
            }
        }
        let settings = NoticeSettings(
            mode: mode, publisherName: "Example News", privacyPolicyURL: URL(string: "https://news.example.com/privacy"), offersAdFree: options.adFree ?? (mode == .google),
            language: language, storageDisclosureBase: URL(string: "/v1/vendor-list/storage"))
        let reopen = options.reopen ?? false
        do {
            return try NoticeExchange(
                scope: scope, settings: settings, cmp: cmp, current: current,
                request: NoticeRequest(reason: .noDecision, allowsDismissal: reopen, isUserInitiated: reopen),
                adTechProviders: Self.adTechProviders)
        } catch {
            throw APIError(.unprocessableContent, "notice_unavailable", "\(error)")
        }
    }

    /// What the demo page shows after a choice.
    struct Answer: Encodable, Sendable {
        var action: String
        var tcString: String?
        var addtlConsent: String?
        var googleStatus: String?
        var npa: Bool?
        var prefersAdFree: Bool?
        var languageFallback: NoticeDocument.LanguageFallback?
        /// The TC string as ConsentKit's own decoder reads it back.
        var decoded: TCString?
        /// After a US choice: the GPP string of the section in force.
        var gppString: String?
        /// After a US choice: what `__gpp` answers of it (`applicableSections`, `gppString`,
        /// `parsedSections`: the string as ConsentKit's GPP decoder reads it back).
        var gpp: JSONValue?
        /// consentd's answer to the stored event.
        var event: AppendResult?
        /// The token that alone writes the subject again, when the page key created it.
        var subjectToken: String?
    }

    /// Checks the page's result against the document the options give: the event to record
    /// (for `subjectId`, nil to create a subject), made at `now`; nil when the notice was closed
    /// without a choice.
    func decide(_ request: Decide, now: Date = Date()) throws -> (answer: Answer, event: ConsentEventRequest?) {
        if let us = try usNotice(request.options) { return try decideUS(request, notice: us, now: now) }
        let exchange = try exchange(request.options)
        let choice: NoticeExchange.Choice?
        do {
            choice = try exchange.decide(try NoticeResult(json: request.message, document: exchange.document), at: now)
        } catch {
            throw APIError(.unprocessableContent, "notice_result_refused", "\(error)", field: "message")
        }
        guard let choice else { return (Answer(action: NoticeResult.Action.dismissed.rawValue), nil) }
        let recorded = try RecordedChoice(decision: choice.decision, context: ConsentEventContext(
            method: choice.method, noticeId: "demo-\(exchange.document.mode.rawValue)", platform: .web, cmp: cmp, subjectId: request.subjectId,
            documentHash: exchange.documentHash))
        let answer = Answer(
            action: choice.result.action.rawValue, tcString: recorded.tcString, addtlConsent: recorded.addtlConsent,
            googleStatus: recorded.google.rawValue, npa: recorded.google == .nonPersonalized, prefersAdFree: recorded.prefersAdFree,
            languageFallback: exchange.document.languageFallback, decoded: recorded.decoded)
        return (answer, recorded.event)
    }

    /// A US notice's result, recorded as a website's is (the website's CMP):
    /// kind `us`, the choice's values, the GPP string of the section in force, and the proof.
    private func decideUS(_ request: Decide, notice: USNotice, now: Date) throws -> (answer: Answer, event: ConsentEventRequest?) {
        let result: NoticeResult
        do {
            result = try NoticeResult(json: request.message, document: notice.document)
        } catch {
            throw APIError(.unprocessableContent, "notice_result_refused", "\(error)", field: "message")
        }
        guard let choice = result.usChoice(at: now) else { return (Answer(action: result.action.rawValue), nil) }
        let gpp = try USGPP.encode(applicability: notice.applicability, choice: choice, gpc: false)
        let context = ConsentEventContext(
            method: ConsentProof.Method(result.action), noticeId: "demo-us", platform: .web, cmp: cmp, subjectId: request.subjectId,
            documentHash: ConsentProof.hash(ofDocument: notice.document.json()), gppString: gpp.gppString)
        let answer = Answer(
            action: result.action.rawValue, languageFallback: notice.document.languageFallback, gppString: gpp.gppString,
            gpp: try JSONDecoder().decode(JSONValue.self, from: Data(gpp.json().utf8)))
        return (answer, context.event(for: choice))
    }
}
