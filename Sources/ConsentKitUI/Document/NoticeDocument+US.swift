import ConsentKit
import GPP
import Foundation

extension NoticeDocument {
    /// The US notice at collection (the document's `us` object, US mode): which section's law it
    /// follows and what it offers.
    public struct US: Sendable, Equatable, Codable {
        /// The API prefix of the applicable section: `usca`, or `usnat` for the national approach
        /// and where the state has no section or is unknown.
        public var section: String
        /// The visitor's two-letter state (`CA`), or nil when not known.
        public var state: String?
        /// Whether "Limit the Use of My Sensitive Personal Information" is offered: the section's
        /// sensitive data is an opt-out (CA, UT, IA).
        public var limitSensitive: Bool
        /// The host knows the user is a child: the opt-outs are on and not offered, and the text
        /// says why.
        public var knownChild: Bool
        /// A Global Privacy Control signal is honoured: the opt-outs are on and the notice says so.
        public var gpc: Bool
        /// MSPA Service Provider Mode: nothing is sold, shared or targeted; a notice only, no
        /// opt-out toggles.
        public var serviceProvider: Bool

        /// The `us` object.
        public init(section: String, state: String?, limitSensitive: Bool, knownChild: Bool, gpc: Bool, serviceProvider: Bool) {
            self.section = section
            self.state = state
            self.limitSensitive = limitSensitive
            self.knownChild = knownChild
            self.gpc = gpc
            self.serviceProvider = serviceProvider
        }

        /// The `us` object for the sections `applicability` names (the first US one: state
        /// sections come after usnat only when both apply, and then the notice follows usnat,
        /// which meets every state's law), the visitor's `subdivision` and `signals`; nil when no
        /// US section applies.
        public init?(applicability: GPPApplicability, subdivision: String?, signals: USPrivacySignals) {
            let ids = applicability.applicableSections.compactMap(GPPSectionID.init(rawValue:)).filter(\.isUS).sorted()
            guard let id = ids.first else { return nil }
            let law = USStatePrivacy.all.first { $0.section == id }
            self.init(
                section: id.prefix, state: subdivision.flatMap(USStateCode.parse), limitSensitive: law?.sensitiveData == .optOut,
                knownChild: signals.knownChild, gpc: signals.gpc,
                serviceProvider: applicability.mspaCoveredTransaction && applicability.mspaMode == .serviceProvider)
        }
    }

    /// The US notice at collection (mode `us`): the `us` object for the region decision's
    /// `applicability` (``ConsentKit/USPrivacySettings/applicability(region:subdivision:)``) and
    /// `subdivision`, the `signals` (GPC, a known child) and the user's `current` choice; the
    /// publisher's brand, privacy policy and texts from `settings` (whose mode is not read), in
    /// `settings.language` or else `language` when the notice has texts for it, English otherwise
    /// (``languageFallback`` says why). No TCF content: no vendors, purposes or stacks.
    ///
    /// consentd's web session and the app's notice both build it here; ``json()`` and
    /// ``webJSON(vendorDetailsUrl:)`` write it.
    ///
    /// - Throws: ``NoticeDocumentError/noUSSection`` when no US section applies; a theme or logo
    ///   the page cannot show; a missing privacy policy; an unknown or blank custom text; no texts
    ///   in the language asked for nor in English.
    public static func build(
        us applicability: GPPApplicability, subdivision: String?, signals: USPrivacySignals, current: USPrivacyChoice?,
        settings: NoticeSettings, cmp: CMPIdentity, noticeVersion: Int, language: String, request: NoticeRequest,
        textsDirectory: URL? = nil
    ) throws(NoticeDocumentError) -> NoticeDocument {
        guard let us = US(applicability: applicability, subdivision: subdivision, signals: signals) else { throw .noUSSection }
        try settings.validateBrand()
        guard let privacyPolicy = settings.privacyPolicyURL else { throw .missingPrivacyPolicyURL }
        let tag = settings.language ?? language
        let requested = NoticeTexts.language(of: tag) ?? tag.lowercased()
        let texts: NoticeTexts
        var fallback: LanguageFallback?
        if let wanted = try NoticeTexts.load(requested, from: textsDirectory) {
            texts = wanted
        } else if let english = try NoticeTexts.load("en", from: textsDirectory) {
            texts = english
            fallback = LanguageFallback(requested: requested, reason: "the notice has no UI texts in \(requested)")
        } else {
            throw .languageUnavailable(requested: requested, vendorList: "none")
        }
        let merged = try withCustomTexts(texts.texts, settings: settings)
        if let days = settings.choiceStorageDays, days < 1 { throw .choiceStorageDays(days) }
        return NoticeDocument(
            protocol: protocolVersion, mode: .us, language: texts.language, direction: texts.isRightToLeft ? "rtl" : "ltr",
            languageFallback: fallback, texts: merged,
            publisher: Publisher(
                name: settings.publisherName, appName: settings.appName ?? settings.publisherName, logo: settings.logo,
                privacyPolicyUrl: privacyPolicy.absoluteString),
            cmp: CMP(id: cmp.cmpId, version: cmp.cmpVersion), theme: settings.theme, layout: settings.layout,
            noticeVersion: noticeVersion, scope: "service", startLayer: request.isUserInitiated ? "purposes" : "first",
            allowsDismissal: request.allowsDismissal, adFree: AdFree(offered: false), choiceStorageDays: settings.choiceStorageDays,
            vendorListVersion: 0, tcfPolicyVersion: 0, purposes: [:], specialPurposes: [:], features: [:], specialFeatures: [:],
            dataCategories: [:], stacks: [], vendors: [], adTechProviders: [],
            current: current.map { NoticeChoices(us: USNoticeChoices($0)) }, google: nil, us: us)
    }
}
