import ConsentKit
import ConsentKitUI
import ConsentRequests
import ConsentKitFormats
import ConsentdAPI
import Foundation
import TCF

/// The server half of the web CMP (`/cmp/cmp.js` on a publisher's website): what a page view
/// calls for (``session(_:appId:region:now:)``: the region, the ask rules on the visitor's stored
/// TC string, the CMP API's `TCData`, and the notice's document when the visitor is to be asked),
/// and a choice made on the page turned into what the SDK would record (``choice(_:appId:now:)``).
///
/// It is the app's machinery on the server: the same ask rules (`AskRules`), notice document
/// (`NoticeDocument`), result checks (`NoticeResult`) and encoder, so a site's visitor is asked and
/// recorded exactly as an app's user is. Nothing here touches the database; the routes append.
struct WebCMP: Sendable {
    let catalog: VendorListCatalog
    let cmp: CMPIdentity
    /// The publishers and websites, re-read while consentd runs.
    let publishers: PublisherDirectory
    /// The notices of visitors without a decision (document, scope, vendors' details), built once
    /// per site, language, list and reason.
    let notices = SiteNotices()
    /// The notices published in the console (decision record 0043), which replace a site's
    /// configured look and texts and give its notice version.
    var published = PublishedNotices()
    /// The publishers and websites in use now (the demo's site included when it is on).
    var configuration: PublisherConfiguration { publishers.forWebsites }

    /// The ask rules for websites: a decision holds 13 months.
    static let rules = AskRules()

    /// A website as the notice shows it: its configuration, and the vendors and ad-tech
    /// providers of its publishers that the vendor list held now contains.
    struct Site: Sendable, Equatable {
        var website: PublisherConfiguration.Website
        var vendorIds: [Int]
        var adTechProviders: [AppConfig.AdTechProvider]
        var nonPersonalizedOnly: Bool
        /// Its settings for US visitors (``PublisherConfiguration/usPrivacy(of:)``).
        var usPrivacy: USPrivacySettings
        /// Its notice as published in the console; nil: as configured, notice version 0.
        var notice: PublishedNotice? = nil

        /// The language a visitor asking for `language` is shown: any, or with a published
        /// notice one of its languages (its default when the visitor's is not among them).
        func language(_ language: String) -> String {
            notice?.options.language(for: language) ?? language
        }
    }

    /// The website of `appId`; 404 `website_unknown` when none is configured.
    func site(appId: String) throws -> Site {
        // One read: a reload between two would mix two configurations.
        let configuration = self.configuration
        guard let website = configuration.websites[appId] else {
            throw APIError(.notFound, "website_unknown",
                           "no website is configured for the app \(appId): list it under websites in the publisher configuration")
        }
        let publishers = website.publisherIds.compactMap { configuration.publishers[$0] }
        let active = Set(catalog.vendorList.activeVendors().map(\.id))
        var providers: [Int: AppConfig.AdTechProvider] = [:]
        for provider in publishers.flatMap(\.adTechProviders) where providers[provider.id] == nil { providers[provider.id] = provider }
        return Site(
            website: website, vendorIds: Set(publishers.flatMap(\.vendorIds)).intersection(active).sorted(),
            adTechProviders: providers.values.sorted { $0.id < $1.id }, nonPersonalizedOnly: publishers.contains(where: \.nonPersonalizedOnly),
            usPrivacy: configuration.usPrivacy(of: website), notice: published.notice(appId: appId))
    }

    /// The answer to a page view, as JSON text: `gdprApplies` (the region's, except that a
    /// visitor holding a decision where the region is unknown gets true, the app's rule:
    /// `AskRules.gdprApplies(region:hasDecision:)`), `region`, `subdivision` (the US state, when
    /// known), `gpp` (``ConsentdAPI/GPPApplicability``: the GPP sections in force for the visitor
    /// under the site's MSPA settings, ``RegionDecision/gpp(_:)``), `ask` (the ask rules'
    /// reason, null when the stored decision holds or GDPR does not apply), the CMP's `cmpId`,
    /// `cmpVersion`, `gvlVersion`, `tcfPolicyVersion`, `tcData` (the CMP API's data for the stored
    /// string, or for "GDPR does not apply"; null when the visitor is to be asked or nothing is
    /// stored), and, when the notice is to be shown, `uiTCData` (what the API says while it is on
    /// screen: no consent, legitimate interests as disclosed) and `document` (the notice's). Both
    /// TCData objects write their id maps as binary strings (`TCData.IDMapForm.binaryStrings`:
    /// the shown TCData of 813 vendors is 10 KB instead of 108 KB), which the page's
    /// `ConsentKitTCF.update` expands (decision record 0027).
    /// `storedStringRefused` says why a stored string was ignored: it does not decode, or its
    /// Created or LastUpdated lies in the future (no decision: the visitor is asked again).
    ///
    /// `gpp` (``ConsentdAPI/WebGPP``) is what the page's `__gpp` answers (``sessionGPP(region:site:tcfApplies:tcString:usChoice:gpc:)``):
    /// in the US the sections in force encoded from the visitor's own choice the page keeps
    /// (`usChoice`; without it, the one its stored GPP string holds: ``USGPP/visitorChoice(own:storedString:)``)
    /// and `gpc` (the browser's Global Privacy Control, in force for this page view only); a US
    /// visitor without a choice (or one who reopened the notice, or whose older page kept only a
    /// string GPC forced, ``USGPP/possiblyForced(_:)``, once GPC is off) gets the US notice at
    /// collection as `document` (mode `us`) and `ask` `noDecision` (not on a reopen), never a
    /// `uiTCData`: in the US nobody waits for a choice.
    func session(_ request: WebSessionRequest, appId: String, region: RegionDecision, gpc: Bool, now: Date) throws -> String {
        let site = try site(appId: appId)
        let list = catalog.vendorList
        let gdpr: GDPRApplicability = switch region.gdprApplies {
        case true?: .applies
        case false?: .doesNotApply
        case nil: .undetermined
        }
        var refused: String?
        var stored: (text: String, decoded: TCString)?
        if let text = request.tcString, !text.isEmpty {
            do {
                let decoded = try TCString(decoding: text)
                if let future = Self.futureDate(of: decoded, now: now) {
                    // Nobody decided in the future: such a string never expires, so it is no decision.
                    refused = future
                } else {
                    stored = (text, decoded)
                }
            } catch {
                refused = "\(error)"
            }
        }
        let addtlConsent = Self.checkedAC(request.addtlConsent)
        let current = stored.map { ConsentState(tcString: $0.decoded, additionalConsent: addtlConsent) }
        let verdict = Self.materialChange(Self.rules.evaluate(AskRules.Situation(
            gdprApplies: gdpr, decision: current, tcfPolicyVersion: list.tcfPolicyVersion,
            publisherVendorIds: IDSet(validIds: site.vendorIds), adTechProviderIds: IDSet(validIds: site.adTechProviders.map(\.id)),
            nonPersonalizedOnly: site.nonPersonalizedOnly, now: now)), stored: stored?.decoded, notice: site.notice)
        let reopen = (request.reopen ?? false) && gdpr != .doesNotApply
        let language = site.language(Self.language(request.language))

        var json = JSONWriter(capacity: 4096, escaping: .standard)
        json.beginObject()
        // A visitor whose region is unknown was asked because GDPR could not be ruled out: GDPR
        // applies to the decision they hold, as in the app (AskRules.gdprApplies(region:hasDecision:)).
        json.key("gdprApplies")
        json.raw(Self.rules.gdprApplies(region: gdpr, hasDecision: current != nil).flag.map { $0 ? "true" : "false" } ?? "null")
        json.key("region"); json.string(region.region.rawValue)
        if let subdivision = region.subdivision { json.key("subdivision"); json.string(subdivision) }
        let tcfApplies = Self.rules.gdprApplies(region: gdpr, hasDecision: current != nil).flag == true
        let usChoice = USGPP.visitorChoice(own: request.usChoice, storedString: request.gppString)
        // The string alone of an older page, written while GPC forced its opt-outs: they hold, and
        // the visitor is asked again once the signal is off, for an answer of their own (decision record 0046).
        let usUnanswered = usChoice == nil || (request.usChoice == nil && !gpc && USGPP.possiblyForced(request.gppString))
        let gpp = try Self.sessionGPP(region: region, site: site, tcfApplies: tcfApplies, tcString: verdict.shouldAsk ? nil : stored?.text,
                                      usChoice: usChoice, gpc: gpc)
        json.key("gpp"); json.raw(Self.gppJSON(gpp, settings: site.usPrivacy, bounds: TCData.Bounds(vendorList: list)))
        // The US notice at collection: for a visitor without a choice, or who reopened it.
        let usApplicability = region.gpp(site.usPrivacy)
        let usReopen = request.reopen ?? false
        let usDocument = !tcfApplies && region.region == .us && !usApplicability.applicableSections.isEmpty && (usUnanswered || usReopen)
            ? try usDocument(site, applicability: usApplicability, subdivision: region.subdivision, gpc: gpc, current: usChoice,
                             language: language, reopen: usReopen)
            : nil
        json.key("ask")
        if verdict.shouldAsk {
            json.string(Self.name(of: verdict))
        } else if usDocument != nil, usUnanswered {
            json.string("noDecision")
        } else {
            json.null()
        }
        json.key("cmpId"); json.integer(cmp.cmpId)
        json.key("cmpVersion"); json.integer(cmp.cmpVersion)
        json.key("gvlVersion"); json.integer(list.vendorListVersion)
        json.key("tcfPolicyVersion"); json.integer(list.tcfPolicyVersion ?? 0)
        json.key("tcData")
        if gdpr == .doesNotApply {
            json.raw(try TCData.notApplicable(cmp: cmp, tcfPolicyVersion: list.tcfPolicyVersion ?? 0).json())
        } else if let stored, !verdict.shouldAsk {
            json.raw(try TCData(tcString: stored.text, decoded: stored.decoded, addtlConsent: addtlConsent, cmp: cmp,
                                bounds: TCData.Bounds(vendorList: list)).json(idMaps: .binaryStrings))
        } else {
            json.null()
        }
        if verdict.shouldAsk || reopen {
            // Without the vendors' details: the page loads them when its vendor list opens (vendorDetails(appId:language:)).
            let details = SiteNotices.vendorDetailsURL(appId: appId, language: language, version: list.vendorListVersion)
            let (scope, document): (ConsentScope, String)
            if current == nil, !reopen {
                // A visitor without a decision: the site's notice as every such visitor gets it.
                let notice = try notices.notice(site: site, language: language, version: list.vendorListVersion, reason: Self.name(of: verdict)) {
                    try exchange(site, language: language, current: nil, reopen: false, reason: verdict)
                }
                (scope, document) = (notice.scope, notice.documentJSON)
            } else {
                let exchange = try exchange(site, language: language, current: current, reopen: reopen, reason: verdict)
                (scope, document) = (exchange.scope, String(decoding: exchange.document.webJSON(vendorDetailsUrl: details), as: UTF8.self))
            }
            json.key("uiTCData"); json.raw(try shownTCData(scope: scope, language: language, now: now).json(idMaps: .binaryStrings))
            json.key("document"); json.raw(document)
        }
        if let usDocument {
            let details = SiteNotices.vendorDetailsURL(appId: appId, language: language, version: list.vendorListVersion)
            json.key("document"); json.raw(String(decoding: usDocument.webJSON(vendorDetailsUrl: details), as: UTF8.self))
        }
        if let refused { json.key("storedStringRefused"); json.string(refused) }
        json.endObject()
        return json.text
    }

    /// The details of the vendors of `appId`'s notice in `language` (a browser's tag, as for a
    /// page view), as the page loads them: 404 `website_unknown` for an app without a website.
    func vendorDetails(appId: String, language tag: String?) throws -> ServedDocument {
        let site = try site(appId: appId)
        let language = site.language(Self.language(tag))
        return try notices.notice(site: site, language: language, version: catalog.vendorList.vendorListVersion,
                                  reason: Self.name(of: .noDecision)) {
            try exchange(site, language: language, current: nil, reopen: false, reason: .noDecision)
        }.vendorDetails
    }

    /// A choice the page sends (``ConsentdAPI/WebChoiceRequest``): the notice's result
    /// (`message`, kept as its JSON text for `NoticeResult` to check), or the app's decision
    /// handed to its web view (`appConsent`), with what the page's document was built from.
    struct ChoiceRequest: Sendable {
        var credential: String
        var language: String?
        var tcString: String?
        var addtlConsent: String?
        var reopen: Bool
        var subjectId: String?
        /// The GPP string the US notice's document was built with.
        var gppString: String?
        /// The visitor's own US choice the US notice's document was built with.
        var usChoice: USChoiceRecord?
        /// The browser's Global Privacy Control (the body's `gpc`; the route ORs in `Sec-GPC: 1`).
        var gpc: Bool
        /// The region to pretend, as for the page view.
        var debugRegion: DebugRegion?
        /// The notice's result message, as its JSON text.
        var message: Data?
        /// The app's consent, with the app's own credential.
        var appConsent: AppConsent?

        /// Reads the body: its keys checked (``ConsentRequests/WebRequestFields``), then decoded.
        init(json: Data) throws {
            do throws(InvalidField) {
                try WebRequestFields.checkChoice(json)
            } catch {
                throw APIError(error)
            }
            let body = try RequestBody.decode(WebChoiceRequest.self, from: json)
            credential = body.credential
            language = body.language
            tcString = body.tcString
            addtlConsent = body.addtlConsent
            reopen = body.reopen ?? false
            subjectId = body.subjectId
            gppString = body.gppString
            usChoice = body.usChoice
            gpc = body.gpc ?? false
            debugRegion = body.debugRegion
            if let message = body.message {
                guard case .object = message else { throw APIError.badRequest("message must be the notice's result object", field: "message") }
                self.message = try JSONEncoder().encode(message)
            } else if let app = body.appConsent {
                appConsent = AppConsent(app)
            } else {
                throw APIError.badRequest("message (the notice's result) or appConsent (the app's decision) is required", field: "message")
            }
        }
    }

    /// A choice checked and turned into what is recorded; nil when the notice was closed
    /// without one, which is then `closed`: what the analytics count of it (its notice version,
    /// language and `web`, docs/decisions/0044), nil whenever a choice was made. A result the
    /// document does not allow is refused (422), and so is an app string that does not decode.
    ///
    /// In the US (`region` names a US section for the site) the message is the US notice's result
    /// (``usChoice(_:site:applicability:subdivision:gpc:noticeId:now:)``); elsewhere the TCF's.
    /// Every recorded choice carries what `__gpp` answers after it (``WebChoiceRecord/gpp``).
    func choice(_ request: ChoiceRequest, appId: String, region: RegionDecision, now: Date) throws
        -> (action: String, choice: WebChoiceRecord?, closed: NoticeClose?) {
        let site = try site(appId: appId)
        let usApplicability = region.gpp(site.usPrivacy)
        if request.appConsent == nil, region.gdprApplies == false, region.region == .us, !usApplicability.applicableSections.isEmpty {
            return try usChoice(request, site: site, applicability: usApplicability, subdivision: region.subdivision, gpc: request.gpc,
                                noticeId: "web:" + appId, now: now)
        }
        let language = site.language(Self.language(request.language))
        let noticeId = "web:" + appId
        if let app = request.appConsent {
            // Recorded for the app's subject (the route authenticates appConsent.subjectToken).
            let decoded = try app.decoded(cmp: cmp, now: now)
            if let ac = app.addtlConsent, Self.checkedAC(ac) == nil {
                throw APIError(.unprocessableContent, "invalid_consent_string",
                               "the app's Additional Consent string is not one: 2~consented ids~dv.disclosed ids (such as 2~89~dv.1051), "
                               + "ids decimal from 1 without leading zeros", field: "appConsent.addtlConsent")
            }
            let addtlConsent = Self.checkedAC(app.addtlConsent)
            // The event's vendor lists name only the vendors of the list held now, as its TCData
            // does (issue 24, H1: a string may name every vendor id up to 65,535); the string is kept whole.
            let full = ConsentState(tcString: decoded, additionalConsent: addtlConsent, collectedAt: now)
            let listed = IDSet(validIds: catalog.vendorList.vendors.keys)
            let decision = full.changing(at: now) { changes in
                changes.setVendors(consented: full.vendorConsents.intersection(listed), among: full.vendorConsents)
                changes.setVendorLegitimateInterests(kept: full.vendorLegitimateInterests.intersection(listed), among: full.vendorLegitimateInterests)
            }
            return ("sync", try Self.tcfRecord(RecordedChoice(
                decision: decision,
                context: ConsentEventContext(method: .sync, noticeId: noticeId, platform: .web, cmp: cmp, subjectId: app.subjectId),
                received: ConsentEventContext.ReceivedStrings(tcString: app.tcString, additionalConsent: addtlConsent))), nil)
        }
        let current = request.tcString.flatMap { text -> ConsentState? in
            guard !text.isEmpty, let decoded = try? TCString(decoding: text), Self.futureDate(of: decoded, now: now) == nil else { return nil }
            return ConsentState(tcString: decoded, additionalConsent: Self.checkedAC(request.addtlConsent))
        }
        let exchange = try exchange(site, language: language, current: current, reopen: request.reopen, reason: .noDecision)
        let choice: NoticeExchange.Choice?
        do {
            choice = try exchange.decide(try NoticeResult(json: request.message ?? Data(), document: exchange.document), at: now)
        } catch {
            throw APIError(.unprocessableContent, "notice_result_refused", "\(error)", field: "message")
        }
        guard let choice else {
            let closed = NoticeClose(noticeVersion: String(exchange.document.noticeVersion), language: language.lowercased(), platform: .web)
            return (NoticeResult.Action.dismissed.rawValue, nil, closed)
        }
        let context = ConsentEventContext(method: choice.method, noticeId: noticeId, platform: .web, cmp: cmp, subjectId: request.subjectId,
                                          documentHash: exchange.documentHash)
        return (choice.result.action.rawValue, try Self.tcfRecord(RecordedChoice(decision: choice.decision, context: context)), nil)
    }

    // MARK: - The notice

    /// The scope a site's notice covers in `language`: its vendors on the vendor list held now.
    func scope(_ site: Site, language: String) throws -> ConsentScope {
        guard !site.vendorIds.isEmpty else {
            throw APIError(.unprocessableContent, "notice_unavailable",
                           "the website \(site.website.appId) has no vendor of the vendor list held now: check its publishers' vendorIds")
        }
        let trimmed = try catalog.trimmed(vendorIds: site.vendorIds, language: language)
        let list = try VendorList(jsonData: trimmed.body)
        return ConsentScope(vendorList: list, vendorIds: IDSet(validIds: site.vendorIds), publisherCC: "AA", consentLanguage: language,
                            noticeVersion: site.notice?.noticeVersion ?? 0, adTechProviderIds: IDSet(validIds: site.adTechProviders.map(\.id)))
    }

    /// The notice for `site` in `language`, opening on the present choices.
    func exchange(_ site: Site, language: String, current: ConsentState?, reopen: Bool, reason: AskRules.Verdict) throws -> NoticeExchange {
        let settings = noticeSettings(site, language: language)
        let scope = try scope(site, language: language)
        do {
            return try NoticeExchange(
                scope: scope, settings: settings, cmp: cmp, current: current,
                request: NoticeRequest(reason: reopen ? .decisionHolds : reason, allowsDismissal: reopen, isUserInitiated: reopen),
                adTechProviders: site.adTechProviders)
        } catch {
            throw APIError(.unprocessableContent, "notice_unavailable", "\(error)")
        }
    }

    /// How `site`'s notice looks and what it names, in `language`: as published in the console
    /// when a version was, else as configured.
    func noticeSettings(_ site: Site, language: String) -> NoticeSettings {
        if let notice = site.notice { return notice.options.settings(language: language) }
        return NoticeSettings(
            publisherName: site.website.name, logo: site.website.logo, privacyPolicyURL: site.website.privacyPolicyURL,
            theme: site.website.theme, layout: site.website.layout, language: language,
            storageDisclosureBase: URL(string: "/v1/vendor-list/storage"))
    }

    /// What the CMP API says while the notice is on screen (CMP API, `cmpuishown`): no consent
    /// and no opt-in, legitimate interests established for the vendors and purposes disclosed.
    func shownTCData(scope: ConsentScope, language: String, now: Date) throws -> TCData {
        let all = ConsentState.agreeToAll(scope: scope, at: now)
        let shown = try all.changing(at: now) { changes in
            for id in all.purposeConsents { try changes.setPurpose(id, consent: false) }
            for id in all.specialFeatureOptIns { try changes.setSpecialFeature(id, optIn: false) }
            for id in all.vendorConsents { try changes.setVendor(id, consent: false) }
            for id in all.publisherConsents { try changes.setPublisherPurpose(id, consent: false) }
            for id in all.adTechProviderConsents { try changes.setAdTechProvider(id, consent: false) }
            changes.consentLanguage = language.uppercased()
        }
        let encoded = try shown.tcString(cmp: cmp).encoded()
        return TCData(tcString: encoded, decoded: try TCString(decoding: encoded), addtlConsent: shown.additionalConsentString, cmp: cmp,
                      bounds: TCData.Bounds(vendorList: scope.vendorList))
    }

    // MARK: - Small rules

    /// `verdict`, or a material notice change (decision record 0043) when it lets a stored
    /// decision hold that was last updated before the day `notice`'s material version was
    /// published: a TC string carries no notice version, only the day it was last updated.
    static func materialChange(_ verdict: AskRules.Verdict, stored: TCString?, notice: PublishedNotice?) -> AskRules.Verdict {
        guard case .decisionHolds = verdict, let stored, let notice, notice.materialVersion > 0 else { return verdict }
        let day = floor(notice.materialSince.timeIntervalSince1970 / 86_400) * 86_400
        guard stored.lastUpdated.date.timeIntervalSince1970 < day else { return verdict }
        return .materialNoticeChange(decidedOn: 0, current: notice.materialVersion)
    }

    /// Why a string's Created or LastUpdated lies after `now` by more than the clock skew events
    /// are allowed (`CheckedConsentEvent.allowedClockSkew`, 10 minutes); nil when neither does.
    static func futureDate(of string: TCString, now: Date) -> String? {
        let latest = now.addingTimeInterval(CheckedConsentEvent.allowedClockSkew)
        for (name, stamp) in [("Created", string.created), ("LastUpdated", string.lastUpdated)] where stamp.date > latest {
            return "its \(name) (\(stamp.iso8601)) lies more than 10 minutes after the server's clock"
        }
        return nil
    }

    /// An ISO 639-1 code from a browser's language tag (`de-AT` → `de`, `nb-NO` → `no`:
    /// `NoticeTexts.language(of:)`); English when it is not one.
    static func language(_ tag: String?) -> String {
        NoticeTexts.language(of: tag ?? "") ?? "en"
    }

    /// An Additional Consent string the page kept, when it has the shape Google specifies (and
    /// the one spelling of its ids `POST /v1/consents` accepts); nil otherwise.
    static func checkedAC(_ text: String?) -> String? {
        guard let text, AdditionalConsent.parse(text) != nil, CheckedConsentEvent.isWellFormedAdditionalConsent(text) else { return nil }
        return text
    }

    /// The ask rules' reason, as the page reads it.
    static func name(of verdict: AskRules.Verdict) -> String {
        switch verdict {
        case .gdprDoesNotApply: "gdprDoesNotApply"
        case .regionUnknown: "regionUnknown"
        case .underAgeOfConsent: "underAgeOfConsent"
        case .decisionHolds: "decisionHolds"
        case .noDecision: "noDecision"
        case .policyVersionChanged: "policyVersionChanged"
        case .vendorsAdded: "vendorsAdded"
        case .adTechProvidersAdded: "adTechProvidersAdded"
        case .nonPersonalizedOnlyChanged: "nonPersonalizedOnlyChanged"
        case .expired: "expired"
        case .materialNoticeChange: "materialNoticeChange"
        }
    }
}
