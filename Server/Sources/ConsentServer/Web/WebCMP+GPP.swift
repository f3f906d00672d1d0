import ConsentKit
import ConsentKitUI
import ConsentKitFormats
import ConsentdAPI
import Foundation
import GPP
import TCF

extension WebCMP {
    /// The `gpp` object of a page view's or a choice's answer (``ConsentdAPI/WebGPP``): `data`
    /// (what the page's `__gpp` answers, from the same choice as its `__tcfapi`:
    /// ``sessionGPP(region:site:tcfApplies:tcString:usChoice:gpc:)``, ``tcfRecord(_:)``,
    /// ``usChoice(_:site:applicability:subdivision:gpc:noticeId:now:)``) with the site's MSPA
    /// settings (`mspaCoveredTransaction`, `mspaMode`). Its `parsedSections.tcfeuv2` names only
    /// what `bounds` holds, as the answer's `TCData` does (`GPPData.bounded(by:)`).
    static func gppJSON(_ data: GPPData, settings: USPrivacySettings, bounds: TCData.Bounds) -> String {
        var json = JSONWriter(capacity: 1024, escaping: .standard)
        json.beginObject()
        data.bounded(by: bounds).writeFields(to: &json)
        json.field("mspaCoveredTransaction", settings.mspaCoveredTransaction)
        json.key("mspaMode")
        if let mode = settings.mspaMode { json.string(mode.rawValue) } else { json.null() }
        json.endObject()
        return json.text
    }

    /// A choice made under the TCF, with its `tcfeuv2` section as what `__gpp` answers.
    static func tcfRecord(_ recorded: RecordedChoice) throws -> WebChoiceRecord {
        WebChoiceRecord(event: recorded.event, tcf: recorded, gpp: try tcfGPP(tcString: recorded.tcString))
    }

    /// The GPP data of the TCF's side: the `tcfeuv2` section of `tcString` (kept byte for byte),
    /// applicable `[2]`; the header alone while there is no TC string.
    static func tcfGPP(tcString: String?) throws -> GPPData {
        guard let tcString else { return try GPPData(GPPString(), applicableSections: [GPPSectionID.tcfeuv2.rawValue]) }
        let text = try GPPString(sections: [.unknown(id: GPPSectionID.tcfeuv2.rawValue, text: tcString)]).encoded()
        return try GPPData(gppString: text, applicableSections: [GPPSectionID.tcfeuv2.rawValue])
    }

    /// The `gpp` of a page view: the TCF's side where the TCF applies (``tcfGPP(tcString:)``),
    /// the visitor's US section in the US from their `usChoice` (``USGPP/encode(applicability:choice:gpc:)``),
    /// else none.
    static func sessionGPP(region: RegionDecision, site: Site, tcfApplies: Bool, tcString: String?, usChoice: USPrivacyChoice?,
                           gpc: Bool) throws -> GPPData {
        if tcfApplies { return try tcfGPP(tcString: tcString) }
        let applicability = region.gpp(site.usPrivacy)
        guard region.region == .us, !applicability.applicableSections.isEmpty else { return GPPData.empty }
        return try USGPP.encode(applicability: applicability, choice: usChoice, gpc: gpc)
    }
}

extension WebCMP {
    /// The US notice at collection for a visitor of `site` under `applicability`, opening on
    /// `current` (ConsentKitUI's `NoticeDocument.build(us:…)`, as the app builds it).
    func usDocument(_ site: Site, applicability: GPPApplicability, subdivision: String?, gpc: Bool, current: USPrivacyChoice?,
                    language: String, reopen: Bool) throws -> NoticeDocument {
        do {
            return try NoticeDocument.build(
                us: applicability, subdivision: subdivision, signals: USPrivacySignals(gpc: gpc, knownChild: false), current: current,
                settings: noticeSettings(site, language: language), cmp: cmp, noticeVersion: site.notice?.noticeVersion ?? 0, language: language,
                request: NoticeRequest(reason: reopen ? .decisionHolds : .noDecision, allowsDismissal: reopen, isUserInitiated: reopen))
        } catch {
            throw APIError(.unprocessableContent, "notice_unavailable", "\(error)")
        }
    }

    /// A US notice's result, checked against the document the page showed and recorded as the
    /// event an app sends for it (`ConsentEventContext.event(for:eventId:)`: kind `us`, the
    /// choice's values as the visitor gave them, before GPC, `NoticeResult.usOwn`, decision records
    /// 0035 and 0046): no TC string, the GPP string of the sections in force with GPC applied
    /// (``USGPP/encode(applicability:choice:gpc:)``), the own answer again as `usChoice` for
    /// the page to keep (``WebChoiceRecord/usChoice``), and the proof (method as ConsentKitUI maps the
    /// action: "Continue" acceptAll, "Do Not Sell or Share" rejectAll, a saved selection custom);
    /// nil when the notice was closed without a choice, which is then `closed` (as
    /// ``choice(_:appId:region:now:)`` says).
    func usChoice(_ request: ChoiceRequest, site: Site, applicability: GPPApplicability, subdivision: String?, gpc: Bool,
                  noticeId: String, now: Date) throws -> (action: String, choice: WebChoiceRecord?, closed: NoticeClose?) {
        let language = site.language(Self.language(request.language))
        let document = try usDocument(site, applicability: applicability, subdivision: subdivision, gpc: gpc,
                                      current: USGPP.visitorChoice(own: request.usChoice, storedString: request.gppString),
                                      language: language, reopen: request.reopen)
        let result: NoticeResult
        do {
            result = try NoticeResult(json: request.message ?? Data(), document: document)
        } catch {
            throw APIError(.unprocessableContent, "notice_result_refused", "\(error)", field: "message")
        }
        guard let own = result.usOwnChoice(at: now) else {
            let closed = NoticeClose(noticeVersion: String(document.noticeVersion), language: language.lowercased(), platform: .web)
            return (result.action.rawValue, nil, result.action == .dismissed ? closed : nil)
        }
        // The visitor's own answer is what is kept and recorded; GPC is applied in the GPP string only.
        let gpp = try USGPP.encode(applicability: applicability, choice: own, gpc: gpc)
        let context = ConsentEventContext(
            method: ConsentProof.Method(result.action), noticeId: noticeId, platform: .web, cmp: cmp, subjectId: request.subjectId,
            documentHash: ConsentProof.hash(ofDocument: document.json()), gppString: gpp.gppString)
        return (result.action.rawValue, WebChoiceRecord(event: context.event(for: own), tcf: nil, gpp: gpp, usChoice: USGPP.record(of: own)), nil)
    }
}

/// A choice made on a website, as it is recorded: its consent event, the TCF's strings when it
/// was made under the TCF, and what the page's `__gpp` answers after it.
struct WebChoiceRecord: Sendable {
    /// The consent event.
    var event: ConsentEventRequest
    /// The TC string and what goes with it; nil for a US choice.
    var tcf: RecordedChoice?
    /// The GPP string and its sections in force.
    var gpp: GPPData
    /// A US choice as the visitor made it, before GPC (the page keeps it); nil for a TCF choice.
    var usChoice: USChoiceRecord? = nil
}
