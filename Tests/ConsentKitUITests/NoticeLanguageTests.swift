import ConsentKit
import ConsentKitUI
import Foundation
import TCF
import Testing

/// Issue 27 §4: the notice in every language the TCF lists as a consent language, whole in one
/// language on every screen.
@Suite("The notice's languages")
struct NoticeLanguageTests {
    /// The 24 official languages of the European Union.
    static let officialEULanguages: Set<String> = [
        "bg", "cs", "da", "de", "el", "en", "es", "et", "fi", "fr", "ga", "hr",
        "hu", "it", "lt", "lv", "mt", "nl", "pl", "pt", "ro", "sk", "sl", "sv",
    ]

    /// The TCF's consent languages for GVL v3 as the IAB's reference library lists them
    /// (`@iabtechlabtcf/core`, `ConsentLanguages`; decision 0021), each variant (PT-BR, PT-PT,
    /// SR-LATN, SR-CYRL, ZH-HANT) as the two letters of its language.
    static let tcfConsentLanguages: Set<String> = [
        "ar", "bg", "bs", "ca", "cs", "cy", "da", "de", "el", "en", "es", "et", "eu", "fi", "fr", "gl",
        "he", "hi", "hr", "hu", "id", "it", "ja", "ka", "ko", "lt", "lv", "mk", "ms", "mt", "nl", "no",
        "pl", "pt", "ro", "ru", "sk", "sl", "sq", "sr", "sv", "sw", "th", "tl", "tr", "uk", "vi", "zh",
    ]

    /// The languages of the IAB's official translations in `Fixtures/gvl/translations-v2-2020/`.
    static let officialTranslations: [String] = {
        let folder = Fixtures.root.appendingPathComponent("gvl/translations-v2-2020")
        let files = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return files.filter { $0.hasPrefix("purposes-") && $0.hasSuffix(".json") }
            .map { String($0.dropFirst("purposes-".count).dropLast(".json".count)) }.sorted()
    }()

    /// The placeholders of a text (`{vendorCount}`), sorted.
    private static func placeholders(_ text: String) -> [String] {
        var found: [String] = []
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            found.append(String(rest[open...close]))
            rest = rest[rest.index(after: close)...]
        }
        return found.sorted()
    }

    private func document(_ manager: ConsentManager, settings: NoticeSettings = publisherSettings) throws -> NoticeDocument {
        try NoticeSession(manager: manager, settings: settings, request: NoticeRequest(reason: .noDecision, allowsDismissal: false)).document
    }

    @Test("the notice has UI texts for the 24 official EU languages, every TCF consent language and every official GVL translation in Fixtures")
    func everyConsentLanguageHasTexts() {
        #expect(Self.officialTranslations.count == 25)
        let wanted = Self.officialEULanguages.union(Self.tcfConsentLanguages).union(Self.officialTranslations)
        let missing = wanted.subtracting(NoticeTexts.languages())
        #expect(missing.isEmpty, "no UI texts for \(missing.sorted())")
    }

    @Test("every language file has exactly English's keys, none empty, each with English's placeholders")
    func everyFileHasEnglishKeysAndPlaceholders() throws {
        let english = try #require(try NoticeTexts.load("en"))
        for language in NoticeTexts.languages() {
            let texts = try #require(try NoticeTexts.load(language), "\(language)")
            #expect(Set(texts.texts.keys) == Set(english.texts.keys), "\(language): keys differ")
            for (key, text) in texts.texts {
                #expect(!text.trimmingCharacters(in: .whitespaces).isEmpty, "\(language).\(key) is empty")
                guard let original = english.texts[key] else { continue }
                let own = Self.placeholders(text), wanted = Self.placeholders(original)
                // A plural form (vendors_one, tcfVendors_two, ...) may leave the count out (Arabic
                // says "one vendor", "two vendors" in words).
                if Self.isPluralForm(key) {
                    #expect(Set(own).isSubset(of: Set(wanted)), "\(language).\(key): \(own) not among \(wanted)")
                } else {
                    #expect(own == wanted, "\(language).\(key): \(own) instead of \(wanted)")
                }
            }
        }
    }

    /// Whether `key` is one form of a plural family: a name ending in a CLDR plural category.
    static func isPluralForm(_ key: String) -> Bool {
        ["zero", "one", "two", "few", "many", "other"].contains { key.hasSuffix("_\($0)") }
    }

    @Test("a language tag with a region or script (pt-BR, sr-Latn, zh_Hant) asks for its language's texts; Bokmål and Nynorsk for Norwegian")
    func regionalTagsUseTheLanguage() {
        #expect(NoticeTexts.language(of: "pt-BR") == "pt")
        #expect(NoticeTexts.language(of: "sr-Latn") == "sr")
        #expect(NoticeTexts.language(of: "zh_Hant") == "zh")
        #expect(NoticeTexts.language(of: "DE") == "de")
        #expect(NoticeTexts.language(of: "nb-NO") == "no" && NoticeTexts.language(of: "nn") == "no")
        #expect(NoticeTexts.language(of: "x-klingon") == nil)
        #expect(NoticeTexts.language(of: "deu") == nil)
    }

    @Test("a TCF notice on an official translation (v2 #224 with the 2020 files) is whole in that language, for each of them",
          arguments: officialTranslations)
    func translatedListIsWhole(language: String) async throws {
        let translated = Fixtures.v2v224.translated(by: try Fixtures.translation(language), language: language)
        #expect(Fixtures.v2v224.untranslated(by: try Fixtures.translation(language)).isEmpty, "\(language) does not cover v2 #224")
        let manager = await noticeManager(list: translated, vendorIds: [755, 21, 32], language: language.uppercased())
        let document = try document(manager)
        #expect(document.language == language && document.languageFallback == nil)
        #expect(document.texts == (try NoticeTexts.load(language))?.texts)
        for (id, purpose) in document.purposes {
            #expect(purpose.name == translated.purposes[Int(id)!]?.name.trimmingCharacters(in: .whitespacesAndNewlines))
            #expect(purpose.name != Fixtures.v2v224.purposes[Int(id)!]?.name, "\(language): purpose \(id) is still English")
        }
        guard case .decided(_, let decision, nil) = try NoticeSession(
            manager: manager, settings: publisherSettings, request: NoticeRequest(reason: .noDecision, allowsDismissal: false)
        ).receive(resultJSON("rejectAll", language: language)) else {
            Issue.record("\(language): not decided, or decided with a fallback"); return
        }
        #expect(decision.consentLanguage == language.uppercased())
    }

    @Test("with a list in English only (v3 #45), a TCF notice asked in any other language is whole in English and says so",
          arguments: NoticeTexts.languages().filter { $0 != "en" })
    func untranslatedListIsWholeEnglish(language: String) async throws {
        let document = try document(await noticeManager(language: language.uppercased()))
        #expect(document.language == "en" && document.direction == "ltr")
        #expect(document.languageFallback?.requested == language)
        #expect(document.texts == (try NoticeTexts.load("en"))?.texts)
        #expect(document.purposes["1"]?.name == Fixtures.v3v45.purposes[1]?.name.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    @Test("Google's form on an official translation (v2 #224 with the 2020 files) is whole in that language, its purposes included",
          arguments: officialTranslations)
    func googleFormOnATranslatedList(language: String) async throws {
        let translated = Fixtures.v2v224.translated(by: try Fixtures.translation(language), language: language)
        var settings = publisherSettings
        settings.mode = .google
        settings.language = language
        let document = try document(await noticeManager(list: translated, vendorIds: [755, 21, 32], language: language.uppercased()), settings: settings)
        #expect(document.language == language && document.languageFallback == nil)
        #expect(document.texts == (try NoticeTexts.load(language))?.texts)
        #expect(document.purposes["1"]?.name == translated.purposes[1]?.name.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    @Test("Google's form, which shows the list's purposes and special features, is whole in English on a list in English only, and says so",
          arguments: NoticeTexts.languages().filter { $0 != "en" })
    func googleFormOnAnEnglishListIsWholeEnglish(language: String) async throws {
        var settings = publisherSettings
        settings.mode = .google
        settings.language = language
        let document = try document(await noticeManager(), settings: settings)
        #expect(document.language == "en" && document.direction == "ltr")
        #expect(document.languageFallback?.requested == language)
        #expect(document.texts == (try NoticeTexts.load("en"))?.texts)
    }

    @Test("a regional tag for the notice (pt-PT on a Portuguese list) gives the Portuguese notice, recorded as PT")
    func regionalTagOnATranslatedList() async throws {
        let portuguese = Fixtures.v2v224.translated(by: try Fixtures.translation("pt"), language: "PT")
        var settings = publisherSettings
        settings.language = "pt-PT"
        let document = try document(await noticeManager(list: portuguese, vendorIds: [755, 21, 32], language: "PT"), settings: settings)
        #expect(document.language == "pt" && document.languageFallback == nil)
    }
}
