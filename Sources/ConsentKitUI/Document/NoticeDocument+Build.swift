import ConsentKit
import Foundation
import TCF

extension NoticeDocument {
    /// The document for a notice covering `scope`: the disclosed vendors and what they use, in
    /// the vendor list's language with the UI texts of that language, the publisher's settings,
    /// and `current` (the user's present choices) unless the TCF policy changed since.
    ///
    /// The language is the one asked for (`settings.language`, else the scope's) when the vendor
    /// list is in it and the notice has texts for it; otherwise the whole screen is English and
    /// ``languageFallback`` says why.
    ///
    /// In Google mode the form offers the kinds of ads the settings allow and the scope can give
    /// (``Google``); "Pay for the ad-free version" is offered in either mode when
    /// ``NoticeSettings/offersAdFree``.
    ///
    /// - Throws: ``NoticeDocumentError`` for a theme that fails its checks, a logo the page cannot
    ///   show, a missing privacy policy, no vendor to disclose, an unknown or blank custom text
    ///   key, "Accept all" or "Reject all" renamed alone, a stack description or illustrations of
    ///   something the list does not have, a vendor list in a language the notice has no texts
    ///   for, or a Google form that would offer no kind of ads or no
    ///   refusal.
    public static func build(
        scope: ConsentScope, settings: NoticeSettings, cmp: CMPIdentity, current: ConsentState?, request: NoticeRequest,
        adTechProviders: [AppConfig.AdTechProvider] = [], textsDirectory: URL? = nil
    ) throws(NoticeDocumentError) -> NoticeDocument {
        guard settings.mode != .us else { throw .usModeNeedsUSBuild }
        try settings.validateBrand()
        guard let privacyPolicy = settings.privacyPolicyURL else { throw .missingPrivacyPolicyURL }
        let list = scope.vendorList
        try Self.checkOwnTexts(settings, list: list)
        // Positions in the list, not an array of vendor copies (copying them showed in profiles).
        let vendors = scope.vendorIds.compactMap { list.vendors.index(forKey: $0) }
        let listed = list.vendors.values
        let providers = adTechProviders.filter { scope.adTechProviderIds.contains($0.id) }.sorted { $0.id < $1.id }
        if vendors.isEmpty, settings.mode == .tcf || providers.isEmpty { throw .noVendors }

        let (texts, fallback) = try Self.texts(settings: settings, scope: scope, directory: textsDirectory)
        // A policy 5 list's standard texts stand in for the notice's own; the publisher's custom texts still win.
        let merged = try withCustomTexts(texts.withStandardTexts(of: list).texts, settings: settings)
        let renamed = ["acceptAll", "rejectAll"].filter { settings.customTexts[$0] != nil }
        if renamed.count == 1 {
            throw .unequalActionLabels(renamed: renamed[0], kept: renamed[0] == "acceptAll" ? "rejectAll" : "acceptAll")
        }

        // What the disclosed vendors (and the publisher) use.
        var purposes = scope.publisherPurposes.union(scope.publisherLegitimateInterestPurposes)
        var specialPurposes = IDSet(), features = IDSet(), specialFeatures = IDSet()
        for index in vendors {
            purposes = purposes.union(listed[index].purposes).union(listed[index].legIntPurposes).union(listed[index].flexiblePurposes)
            specialPurposes = specialPurposes.union(listed[index].specialPurposes)
            features = features.union(listed[index].features)
            specialFeatures = specialFeatures.union(listed[index].specialFeatures)
        }
        let language = texts.language
        let google = settings.mode == .google
            ? Google(
                personalizedOffered: settings.offersPersonalized && !scope.nonPersonalizedOnly
                    && scope.vendorIds.contains(GoogleConsentStatus.googleVendorId),
                nonPersonalizedOffered: settings.offersNonPersonalized, refusalOffered: settings.offersRefusal,
                appIcon: settings.appIcon)
            : nil
        if let google, !google.personalizedOffered, !google.nonPersonalizedOffered { throw .noGoogleChoice }
        if let google, !google.refusalOffered, !settings.offersAdFree { throw .googleFormWithoutRefusal }
        if let icon = google?.appIcon, !isImageURL(icon) { throw .appIconInvalid(icon) }
        if let days = settings.choiceStorageDays, days < 1 { throw .choiceStorageDays(days) }
        let present = current.flatMap { $0.isUnderPolicy(list.tcfPolicyVersion) ? $0 : nil }

        return NoticeDocument(
            protocol: protocolVersion, mode: settings.mode, language: language, direction: texts.isRightToLeft ? "rtl" : "ltr",
            languageFallback: fallback, texts: merged,
            publisher: Publisher(
                name: settings.publisherName, appName: settings.appName ?? settings.publisherName, logo: settings.logo,
                privacyPolicyUrl: privacyPolicy.absoluteString),
            cmp: CMP(id: cmp.cmpId, version: cmp.cmpVersion), theme: settings.theme, layout: settings.layout,
            noticeVersion: scope.noticeVersion,
            scope: "service", startLayer: request.isUserInitiated ? "purposes" : "first", allowsDismissal: request.allowsDismissal,
            adFree: AdFree(offered: settings.offersAdFree), choiceStorageDays: settings.choiceStorageDays, vendorListVersion: list.vendorListVersion,
            tcfPolicyVersion: list.tcfPolicyVersion ?? 0,
            purposes: declarations(list.purposes, purposes, illustrations: settings.purposeIllustrations), specialPurposes: declarations(list.specialPurposes, specialPurposes),
            features: declarations(list.features, features), specialFeatures: declarations(list.specialFeatures, specialFeatures),
            dataCategories: declarations(list.dataCategories, IDSet(validIds: list.dataCategories.keys)),
            stacks: settings.firstLayer == .stacks
                ? stacks(list, purposes: purposes, specialFeatures: specialFeatures, descriptions: settings.stackDescriptions) : [],
            vendors: vendors.map {
                vendor(listed[$0], language: language, storageBase: settings.storageDisclosureBase, restrictions: scope.publisherRestrictions)
            },
            adTechProviders: providers.map { AdTechProvider(id: $0.id, name: $0.name, privacyPolicyUrl: $0.privacyPolicyUrl) },
            current: present.map(NoticeChoices.init(_:)), google: google)
    }

    /// The UI texts and, when they are not in the language asked for, why.
    private static func texts(
        settings: NoticeSettings, scope: ConsentScope, directory: URL?
    ) throws(NoticeDocumentError) -> (NoticeTexts, LanguageFallback?) {
        let tag = settings.language ?? scope.consentLanguage
        let requested = NoticeTexts.language(of: tag) ?? tag.lowercased()
        let listLanguage = NoticeTexts.language(of: scope.vendorList.language) ?? scope.vendorList.language.lowercased()
        let wanted = try NoticeTexts.load(requested, from: directory)
        // Both modes show vendor-list texts (Google's form: the purposes, special features and
        // counts), so the UI texts are in the language asked for only when the list is too.
        if let wanted, listLanguage == requested { return (wanted, nil) }
        let reason = wanted == nil
            ? "the notice has no UI texts in \(requested)"
            : "the vendor list has no complete official translation in \(requested)"
        guard listLanguage == "en", let english = try NoticeTexts.load("en", from: directory) else {
            throw .languageUnavailable(requested: requested, vendorList: listLanguage)
        }
        return (english, requested == "en" ? nil : LanguageFallback(requested: requested, reason: reason))
    }


    /// `texts` with the publisher's custom texts in place of the standard ones.
    ///
    /// - Throws: ``NoticeDocumentError/unknownTextKey(_:)`` for a key the notice does not have,
    ///   ``NoticeDocumentError/blankText(_:)`` for an empty text.
    static func withCustomTexts(_ texts: [String: String], settings: NoticeSettings) throws(NoticeDocumentError) -> [String: String] {
        var merged = texts
        for (key, text) in settings.customTexts {
            guard merged[key] != nil else { throw .unknownTextKey(key) }
            guard !isBlank(text) else { throw .blankText("customTexts.\(key)") }
            merged[key] = text
        }
        return merged
    }

    /// The publisher's stack descriptions and illustrations name what the list has and say something.
    private static func checkOwnTexts(_ settings: NoticeSettings, list: VendorList) throws(NoticeDocumentError) {
        for (id, description) in settings.stackDescriptions.sorted(by: { $0.key < $1.key }) {
            guard list.stacks[id] != nil else { throw .unknownStack(id) }
            guard !isBlank(description) else { throw .blankText("stackDescriptions[\(id)]") }
        }
        for (id, illustrations) in settings.purposeIllustrations.sorted(by: { $0.key < $1.key }) {
            guard list.purposes[id] != nil else { throw .unknownPurpose(id) }
            guard !illustrations.isEmpty, !illustrations.contains(where: isBlank) else { throw .blankText("purposeIllustrations[\(id)]") }
        }
    }

    private static func declarations(
        _ all: [Int: TCF.Declaration], _ ids: IDSet, illustrations own: [Int: [String]] = [:]
    ) -> [String: Declaration] {
        var result: [String: Declaration] = [:]
        for id in ids {
            guard let declaration = all[id] else { continue }
            // Some published names end in a line break (GVL v3 #45's special purpose 1).
            result[String(id)] = Declaration(
                name: trimmed(declaration.name), description: trimmed(declaration.description),
                illustrations: own[id] ?? declaration.illustrations)
        }
        return result
    }

    /// Stacks that group only what the vendors use, the largest first, none sharing a purpose or
    /// special feature with another.
    private static func stacks(_ list: VendorList, purposes: IDSet, specialFeatures: IDSet, descriptions: [Int: String]) -> [Stack] {
        let candidates = list.stacks.values
            .filter { $0.purposes.count + $0.specialFeatures.count > 1 }
            .filter { $0.purposes.isSubset(of: purposes) && $0.specialFeatures.isSubset(of: specialFeatures) }
            .sorted { ($0.purposes.count + $0.specialFeatures.count, -$0.id) > ($1.purposes.count + $1.specialFeatures.count, -$1.id) }
        var takenPurposes = IDSet(), takenFeatures = IDSet()
        var chosen: [Stack] = []
        for stack in candidates
        where stack.purposes.intersection(takenPurposes).isEmpty && stack.specialFeatures.intersection(takenFeatures).isEmpty {
            takenPurposes = takenPurposes.union(stack.purposes)
            takenFeatures = takenFeatures.union(stack.specialFeatures)
            chosen.append(
                Stack(
                    id: stack.id, name: stack.name, description: descriptions[stack.id] ?? stack.description, purposes: Array(stack.purposes),
                    specialFeatures: Array(stack.specialFeatures)))
        }
        return chosen.sorted { $0.id < $1.id }
    }

    private static func vendor(
        _ vendor: borrowing TCF.Vendor, language: String, storageBase: URL?, restrictions: [PublisherRestriction]
    ) -> Vendor {
        let urls = vendor.urls.first { sameLanguage($0.langId, language) } ?? vendor.urls.first { sameLanguage($0.langId, "en") }
            ?? vendor.urls.first
        let retention = vendor.dataRetention.map { retention in
            Retention(
                std: retention.stdRetention,
                purposes: Dictionary(uniqueKeysWithValues: retention.purposes.map { (String($0.key), $0.value) }),
                specialPurposes: Dictionary(uniqueKeysWithValues: retention.specialPurposes.map { (String($0.key), $0.value) }))
        }
        return Vendor(
            id: vendor.id, name: vendor.name, purposes: vendor.purposes.sorted,
            legIntPurposes: LegitimateInterest.purposes(of: vendor, restrictions: restrictions).sorted,
            legitimateInterest: LegitimateInterest.isEstablished(for: vendor, restrictions: restrictions),
            flexiblePurposes: vendor.flexiblePurposes.sorted, specialPurposes: vendor.specialPurposes.sorted,
            features: vendor.features.sorted, specialFeatures: vendor.specialFeatures.sorted,
            dataCategories: vendor.dataDeclaration.sorted, retention: retention,
            privacyPolicyUrl: urls?.privacy ?? vendor.policyUrl, legIntClaimUrl: urls?.legIntClaim,
            usesCookies: vendor.usesCookies, cookieMaxAgeSeconds: vendor.cookieMaxAgeSeconds, cookieRefresh: vendor.cookieRefresh,
            usesNonCookieAccess: vendor.usesNonCookieAccess,
            storageDisclosureUrl: vendor.deviceStorageDisclosureUrl == nil
                ? nil : storageBase?.appendingPathComponent(String(vendor.id)).absoluteString)
    }
}

/// `text` without leading and trailing white space. Foundation's trimming is slow enough to
/// matter for a list's declarations, which rarely need it; they are checked first.
private func trimmed(_ text: String) -> String {
    guard let first = text.first, let last = text.last, first.isWhitespace || last.isWhitespace else { return text }
    return text.trimmingCharacters(in: .whitespacesAndNewlines)
}

/// Whether `url` is one the page shows as an image: a base64 `data:` URL of a PNG, JPEG, GIF or
/// WebP image, an `https:` URL, or a path on the consentd origin.
private func isImageURL(_ url: String) -> Bool {
    let types = ["png", "jpeg", "gif", "webp"]
    if types.contains(where: { url.hasPrefix("data:image/\($0);base64,") }) { return true }
    return url.hasPrefix("https://") || (url.hasPrefix("/") && !url.hasPrefix("//"))
}

/// Whether `text` says nothing: empty or only white space.
private func isBlank(_ text: String) -> Bool {
    text.allSatisfy(\.isWhitespace)
}

/// Whether two language codes are equal ignoring ASCII case, without making lower-cased copies
/// (a vendor has up to 40 policy URLs, and the list 800 vendors).
private func sameLanguage(_ code: String, _ lowercased: String) -> Bool {
    code.utf8.elementsEqual(lowercased.utf8) { byte, other in (byte | 0x20) == other }
}

extension NoticeChoices {
    /// The choices a decision holds.
    public init(_ state: ConsentState) {
        self.init(
            purposeConsents: Array(state.purposeConsents), purposeLegitimateInterests: Array(state.purposeLegitimateInterests),
            specialFeatureOptIns: Array(state.specialFeatureOptIns), vendorConsents: Array(state.vendorConsents),
            vendorLegitimateInterests: Array(state.vendorLegitimateInterests),
            adTechProviderConsents: Array(state.adTechProviderConsents))
    }
}
