import ConsentKit
import ConsentKitUI
import Foundation
import Testing

/// An app's notice built from the options published in consentd's console (decision record 0045):
/// `GET /v1/config`'s `notice.options` over the app's own ``NoticeSettings``.
@Suite("Notice sessions: the notice published in the console")
struct NoticeSessionPublishedOptionsTests {
    /// A dark-red brand, outlined buttons, a banner, purposes on the first layer, English and
    /// French texts of the publisher's own.
    static let options = NoticeOptions(
        publisherName: "Exemple Presse", privacyPolicyUrl: "https://presse.example/confidentialite",
        logo: "https://presse.example/logo.png", layout: .banner, firstLayer: .purposes, offersAdFree: false,
        theme: NoticeTheme(
            cornerRadius: 4,
            light: NoticeTheme.Palette(
                background: "#ffffff", surface: "#f6f1f1", text: "#1b1111", mutedText: "#4d3d3d", primary: "#8a1c1c",
                onPrimary: "#ffffff", border: "#d8c8c8", link: "#8a1c1c"),
            buttonStyle: .outlined),
        languages: ["en", "fr"],
        texts: ["en": ["noticeTitle": "Your choices at Exemple Presse"], "fr": ["noticeTitle": "Vos choix chez Exemple Presse"]])

    /// `/v1/config`'s `notice` with `options`, as consentd writes it.
    static func noticeJSON(version: Int = 5, material: Int = 4, options: NoticeOptions = options) throws -> String {
        let encoded = String(decoding: try JSONEncoder().encode(options), as: UTF8.self)
        return #"{"noticeVersion":\#(version),"materialNoticeVersion":\#(material),"options":\#(encoded)}"#
    }

    private static let request = NoticeRequest(reason: .noDecision, allowsDismissal: false, isUserInitiated: false)

    @Test("with published options, the notice has their title text, theme, layout, name, policy and first layer")
    func publishedOptionsBuildTheNotice() async throws {
        let manager = await noticeManager(notice: try Self.noticeJSON())
        #expect(manager.appConfig?.notice?.options == Self.options)
        let document = try NoticeSession(manager: manager, settings: publisherSettings, request: Self.request).document
        #expect(document.texts["noticeTitle"] == "Your choices at Exemple Presse")
        #expect(document.theme == Self.options.theme)
        #expect(document.theme.light.primary == "#8a1c1c" && document.theme.buttonStyle == .outlined)
        #expect(document.layout == .banner)
        #expect(document.publisher.name == "Exemple Presse")
        #expect(document.publisher.privacyPolicyUrl == "https://presse.example/confidentialite")
        #expect(document.publisher.logo == "https://presse.example/logo.png")
        #expect(document.stacks.isEmpty, "purposes on the first layer: no stacks")
    }

    @Test("without published options, the notice is the app's own")
    func withoutOptionsTheAppsOwn() async throws {
        let manager = await noticeManager(notice: #"{"noticeVersion":5,"materialNoticeVersion":4}"#)
        #expect(manager.appConfig?.notice != nil && manager.appConfig?.notice?.options == nil)
        let document = try NoticeSession(manager: manager, settings: publisherSettings, request: Self.request).document
        #expect(document.texts["noticeTitle"] == "Privacy settings")
        #expect(document.theme == .standard)
        #expect(document.layout == .auto)
        #expect(document.publisher.name == "Example News")
        #expect(document.publisher.privacyPolicyUrl == "https://news.example/privacy")
        #expect(!document.stacks.isEmpty, "the app's settings put stacks on the first layer")
    }

    @Test("a language the options do not offer is shown in their default, with the publisher's texts in it")
    func unofferedLanguageTakesTheDefault() async throws {
        // Asked for German; without options the notice falls back to English and says so.
        let own = await noticeManager(language: "DE")
        let ownDocument = try NoticeSession(manager: own, settings: publisherSettings, request: Self.request).document
        #expect(ownDocument.language == "en" && ownDocument.languageFallback?.requested == "de")
        // The options offer English and French, English first: a German user is shown their default.
        let published = await noticeManager(language: "DE", notice: try Self.noticeJSON())
        let document = try NoticeSession(manager: published, settings: publisherSettings, request: Self.request).document
        #expect(document.language == "en")
        #expect(document.languageFallback == nil)
        #expect(document.texts["noticeTitle"] == "Your choices at Exemple Presse")
    }

    @Test("an offered language the vendor list cannot show whole falls back to English with the publisher's English texts")
    func fallbackUsesTheEnglishTexts() async throws {
        // French is offered, but the app's vendor list is English: the screen is English.
        let manager = await noticeManager(language: "FR", notice: try Self.noticeJSON())
        let document = try NoticeSession(manager: manager, settings: publisherSettings, request: Self.request).document
        #expect(document.language == "en")
        #expect(document.languageFallback?.requested == "fr")
        #expect(document.texts["noticeTitle"] == "Your choices at Exemple Presse")
    }

    @Test("the app's own settings the console does not edit stay the app's: mode, app name, stack descriptions")
    func appsOwnFieldsStay() async throws {
        var settings = publisherSettings
        settings.appName = "Example News App"
        settings.stackDescriptions = [1: "Our own description of stack 1"]
        settings.choiceStorageDays = 180
        let applied = settings.applying(Self.options, language: "fr-FR")
        #expect(applied.mode == .tcf && applied.appName == "Example News App")
        #expect(applied.stackDescriptions == [1: "Our own description of stack 1"] && applied.usesNonStandardTexts)
        #expect(applied.choiceStorageDays == 180)
        #expect(applied.language == "fr")
        #expect(applied.customTexts == ["noticeTitle": "Vos choix chez Exemple Presse"])
        #expect(applied.publisherName == "Exemple Presse" && applied.theme == Self.options.theme && applied.layout == .banner)
        #expect(applied.privacyPolicyURL == URL(string: "https://presse.example/confidentialite"))
    }

    @Test("an app that applies /v1/config's notice version records under it and shows the published look")
    func versionsAndLookTogether() async throws {
        let notice = try Self.noticeJSON(version: 5, material: 4)
        // Started with the version of an earlier answer, as an app applying /v1/config does.
        let manager = await noticeManager(notice: notice, noticeVersion: 5)
        let published = try #require(manager.appConfig?.notice)
        #expect(manager.configuration.noticeVersion == published.noticeVersion)
        let session = try NoticeSession(manager: manager, settings: publisherSettings, request: Self.request)
        #expect(session.document.noticeVersion == 5)
        #expect(session.document.texts["noticeTitle"] == "Your choices at Exemple Presse")
        guard case .decided(_, let decision, _) = session.receive(resultJSON("acceptAll", noticeVersion: 5)) else {
            Issue.record("the decision was not recorded")
            return
        }
        #expect(decision.noticeVersion == 5)
        #expect(manager.consent?.noticeVersion == 5)
    }
}
