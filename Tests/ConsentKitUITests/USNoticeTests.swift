import ConsentKit
import ConsentKitUI
import Foundation
import GPP
import Testing

/// The notice's US mode: the document (`us`, `current.us`) built from the region decision, and the
/// page's US results checked with the host's rules (decision record 0032).
@Suite("US notice: document and results")
struct USNoticeTests {
    static let california = GPPApplicability(applicableSections: [8])
    static let national = GPPApplicability(applicableSections: [7])
    static let cmp = CMPIdentity(cmpId: 300, cmpVersion: 7)

    static func document(
        _ applicability: GPPApplicability = california, subdivision: String? = "CA", gpc: Bool = false, knownChild: Bool = false,
        current: USPrivacyChoice? = nil, language: String = "en", dismissible: Bool = false
    ) throws -> NoticeDocument {
        try NoticeDocument.build(
            us: applicability, subdivision: subdivision, signals: USPrivacySignals(gpc: gpc, knownChild: knownChild), current: current,
            settings: publisherSettings, cmp: cmp, noticeVersion: 3, language: language,
            request: NoticeRequest(reason: .noDecision, allowsDismissal: dismissible))
    }

    static func result(_ action: String, layer: Int = 1, choices: String? = nil, document: NoticeDocument) throws(NoticeResultError) -> NoticeResult {
        try NoticeResult(json: resultJSON(action, layer: layer, choices: choices), document: document)
    }

    static func saved(sale: Bool = false, sharing: Bool = false, targeted: Bool = false, limited: Bool = false) -> String {
        #"{"us":{"saleOptOut":\#(sale),"sharingOptOut":\#(sharing),"targetedAdvertisingOptOut":\#(targeted),"sensitiveDataLimited":\#(limited)}}"#
    }

    static let choice = USPrivacyChoice(saleOptOut: true, sharingOptOut: false, targetedAdvertisingOptOut: false, sensitiveDataLimited: true,
                                        noticeVersion: 2, language: "en", decided: noticeDate)

    // MARK: The document

    @Test("a California visitor's document is in US mode with usca, the state, and the sensitive-data limit offered")
    func californiaDocument() throws {
        let document = try Self.document(gpc: true)
        #expect(document.mode == .us)
        #expect(document.us == NoticeDocument.US(section: "usca", state: "CA", limitSensitive: true, knownChild: false, gpc: true, serviceProvider: false))
        #expect(document.vendors.isEmpty && document.purposes.isEmpty && document.stacks.isEmpty)
        #expect(document.current == nil)
    }

    @Test("a usnat visitor (the national approach, a state without section) gets usnat and no sensitive-data limit")
    func nationalDocument() throws {
        let document = try Self.document(Self.national, subdivision: "WA", knownChild: true)
        #expect(document.us?.section == "usnat")
        #expect(document.us?.state == "WA")
        #expect(document.us?.limitSensitive == false)
        #expect(document.us?.knownChild == true)
    }

    @Test("a covered transaction in Service Provider Mode says so; an unknown state is null")
    func serviceProviderDocument() throws {
        let document = try Self.document(GPPApplicability(applicableSections: [7], mspaCoveredTransaction: true, mspaMode: .serviceProvider),
                                         subdivision: nil)
        #expect(document.us?.serviceProvider == true)
        #expect(document.us?.state == nil)
    }

    @Test("no US section applies: the US document is refused")
    func noUSSection() {
        #expect(throws: NoticeDocumentError.noUSSection) { try Self.document(.notApplicable) }
        #expect(throws: NoticeDocumentError.noUSSection) { try Self.document(GPPApplicability(applicableSections: [2])) }
    }

    @Test("the TCF builder refuses US mode")
    func tcfBuilderRefusesUSMode() async throws {
        let manager = await noticeManager()
        var settings = publisherSettings
        settings.mode = .us
        #expect(throws: NoticeDocumentError.usModeNeedsUSBuild) {
            try NoticeExchange(scope: manager.scope(), settings: settings, cmp: Self.cmp, current: nil,
                               request: NoticeRequest(reason: .noDecision, allowsDismissal: false))
        }
    }

    @Test("a session asked for US mode where no US section applies is refused")
    func usSessionOutsideTheUS() async throws {
        let manager = await noticeManager()
        var settings = publisherSettings
        settings.mode = .us
        #expect(throws: NoticeSessionError.document(.noUSSection)) {
            try NoticeSession(manager: manager, settings: settings, request: NoticeRequest(reason: .noDecision, allowsDismissal: false))
        }
    }

    @Test("the JSON has mode us, the us object and current.us; it reads back equal, for the app and for the web")
    func json() throws {
        let document = try Self.document(current: Self.choice)
        for data in [document.json(), document.webJSON(vendorDetailsUrl: "/v1/web/vendors")] {
            let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            #expect(object["mode"] as? String == "us")
            let us = try #require(object["us"] as? [String: Any])
            #expect(us["section"] as? String == "usca" && us["state"] as? String == "CA" && us["limitSensitive"] as? Bool == true)
            #expect(us["knownChild"] as? Bool == false && us["gpc"] as? Bool == false && us["serviceProvider"] as? Bool == false)
            let current = try #require((object["current"] as? [String: Any])?["us"] as? [String: Any])
            #expect(current["saleOptOut"] as? Bool == true && current["sharingOptOut"] as? Bool == false)
            #expect(current["targetedAdvertisingOptOut"] as? Bool == false && current["sensitiveDataLimited"] as? Bool == true)
            #expect((object["current"] as? [String: Any])?.count == 1)
        }
        #expect(try JSONDecoder().decode(NoticeDocument.self, from: document.json()) == document)
    }

    @Test("a TCF document's JSON has no us object")
    func tcfDocumentHasNoUSObject() async throws {
        let manager = await noticeManager()
        let session = try NoticeSession(manager: manager, settings: publisherSettings, request: NoticeRequest(reason: .noDecision, allowsDismissal: false))
        let object = try #require(try JSONSerialization.jsonObject(with: session.document.json()) as? [String: Any])
        #expect(object["us"] == nil)
        #expect(session.document.us == nil)
    }

    @Test("a language the notice has no texts for falls back to English and says so")
    func languageFallback() throws {
        let document = try Self.document(language: "xx")
        #expect(document.language == "en")
        #expect(document.languageFallback?.requested == "xx")
    }

    // MARK: The results

    @Test("Continue records no opt-out")
    func acknowledged() throws {
        let result = try Self.result("acknowledged", document: Self.document())
        #expect(result.us == USNoticeChoices(saleOptOut: false, sharingOptOut: false, targetedAdvertisingOptOut: false, sensitiveDataLimited: false))
        let choice = try #require(result.usChoice(at: noticeDate))
        #expect(!choice.optsOutOfAds && choice.noticeVersion == 3 && choice.language == "en" && choice.decided == noticeDate)
    }

    @Test("Do Not Sell or Share records the three opt-outs and keeps the sensitive-data limit the user had")
    func optOut() throws {
        let result = try Self.result("optOut", document: Self.document(current: Self.choice))
        #expect(result.us == USNoticeChoices(saleOptOut: true, sharingOptOut: true, targetedAdvertisingOptOut: true, sensitiveDataLimited: true))
        let fresh = try Self.result("optOut", document: Self.document())
        #expect(fresh.us?.sensitiveDataLimited == false)
    }

    @Test("save records exactly the choices of the second layer")
    func save() throws {
        let result = try Self.result("save", layer: 2, choices: Self.saved(sharing: true, limited: true), document: Self.document())
        #expect(result.us == USNoticeChoices(saleOptOut: false, sharingOptOut: true, targetedAdvertisingOptOut: false, sensitiveDataLimited: true))
    }

    @Test("with GPC or a known child the three opt-outs are on whatever the page answered")
    func signalsForceOptOuts() throws {
        for document in [try Self.document(gpc: true), try Self.document(knownChild: true)] {
            #expect(try Self.result("acknowledged", document: document).us?.optsOut == true)
            #expect(try Self.result("save", layer: 2, choices: Self.saved(), document: document).us?.optsOut == true)
        }
    }

    @Test("the user's own answer (usOwn) is the result before GPC or a known child: Continue none, Do Not Sell all three")
    func ownAnswerBeforeTheSignals() throws {
        for document in [try Self.document(gpc: true), try Self.document(knownChild: true)] {
            let continued = try Self.result("acknowledged", document: document)
            #expect(continued.us?.optsOut == true)
            #expect(continued.usOwn == USNoticeChoices(saleOptOut: false, sharingOptOut: false, targetedAdvertisingOptOut: false, sensitiveDataLimited: false))
            let own = try #require(continued.usOwnChoice(at: noticeDate))
            #expect(!own.optsOutOfAds && own.noticeVersion == 3 && own.decided == noticeDate)
            #expect(try Self.result("optOut", document: Self.document()).usOwn?.optsOut == true)
        }
    }

    @Test("a save under GPC keeps the current own opt-outs the locked switches hid, and the sensitive-data limit the user set")
    func ownAnswerOfASaveUnderGPC() throws {
        let document = try Self.document(gpc: true, current: Self.choice)
        let result = try Self.result("save", layer: 2, choices: Self.saved(sale: true, sharing: true, targeted: true, limited: false), document: document)
        #expect(result.usOwn == USNoticeChoices(saleOptOut: true, sharingOptOut: false, targetedAdvertisingOptOut: false, sensitiveDataLimited: false))
        #expect(result.us == USNoticeChoices(saleOptOut: true, sharingOptOut: true, targetedAdvertisingOptOut: true, sensitiveDataLimited: false))
        let fresh = try Self.result("save", layer: 2, choices: Self.saved(sale: true, sharing: true, targeted: true), document: Self.document(gpc: true))
        #expect(fresh.usOwn?.optsOut == false, "no current choice: none opted out")
        let plain = try Self.result("save", layer: 2, choices: Self.saved(sharing: true), document: Self.document())
        #expect(plain.usOwn == plain.us, "without a signal the own answer is the result")
    }

    @Test("limiting sensitive data where the notice did not offer it is refused")
    func limitNotOffered() throws {
        let document = try Self.document(Self.national)
        #expect(throws: NoticeResultError.sensitiveDataLimitNotOffered) {
            try Self.result("save", layer: 2, choices: Self.saved(limited: true), document: document)
        }
    }

    @Test("the TCF actions are refused in US mode")
    func tcfActionsRefused() throws {
        let document = try Self.document()
        for action in [NoticeResult.Action.acceptAll, .rejectAll, .nonPersonalized, .adFree] {
            #expect(throws: NoticeResultError.actionNotOffered(action)) { try Self.result(action.rawValue, document: document) }
        }
    }

    @Test("a US save without US choices, or with TCF choices only, is refused")
    func usSaveNeedsUSChoices() throws {
        let document = try Self.document()
        #expect(throws: NoticeResultError.choicesMissing) { try Self.result("save", layer: 2, document: document) }
        let tcf = #"{"purposeConsents":[],"purposeLegitimateInterests":[],"specialFeatureOptIns":[],"vendorConsents":[],"vendorLegitimateInterests":[],"adTechProviderConsents":[]}"#
        #expect(throws: NoticeResultError.choicesMissing) { try Self.result("save", layer: 2, choices: tcf, document: document) }
    }

    @Test("US mode has two layers")
    func twoLayers() throws {
        #expect(throws: NoticeResultError.layerOutOfRange(3)) { try Self.result("acknowledged", layer: 3, document: Self.document()) }
    }

    @Test("dismissal is refused unless offered, and records no choice when it is")
    func dismissed() throws {
        #expect(throws: NoticeResultError.actionNotOffered(.dismissed)) { try Self.result("dismissed", document: Self.document()) }
        let result = try Self.result("dismissed", document: Self.document(dismissible: true))
        #expect(result.us == nil && result.usChoice(at: noticeDate) == nil)
    }

    @Test("the US actions and US choices are refused outside US mode")
    func usActionsRefusedInTCFMode() async throws {
        let manager = await noticeManager()
        let document = try NoticeSession(manager: manager, settings: publisherSettings,
                                         request: NoticeRequest(reason: .noDecision, allowsDismissal: false)).document
        for action in [NoticeResult.Action.acknowledged, .optOut] {
            #expect(throws: NoticeResultError.actionNotOffered(action)) { try Self.result(action.rawValue, document: document) }
        }
        #expect(throws: NoticeResultError.usChoicesOutsideUSMode) { try Self.result("save", layer: 2, choices: Self.saved(), document: document) }
    }

    // MARK: The app's notice session

    @Test("where the US rules decide, the app's notice session shows the US notice and records the answer through the manager")
    func sessionInTheUS() async throws {
        let store = InMemoryKeyValueStore()
        let manager = await noticeManager(gdprApplies: false, store: store, us: (state: "CA", sections: [8]))
        #expect(manager.followsUSPrivacyRules && manager.shouldAsk)
        let session = try NoticeSession(manager: manager, settings: publisherSettings, request: NoticeRequest(reason: .noDecision, allowsDismissal: false))
        #expect(session.document.mode == .us && session.document.us?.section == "usca" && session.exchange == nil)
        guard case .usDecided(_, let choice) = session.receive(resultJSON("optOut")) else {
            Issue.record("not decided"); return
        }
        #expect(choice.saleOptOut && choice.sharingOptOut && choice.targetedAdvertisingOptOut)
        #expect(manager.usPrivacyChoice == choice && !manager.shouldAsk)
        #expect(store.value(forKey: "gad_rdp") == .bool(true))
        #expect(manager.consent == nil)
        #expect(session.receive(resultJSON("optOut")).outcome == .decided)
    }

    @Test("the app's notice session records the user's own answer: Continue with the app's GPC on opts out while GPC lasts, and nothing once it is off")
    func sessionKeepsTheOwnAnswerUnderGPC() async throws {
        let store = InMemoryKeyValueStore()
        let manager = await noticeManager(gdprApplies: false, store: store, us: (state: "CA", sections: [8]), globalPrivacyControl: true)
        let session = try NoticeSession(manager: manager, settings: publisherSettings, request: NoticeRequest(reason: .noDecision, allowsDismissal: false))
        #expect(session.document.us?.gpc == true)
        guard case .usDecided(let result, let choice) = session.receive(resultJSON("acknowledged")) else {
            Issue.record("not decided"); return
        }
        // The page's result has GPC's opt-outs; the choice kept is the user's Continue.
        #expect(result.us?.optsOut == true)
        #expect(!choice.saleOptOut && !choice.sharingOptOut && !choice.targetedAdvertisingOptOut)
        #expect(manager.usPrivacyChoice == choice)
        #expect(store.value(forKey: "gad_rdp") == .bool(true))
        let forced = try #require(store.value(forKey: "IABGPP_HDR_GppString")?.string)

        manager.setGlobalPrivacyControl(false)
        #expect(store.value(forKey: "gad_rdp") == nil)
        let own = try #require(store.value(forKey: "IABGPP_HDR_GppString")?.string)
        #expect(own != forced)
        let usca = try #require(try GPPString(decoding: own).us(.usca))
        #expect(usca.saleOptOut == .didNotOptOut && usca.sharingOptOut == .didNotOptOut && usca.gpc == false)
        #expect(try GPPString(decoding: forced).us(.usca)?.saleOptOut == .optedOut)
    }

    @Test("outside the US the app's notice session is the TCF notice, as before")
    func sessionInTheEEA() async throws {
        let manager = await noticeManager()
        #expect(!manager.followsUSPrivacyRules)
        let session = try NoticeSession(manager: manager, settings: publisherSettings, request: NoticeRequest(reason: .noDecision, allowsDismissal: false))
        #expect(session.document.mode == .tcf && session.exchange != nil)
    }
}

extension USNoticeChoices {
    /// Whether sale, sharing and targeted advertising are all opted out.
    var optsOut: Bool { saleOptOut && sharingOptOut && targetedAdvertisingOptOut }
}
