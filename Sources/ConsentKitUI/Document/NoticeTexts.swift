import ConsentKit
import Foundation
import TCF

/// The notice's UI texts in one language: `Resources/notice/texts/{language}.json`, one file per
/// language, every file with the same keys.
public struct NoticeTexts: Sendable, Equatable {
    /// The language, ISO 639-1 lower case.
    public let language: String
    /// Text by key.
    public let texts: [String: String]

    /// The languages written right to left.
    static let rightToLeft: Set<String> = ["ar", "he", "fa", "ur"]

    /// Whether the language is written right to left.
    public var isRightToLeft: Bool { Self.rightToLeft.contains(language) }

    /// The texts of `language` from `directory` (the bundled ones by default); nil when the
    /// notice has no texts in that language.
    ///
    /// - Throws: ``NoticeDocumentError/resourceUnreadable(_:)`` when the file exists but is not
    ///   an object of strings.
    public static func load(_ language: String, from directory: URL? = nil) throws(NoticeDocumentError) -> NoticeTexts? {
        let code = language.lowercased()
        guard code.count == 2, code.allSatisfy({ $0 >= "a" && $0 <= "z" }) else { return nil }
        guard let file = (directory ?? NoticeResources.textsDirectory)?.appendingPathComponent("\(code).json") else { return nil }
        if let cached = cache.withLock({ $0[file] }) { return cached }
        guard FileManager.default.fileExists(atPath: file.path) else { return nil }
        let texts: NoticeTexts
        do {
            texts = NoticeTexts(language: code, texts: try JSONDecoder().decode([String: String].self, from: Data(contentsOf: file)))
        } catch {
            throw .resourceUnreadable("\(file.lastPathComponent): \(error)")
        }
        cache.withLock { $0[file] = texts }
        return texts
    }

    /// The ISO 639-1 code (lower case) of a language tag: `pt-BR` → `pt`, `sr-Latn` → `sr`,
    /// `DE` → `de`, and Norwegian Bokmål and Nynorsk (`nb-NO`, `nn`) → `no`, the code the TCF
    /// uses; nil when the tag does not start with a two-letter code. The notice's texts and the
    /// TC string's ConsentLanguage are per language, not per region or script (decision 0021).
    public static func language(of tag: String) -> String? {
        let code = tag.prefix { $0 != "-" && $0 != "_" }.lowercased()
        guard code.count == 2, code.allSatisfy({ $0 >= "a" && $0 <= "z" }) else { return nil }
        return code == "nb" || code == "nn" ? "no" : code
    }

    /// The texts with the vendor list's standard texts (``VendorList/standardTexts``, lists of
    /// TCF policy version 5) in place of the notice's own: the text of section `features` becomes
    /// `featuresIntro`, and so on for every section the notice has an intro for (`<section>Intro`).
    /// Applied only when the list is in the texts' language, so a screen never mixes two;
    /// unchanged for a list without standard texts.
    public func withStandardTexts(of list: VendorList) -> NoticeTexts {
        guard !list.standardTexts.isEmpty, list.language.lowercased() == language else { return self }
        var replaced = texts
        for (section, text) in list.standardTexts where replaced["\(section)Intro"] != nil {
            replaced["\(section)Intro"] = text
        }
        return NoticeTexts(language: language, texts: replaced)
    }

    /// The files read so far (they are resources: they do not change while the app runs).
    private static let cache = Locked<[URL: NoticeTexts]>([:])

    /// The languages the notice has texts for, sorted.
    public static func languages(in directory: URL? = nil) -> [String] {
        guard let directory = directory ?? NoticeResources.textsDirectory,
              let files = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return [] }
        return files.filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }.sorted()
    }
}

/// Where the notice's files are: the page, its style and script, the texts.
public enum NoticeResources {
    /// The folder holding `notice.html`, `notice.css`, `notice.js` and `texts/`. Looked up once:
    /// a bundle lookup was a tenth of building a notice's document.
    public static let directory: URL? = Bundle.module.url(forResource: "notice", withExtension: nil)

    /// The folder holding the CMP APIs' scripts: `cmp-frames.js` (what they share), `__tcfapi`'s
    /// `tcfapi-stub.js` and `tcfapi.js`, `__gpp`'s `gppapi-stub.js` and `gppapi.js`, and `web/`.
    public static let cmpDirectory: URL? = Bundle.module.url(forResource: "cmp", withExtension: nil)

    /// `notice.html`.
    public static var page: URL? { directory?.appendingPathComponent("notice.html") }

    /// The folder of UI texts.
    static let textsDirectory: URL? = directory?.appendingPathComponent("texts")
}
