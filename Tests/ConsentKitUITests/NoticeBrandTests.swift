import ConsentKit
import ConsentKitUI
import Foundation
import TCF
import Testing

/// The publisher's layout and brand, and the guardrails around them (decision record 0020).
@Suite("The notice's layout and brand")
struct NoticeBrandTests {
    private func document(_ settings: NoticeSettings) async throws -> NoticeDocument {
        try NoticeSession(manager: await noticeManager(), settings: settings, request: NoticeRequest(reason: .noDecision, allowsDismissal: false)).document
    }

    private func refusal(_ settings: NoticeSettings) async -> NoticeDocumentError? {
        do {
            _ = try await document(settings)
            return nil
        } catch {
            guard case .document(let refused) = error as? NoticeSessionError else { return nil }
            return refused
        }
    }

    @Test("the layout the publisher picks is the document's, auto when it picks none")
    func layout() async throws {
        #expect(try await document(publisherSettings).layout == .auto)
        var settings = publisherSettings
        settings.layout = .banner
        let banner = try await document(settings)
        #expect(banner.layout == .banner)
        #expect(String(decoding: banner.json(), as: UTF8.self).contains(#""layout":"banner""#))
    }

    @Test("the font stack and button style reach the page and read back from its JSON")
    func brandInJSON() async throws {
        var settings = publisherSettings
        settings.theme.fontFamily = #""Source Sans 3", Helvetica, sans-serif"#
        settings.theme.buttonStyle = .outlined
        let built = try await document(settings)
        let decoded = try JSONDecoder().decode(NoticeDocument.self, from: built.json())
        #expect(decoded == built)
        #expect(decoded.theme.fontFamily == #""Source Sans 3", Helvetica, sans-serif"#)
        #expect(decoded.theme.buttonStyle == .outlined)
    }

    @Test("a theme written before fonts and button styles reads as the system font with filled buttons")
    func olderTheme() throws {
        var object = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(NoticeTheme.standard)) as? [String: Any])
        object["buttonStyle"] = nil
        object["fontFamily"] = nil
        #expect(Set(object.keys) == ["cornerRadius", "light", "dark"])
        let theme = try JSONDecoder().decode(NoticeTheme.self, from: JSONSerialization.data(withJSONObject: object))
        #expect(theme == .standard && theme.fontFamily == nil && theme.buttonStyle == .filled)
    }

    @Test("muted text or links below 4.5:1 on the cards are refused, naming the colour and what it is on")
    func contrastOnSurface() async throws {
        var settings = publisherSettings
        settings.theme.light.surface = "#8a8f98"  // the muted text passes on white, not on this grey
        let refused = await refusal(settings)
        guard case .theme(.insufficientContrast("light", let field, "surface", let ratio, 4.5)) = refused else {
            Issue.record("not refused for the surface: \(String(describing: refused))")
            return
        }
        #expect(["text", "mutedText", "link"].contains(field) && ratio < 4.5)
        settings.theme = .standard
        settings.theme.dark.link = "#4a6fa0"
        #expect(await refusal(settings) == .theme(.insufficientContrast(
            appearance: "dark", field: "link", on: "background", ratio: (NoticeTheme.contrast("#4a6fa0", "#15171b") * 100).rounded() / 100,
            minimum: 4.5)))
        #expect(refused?.description.contains("theme.light.\(field) on surface") == true)
    }

    @Test("outlined buttons are refused when the brand colour is below 4.5:1 on the background")
    func outlinedContrast() async throws {
        var settings = publisherSettings
        settings.theme.buttonStyle = .outlined
        #expect(await refusal(settings) == nil)
        // A mid blue: black text on it reaches 5:1, the blue on white does not reach 4.5:1.
        settings.theme.light.primary = "#5b8def"
        settings.theme.light.onPrimary = "#000000"
        let refused = await refusal(settings)
        guard case .theme(.insufficientContrast("light", "primary", "background", _, 4.5)) = refused else {
            Issue.record("not refused: \(String(describing: refused))")
            return
        }
        settings.theme.buttonStyle = .filled
        #expect(await refusal(settings) == nil)
    }

    @Test("a font stack is family names ending in a generic family; anything else is refused")
    func fontStacks() async throws {
        for accepted in ["sans-serif", "Georgia, serif", #""Source Sans 3", 'Noto Sans', system-ui"#, "Helvetica Neue, Arial, sans-serif"] {
            #expect(throws: Never.self, "\(accepted)") { try NoticeTheme(fontFamily: accepted).validate() }
        }
        for refused in ["Georgia", "", "Georgia,, serif", "x; color: red, serif", "url(https://fonts.example/f.woff), serif",
                        #""Bad "quote", serif"#, "Inter}, sans-serif"] {
            #expect(throws: NoticeThemeError.fontFamily(refused), "\(refused)") { try NoticeTheme(fontFamily: refused).validate() }
        }
    }

    @Test("Accept all and Reject all are renamed together or not at all")
    func equalLabels() async throws {
        var settings = publisherSettings
        settings.customTexts = ["acceptAll": "Accept all and continue"]
        #expect(await refusal(settings) == .unequalActionLabels(renamed: "acceptAll", kept: "rejectAll"))
        settings.customTexts = ["rejectAll": "Continue without accepting"]
        #expect(await refusal(settings) == .unequalActionLabels(renamed: "rejectAll", kept: "acceptAll"))
        settings.customTexts = ["acceptAll": "Agree", "rejectAll": "Disagree"]
        let both = try await document(settings)
        #expect(both.texts["acceptAll"] == "Agree" && both.texts["rejectAll"] == "Disagree")
    }

    @Test("a blank custom text is refused, naming the setting")
    func blankLabels() async throws {
        var settings = publisherSettings
        settings.customTexts = ["acceptAll": "Accept", "rejectAll": " \n"]
        #expect(await refusal(settings) == .blankText("customTexts.rejectAll"))
        settings.customTexts = ["manageOptions": ""]
        #expect(await refusal(settings) == .blankText("customTexts.manageOptions"))
    }

    @Test("a logo the page cannot show is refused when the document is built")
    func logos() async throws {
        var settings = publisherSettings
        for accepted in ["data:image/png;base64,iVBORw0KGgo=", "https://news.example/logo.svg"] {
            settings.logo = accepted
            #expect(await refusal(settings) == nil, "\(accepted)")
        }
        for refused in ["http://news.example/logo.png", "data:image/svg+xml;base64,PHN2Zz4=", "javascript:alert(1)", "/logo.png"] {
            settings.logo = refused
            #expect(await refusal(settings) == .logo(refused), "\(refused)")
        }
    }

    @Test("UI texts alone leave UseNonStandardTexts off")
    func uiTextsAreStandard() async throws {
        var settings = publisherSettings
        settings.customTexts = ["acceptAll": "Agree", "rejectAll": "Disagree", "purposesIntro": "Choose."]
        #expect(!settings.usesNonStandardTexts)
        let exchange = try NoticeExchange(
            scope: try await noticeManager().scope(), settings: settings, cmp: noticeCMP, current: nil, request: NoticeRequest(reason: .noDecision, allowsDismissal: false))
        #expect(!exchange.scope.useNonStandardTexts)
    }

    @Test("a modified stack description is shown and marks the decision UseNonStandardTexts")
    func stackDescription() async throws {
        let manager = await noticeManager()
        let standard = try await document(publisherSettings)
        let stack = try #require(standard.stacks.first)
        var settings = publisherSettings
        settings.stackDescriptions = [stack.id: "Ads and content chosen for you, and measured."]
        #expect(settings.usesNonStandardTexts)
        let notice = try NoticeSession(manager: manager, settings: settings, request: NoticeRequest(reason: .noDecision, allowsDismissal: false))
        #expect(notice.document.stacks.first { $0.id == stack.id }?.description == "Ads and content chosen for you, and measured.")
        guard case .decided = notice.receive(resultJSON("acceptAll")) else { Issue.record("not decided"); return }
        #expect(try #require(manager.consent?.tcString(cmp: manager.cmp)).useNonStandardTexts)
    }

    @Test("modified illustrations are shown and mark the decision UseNonStandardTexts")
    func illustrations() async throws {
        let manager = await noticeManager()
        var settings = publisherSettings
        settings.purposeIllustrations = [1: ["We keep your reading position in a cookie."]]
        let notice = try NoticeSession(manager: manager, settings: settings, request: NoticeRequest(reason: .noDecision, allowsDismissal: false))
        #expect(notice.document.purposes["1"]?.illustrations == ["We keep your reading position in a cookie."])
        #expect(notice.scope?.useNonStandardTexts == true)
    }

    @Test("a stack description or illustrations of something the list lacks, or blank ones, are refused")
    func ownTextsChecked() async throws {
        var settings = publisherSettings
        settings.stackDescriptions = [999: "x"]
        #expect(await refusal(settings) == .unknownStack(999))
        settings.stackDescriptions = [1: "  "]
        #expect(await refusal(settings) == .blankText("stackDescriptions[1]"))
        settings.stackDescriptions = [:]
        settings.purposeIllustrations = [99: ["x"]]
        #expect(await refusal(settings) == .unknownPurpose(99))
        settings.purposeIllustrations = [2: []]
        #expect(await refusal(settings) == .blankText("purposeIllustrations[2]"))
    }
}
