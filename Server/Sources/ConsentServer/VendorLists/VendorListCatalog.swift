import Foundation
import Synchronization
import TCF

/// The Global Vendor List consentd holds, its translations, and the trimmed per-publisher lists
/// cut from it.
///
/// It starts from the snapshot bundled with the server and may be replaced by a newer list
/// (`replace(with:)`); a list that does not decode, or is older than the one held, is refused and
/// the last good copy stays.
public final class VendorListCatalog: Sendable {
    private struct Held: Sendable {
        var list: VendorList
        var document: ServedDocument
        var trimmed: [String: ServedDocument] = [:]
    }

    private let held: Mutex<Held>
    private let translations: [String: (document: ServedDocument, translation: VendorListTranslation)]
    /// How many trimmed lists are cached before the cache starts over.
    static let trimmedCacheLimit = 512

    /// Creates a catalog from a vendor list and translation files (`language → purposes-xx.json`).
    public init(vendorList: Data, translations: [String: Data] = [:]) throws {
        let list = try VendorList(jsonData: vendorList)
        self.held = Mutex(Held(list: list, document: ServedDocument(body: vendorList)))
        var loaded: [String: (ServedDocument, VendorListTranslation)] = [:]
        for (language, data) in translations {
            loaded[language.lowercased()] = (ServedDocument(body: data), try VendorListTranslation(jsonData: data))
        }
        self.translations = loaded
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
    public var languages: [String] { translations.keys.sorted() }

    /// The translation file for a language, nil when none is loaded.
    public func translation(_ language: String) -> ServedDocument? {
        translations[language.lowercased()]?.document
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
            held = Held(list: list, document: document)
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
        if let requested = language?.lowercased(), requested != "en", translations[requested] == nil {
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
        let (source, etag, list) = held.withLock { ($0.document.body, $0.document.etag, $0.list) }
        var translation: ServedDocument?
        var fallback: String?
        if let requested, requested != "en" {
            if let loaded = translations[requested] {
                let missing = list.untranslated(by: loaded.translation)
                if missing.isEmpty {
                    translation = loaded.document
                } else {
                    let shown = missing.prefix(5).joined(separator: ", ") + (missing.count > 5 ? " and \(missing.count - 5) more" : "")
                    fallback = "the \(requested.uppercased()) translation loaded does not cover vendor list "
                        + "v\(list.gvlSpecificationVersion) #\(list.vendorListVersion): it has no text for \(shown)"
                }
            }
        }
        let key = "\(etag)|\(requested ?? "")|\(vendorIds.map(String.init).joined(separator: ","))"
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
