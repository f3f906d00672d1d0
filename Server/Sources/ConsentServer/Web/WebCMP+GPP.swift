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
    /// the visitor's US section in the US from their `usChoice` (``usGPP(applicability:choice:gpc:)``),
    /// else none.
    static func sessionGPP(region: RegionDecision, site: Site, tcfApplies: Bool, tcString: String?, usChoice: USPrivacyChoice?,
                           gpc: Bool) throws -> GPPData {
        if tcfApplies { return try tcfGPP(tcString: tcString) }
        let applicability = region.gpp(site.usPrivacy)
        guard region.region == .us, !applicability.applicableSections.isEmpty else { return GPPData.empty }
        return try usGPP(applicability: applicability, choice: usChoice, gpc: gpc)
    }

    /// The US sections in force, encoded from `choice` (nil: none yet) and the GPC signal by
    /// ConsentKit's one encoder (`USPrivacyChoice.gppSections(of:applicability:signals:)`):
    /// a website knows no child, so `knownChild` is false.
    static func usGPP(applicability: GPPApplicability, choice: USPrivacyChoice?, gpc: Bool) throws -> GPPData {
        let sections = USPrivacyChoice.gppSections(of: choice, applicability: applicability, signals: USPrivacySignals(gpc: gpc, knownChild: false))
        return try GPPData(GPPString(sections: sections), applicableSections: applicability.applicableSections)
    }

    /// The visitor's US choice as a stored GPP string holds it: its first US section's opt-outs
    /// (a visitor who moved to another state keeps their choice), read back only to be encoded
    /// again for the sections in force now. A section without a notice provided holds no choice
    /// (the string of a page view before any); so does a string that does not decode, or holds no
    /// US section: nil. Sharing and targeted advertising stand for each other where a section has
    /// only one of them (California's "sharing" is cross-context behavioural advertising). The
    /// string carries no notice version, language or time: the choice says 0, `en` and the
    /// epoch, which the encoder does not read.
    static func storedUSChoice(_ text: String?) -> USPrivacyChoice? {
        guard let text, !text.isEmpty, let gpp = try? GPPString(decoding: text) else { return nil }
        for case .us(let section) in gpp.sections {
            let notices = [section.sharingNotice, section.processingNotice, section.saleOptOutNotice, section.sharingOptOutNotice,
                           section.targetedAdvertisingOptOutNotice]
            guard notices.contains(.provided) else { continue }
            let sharing = section.sharingOptOut ?? section.targetedAdvertisingOptOut
            let targeted = section.targetedAdvertisingOptOut ?? section.sharingOptOut
            return USPrivacyChoice(
                saleOptOut: section.saleOptOut == .optedOut, sharingOptOut: sharing == .optedOut, targetedAdvertisingOptOut: targeted == .optedOut,
                sensitiveDataLimited: section.sensitiveDataOptOuts.map { !$0.isEmpty && $0.allSatisfy { $0 == .optedOut } } ?? false,
                noticeVersion: 0, language: "en", decided: Date(timeIntervalSince1970: 0))
        }
        return nil
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
    /// choice's values, decision record 0035): no TC string, the GPP string of the sections in force
    /// (``usGPP(applicability:choice:gpc:)``) and the proof (method as ConsentKitUI maps the
    /// action: "Continue" acceptAll, "Do Not Sell or Share" rejectAll, a saved selection custom);
    /// nil when the notice was closed without a choice, which is then `closed` (as
    /// ``choice(_:appId:region:now:)`` says).
    func usChoice(_ request: ChoiceRequest, site: Site, applicability: GPPApplicability, subdivision: String?, gpc: Bool,
                  noticeId: String, now: Date) throws -> (action: String, choice: WebChoiceRecord?, closed: NoticeClose?) {
        let language = site.language(Self.language(request.language))
        let document = try usDocument(site, applicability: applicability, subdivision: subdivision, gpc: gpc,
                                      current: Self.storedUSChoice(request.gppString), language: language, reopen: request.reopen)
        let result: NoticeResult
        do {
            result = try NoticeResult(json: request.message ?? Data(), document: document)
        } catch {
            throw APIError(.unprocessableContent, "notice_result_refused", "\(error)", field: "message")
        }
        guard let choice = result.usChoice(at: now) else {
            let closed = NoticeClose(noticeVersion: String(document.noticeVersion), language: language.lowercased(), platform: .web)
            return (result.action.rawValue, nil, result.action == .dismissed ? closed : nil)
        }
        let gpp = try Self.usGPP(applicability: applicability, choice: choice, gpc: gpc)
        let context = ConsentEventContext(
            method: ConsentProof.Method(result.action), noticeId: noticeId, platform: .web, cmp: cmp, subjectId: request.subjectId,
            documentHash: ConsentProof.hash(ofDocument: document.json()), gppString: gpp.gppString)
        return (result.action.rawValue, WebChoiceRecord(event: context.event(for: choice), tcf: nil, gpp: gpp), nil)
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
}
