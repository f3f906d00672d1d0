import Foundation
import ConsentKitUI
import Synchronization
import TCF

/// The Global Vendor List consentd holds, its translations, and the trimmed per-publisher lists
/// cut from it.
///
/// It starts from the snapshot bundled with the server and may be replaced by a newer list
/// (`replace(with:)`); a list that does not decode, or is older than the one held, is refused and
/// the last good copy stays. Translations likewise: the bundled ones, replaced by the official
/// files the refresher fetches (`replaceTranslation(_:with:)`) for the notice's languages, the
/// languages loaded and the languages clients ask for (``wantedLanguages``).
public final class VendorListCatalog: Sendable {
    private struct Held: Sendable {
        var list: VendorList
        var document: ServedDocument
        var trimmed: [String: ServedDocument] = [:]
        var translations: [String: (document: ServedDocument, translation: VendorListTranslation)] = [:]
        /// Languages clients asked for that no translation is loaded for and no fetch was tried
        /// yet; with ``failed``, at most ``requestedLanguageLimit``.
        var requested: Set<String> = []
        /// Languages asked for whose fetch failed: tried again with the next list only.
        var failed: Set<String> = []
    }

    private let held: Mutex<Held>
    /// How many trimmed lists are cached before the cache starts over.
    static let trimmedCacheLimit = 512
    /// How many languages nothing is loaded for are remembered to be fetched (made-up tags must
    /// not make consentd fetch without bound).
    static let requestedLanguageLimit = 64

    /// Creates a catalog from a vendor list and translation files (`language → purposes-xx.json`).
    public init(vendorList: Data, translations: [String: Data] = [:]) throws {
        let list = try VendorList(jsonData: vendorList)
        var loaded: [String: (ServedDocument, VendorListTranslation)] = [:]
        for (language, data) in translations {
            loaded[language.lowercased()] = (ServedDocument(body: data), try VendorListTranslation(jsonData: data))
        }
        self.held = Mutex(Held(list: list, document: ServedDocument(body: vendorList), translations: loaded))
    }

    /// The vendor list and translations bundled with consentd (GVL v3), or the list in
    /// `vendorListFile` and the translations in `translationsDirectory` where given.
    public static func load(vendorListFile: String? = nil, translationsDirectory: String? = nil) throws -> VendorListCatalog {
        guard let bundled = Bundle.module.url(forResource: "vendor-list", withExtension: nil) else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSLocalizedDescriptionKey: "the bundled vendor list is missing"])
        }
        let list = try Data(contentsOf: vendorListFile.map { URL(fileURLWithPath: $0) } ?? bundled.appendingPathComponent("vendor-list.json"))
        let directory = translationsDirectory.map { URL(fileURLWithPath: $0) } ?? bundled
        var translations: [String: Data] = [:]
        for file in try FileManager.default.contentsOfDirectory(atPath: directory.path)
        where file.hasPrefix("purposes-") && file.hasSuffix(".json") {
            let language = String(file.dropFirst("purposes-".count).dropLast(".json".count))
            translations[language] = try Data(contentsOf: directory.appendingPathComponent(file))
        }
        return try VendorListCatalog(vendorList: list, translations: translations)
    }

    /// The vendor list and translations bundled with consentd (GVL v3).
    public static func bundled() throws -> VendorListCatalog {
        try load()
    }

    /// The list held now.
    public var vendorList: VendorList { held.withLock { $0.list } }

    /// The list held now, as served.
    public var document: ServedDocument { held.withLock { $0.document } }

    /// How many trimmed lists are cached now.
    var cachedTrimmedCount: Int { held.withLock { $0.trimmed.count } }

    /// The languages a translation is loaded for.
    public var languages: [String] { held.withLock { $0.translations.keys.sorted() } }

    /// The languages whose official translation the refresher fetches with the list: those the
    /// notice has UI texts for (so the first visitor in one of them already gets the list in it),
    /// those loaded and those clients asked for (`trimmed(vendorIds:language:)`), lowercase, sorted.
    public var wantedLanguages: [String] {
        held.withLock { $0.requested.union($0.failed).union($0.translations.keys).union(Self.noticeLanguages).sorted() }
    }

    /// The languages but English that the notice has UI texts for (decision 0021).
    static let noticeLanguages = Set(NoticeTexts.languages()).subtracting(["en"])

    /// The languages asked for since the last fetch of the list that nothing is loaded for and no
    /// fetch was tried for yet.
    public var newlyRequestedLanguages: [String] { held.withLock { $0.requested.sorted() } }

    /// The translation file for a language, nil when none is loaded.
    public func translation(_ language: String) -> ServedDocument? {
        held.withLock { $0.translations[language.lowercased()]?.document }
    }

    /// Why the translation loaded for `language` may not be served with the list held (it lacks
    /// a text the list has: a 2020 GVL v2 translation beside a v3 list); nil when it covers the
    /// list or none is loaded.
    public func translationGap(_ language: String) -> String? {
        let language = language.lowercased()
        return held.withLock { held in
            held.translations[language].flatMap { Self.gap(of: $0.translation, language: language, in: held.list) }
        }
    }

    /// Why `translation` does not cover `list` (the first texts it lacks), nil when it does.
    private static func gap(of translation: VendorListTranslation, language: String, in list: VendorList) -> String? {
        let missing = list.untranslated(by: translation)
        guard !missing.isEmpty else { return nil }
        let shown = missing.prefix(5).joined(separator: ", ") + (missing.count > 5 ? " and \(missing.count - 5) more" : "")
        return "the \(language.uppercased()) translation loaded does not cover vendor list "
            + "v\(list.gvlSpecificationVersion) #\(list.vendorListVersion): it has no text for \(shown)"
    }

    /// Loads `data` as the translation of `language` (`de`, `pt-br`), in place of the one held.
    /// Returns whether it changed; throws (keeping the old one) when `data` is not a translation file.
    /// It is served only with a list it covers (see ``trimmed(vendorIds:language:)``).
    @discardableResult
    public func replaceTranslation(_ language: String, with data: Data) throws -> Bool {
        let translation: VendorListTranslation
        do {
            translation = try VendorListTranslation(jsonData: data)
        } catch {
            throw VendorListUpdateError.invalid("\(error)")
        }
        let language = language.lowercased()
        let document = ServedDocument(body: data)
        return held.withLock { held in
            if held.translations[language]?.document.etag == document.etag { return false }
            held.translations[language] = (document, translation)
            held.requested.remove(language)
            held.failed.remove(language)
            // Cached lists in that language were cut with the old texts.
            held.trimmed.removeAll()
            return true
        }
    }

    /// Remembers that a client asked for `language`, so that the refresher fetches its official
    /// translation; a tag that is no language code (`xx` or `xx-yy`), or one past
    /// ``requestedLanguageLimit``, is not remembered.
    func noteRequested(_ language: String) {
        guard Self.isLanguageCode(language) else { return }
        held.withLock { held in
            guard held.translations[language] == nil, !held.failed.contains(language),
                  held.requested.count + held.failed.count < Self.requestedLanguageLimit else { return }
            held.requested.insert(language)
        }
    }

    /// Remembers that fetching `language`'s translation failed: it is tried again with the next
    /// list, not at each look for new languages.
    func noteFetchFailed(_ language: String) {
        held.withLock { held in
            guard held.translations[language] == nil, held.requested.remove(language) != nil else { return }
            held.failed.insert(language)
        }
    }

    /// Whether `tag` is a lowercase language code as the IAB names its files: `de`, `pt-br`, `sr-cyrl`.
    static func isLanguageCode(_ tag: String) -> Bool {
        let parts = tag.split(separator: "-", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), parts[0].count == 2 else { return false }
        return parts.allSatisfy { (2...4).contains($0.count) && $0.allSatisfy { ("a"..."z").contains($0) } }
    }

    /// Replaces the list with `data` when it decodes and is at least as new as the one held.
    /// Returns whether the list changed; throws (keeping the old list) when `data` is not a usable list.
    @discardableResult
    public func replace(with data: Data) throws -> Bool {
        let list: VendorList
        do {
            list = try VendorList(jsonData: data)
        } catch {
            throw VendorListUpdateError.invalid("\(error)")
        }
        return try held.withLock { held in
            // The format first: GVL v3 restarted the numbering, so v2 #224 is older than v3 #45.
            guard (list.gvlSpecificationVersion, list.vendorListVersion) >= (held.list.gvlSpecificationVersion, held.list.vendorListVersion) else {
                throw VendorListUpdateError.older(
                    offered: "v\(list.gvlSpecificationVersion) #\(list.vendorListVersion)",
                    held: "v\(held.list.gvlSpecificationVersion) #\(held.list.vendorListVersion)")
            }
            let document = ServedDocument(body: data)
            if document.etag == held.document.etag { return false }
            held.list = list
            held.document = document
            held.trimmed.removeAll()
            return true
        }
    }

    /// The list cut to `vendorIds`: every purpose, feature, stack and data category, only those
    /// vendors, with names and descriptions in `language` when a loaded translation covers the
    /// list held.
    ///
    /// The answer is in one language throughout, and says which in `language` (`"EN"`, `"DE"`).
    /// A translation covers the list when it has a text for each of its purposes, special
    /// purposes, features, special features and data categories
    /// (`VendorList.untranslated(by:)`); the stacks it lacks are left out of the translated
    /// list. Otherwise the list comes in English, and `languageFallback` says what was asked and
    /// why it is not given: `{"requested": "DE", "reason": "…"}`. So a 2020 GVL v2 translation is
    /// never served with a v3 list, whose purpose 11 and data categories it lacks.
    ///
    /// Lists are cached only for the languages a translation is loaded for (and English): a
    /// language tag consentd does not hold is answered from the English list's cache entry, with
    /// its `languageFallback` added, so that made-up tags neither build a list each nor push the
    /// lists in use out of the cache.
    public func trimmed(vendorIds: [Int], language: String?) throws -> ServedDocument {
        if let requested = language?.lowercased(), requested != "en", translation(requested) == nil {
            noteRequested(requested)
            let languages = self.languages
            let english = try trimmed(vendorIds: vendorIds, language: nil)
            let reason = "no \(requested.uppercased()) translation is loaded"
                + (languages.isEmpty ? "" : " (loaded: \(languages.map { $0.uppercased() }.joined(separator: ", ")))")
            let note = try JSONSerialization.data(withJSONObject: ["requested": requested.uppercased(), "reason": reason], options: [.sortedKeys])
            // The English list is a JSON object written by this catalog: the note goes in first.
            var body = Data(#"{"languageFallback":"#.utf8)
            body.append(note)
            body.append(contentsOf: Array(",".utf8))
            body.append(english.body.dropFirst())
            return ServedDocument(body: body)
        }
        return try cachedTrimmed(vendorIds: vendorIds, language: language)
    }

    /// ``trimmed(vendorIds:language:)`` for English or a loaded translation, through the cache.
    private func cachedTrimmed(vendorIds: [Int], language: String?) throws -> ServedDocument {
        let requested = language.map { $0.lowercased() }.flatMap { $0 == "en" ? nil : $0 }
        let (source, etag, list, translations) = held.withLock { ($0.document.body, $0.document.etag, $0.list, $0.translations) }
        var translation: ServedDocument?
        var fallback: String?
        if let requested, requested != "en" {
            if let loaded = translations[requested] {
                fallback = Self.gap(of: loaded.translation, language: requested, in: list)
                if fallback == nil { translation = loaded.document }
            }
        }
        let key = "\(etag)|\(requested ?? "")|\(translations[requested ?? ""]?.document.etag ?? "")|\(vendorIds.map(String.init).joined(separator: ","))"
        if let cached = held.withLock({ $0.trimmed[key] }) { return cached }

        guard var object = try JSONSerialization.jsonObject(with: source) as? [String: Any] else {
            throw VendorListUpdateError.invalid("the held vendor list is not a JSON object")
        }
        let wanted = Set(vendorIds.map(String.init))
        if let vendors = object["vendors"] as? [String: Any] {
            object["vendors"] = vendors.filter { wanted.contains($0.key) }
        }
        object["language"] = "EN"
        if let translation, let requested, let translated = try JSONSerialization.jsonObject(with: translation.body) as? [String: Any] {
            // standardTexts (policy version 5 lists): the translation's text replaces each the
            // list has; one the list lacks is not added (as VendorList.translated(by:) does), so
            // no language shows a text the English list does not.
            if let own = object["standardTexts"] as? [String: Any], let texts = translated["standardTexts"] as? [String: Any] {
                object["standardTexts"] = own.merging(texts.filter { own[$0.key] != nil }) { $1 }
            }
            for section in ["purposes", "specialPurposes", "features", "specialFeatures", "stacks", "dataCategories"] {
                guard var entries = object[section] as? [String: Any] else { continue }
                let texts = translated[section] as? [String: Any] ?? [:]
                if section == "stacks" { entries = entries.filter { texts[$0.key] != nil } }
                for (id, text) in texts {
                    guard var entry = entries[id] as? [String: Any], let text = text as? [String: Any] else { continue }
                    for field in ["name", "description", "illustrations", "descriptionLegal"] where text[field] != nil {
                        entry[field] = text[field]
                    }
                    entries[id] = entry
                }
                object[section] = entries
            }
            object["language"] = requested.uppercased()
        }
        if let fallback, let requested {
            object["languageFallback"] = ["requested": requested.uppercased(), "reason": fallback]
        }
        let document = ServedDocument(body: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]))
        held.withLock { held in
            if held.document.etag != etag { return }
            if held.trimmed.count >= Self.trimmedCacheLimit { held.trimmed.removeAll() }
            held.trimmed[key] = document
        }
        return document
    }
}

/// A vendor list refused as a replacement.
public enum VendorListUpdateError: Error, CustomStringConvertible, Sendable {
    /// It does not decode as a vendor list.
    case invalid(String)
    /// It is older than the list held (format, then version; both as `v3 #45`).
    case older(offered: String, held: String)

    /// A sentence saying why.
    public var description: String {
        switch self {
        case .invalid(let reason): "not a usable vendor list: \(reason)"
        case .older(let offered, let held): "vendor list \(offered) is older than the \(held) held"
        }
    }
}
