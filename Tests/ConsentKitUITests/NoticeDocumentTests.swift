import ConsentKit
import ConsentKitUI
import Foundation
import TCF
import Testing

@Suite("The notice document")
struct NoticeDocumentTests {
    private func session(
        _ manager: ConsentManager, settings: NoticeSettings = publisherSettings, userInitiated: Bool = false
    ) throws -> NoticeSession {
        try NoticeSession(
            manager: manager, settings: settings,
            request: NoticeRequest(reason: .noDecision, allowsDismissal: userInitiated, isUserInitiated: userInitiated))
    }

    @Test("a publisher with 20 vendors: exactly those vendors, what they use, stacks that never share a purpose")
    func twentyVendors() async throws {
        let document = try session(await noticeManager()).document
        #expect(document.protocol == 1)
        #expect(document.vendors.map(\.id) == Array(Fixtures.twentyVendors))
        let used = Set(document.vendors.flatMap { $0.purposes + $0.legIntPurposes + $0.flexiblePurposes })
        #expect(Set(document.purposes.keys.compactMap(Int.init)) == used)
        #expect(Set(document.specialFeatures.keys.compactMap(Int.init)) == Set(document.vendors.flatMap(\.specialFeatures)))
        #expect(Set(document.features.keys.compactMap(Int.init)) == Set(document.vendors.flatMap(\.features)))
        for vendor in document.vendors {
            #expect(Set(vendor.legIntPurposes).isDisjoint(with: [1, 3, 4, 5, 6]), "vendor \(vendor.id)")
        }
        let stacked = document.stacks.flatMap(\.purposes)
        #expect(stacked.count == Set(stacked).count, "a purpose in two stacks")
        #expect(Set(stacked).isSubset(of: used))
        #expect(document.purposes["1"]?.illustrations.isEmpty == false)
        let google = try #require(document.vendors.first { $0.id == 755 })
        #expect(google.cookieMaxAgeSeconds == 34_190_000)
        #expect(google.privacyPolicyUrl?.hasPrefix("https://") == true)
        #expect(document.adTechProviders.map(\.id) == [89, 1301])
        #expect(document.language == "en" && document.direction == "ltr" && document.languageFallback == nil)
        #expect(document.startLayer == "first" && document.current == nil && document.cmp.id == 300 && document.cmp.version == 7)
    }

    @Test("a publisher with every vendor: 813 of v3 #45's 833, the deleted ones never appear")
    func allVendors() async throws {
        let all = IDSet(validIds: Fixtures.v3v45.vendors.keys)
        let document = try session(await noticeManager(vendorIds: all)).document
        let active = Fixtures.v3v45.activeVendors(at: noticeDate).map(\.id)
        #expect(document.vendors.map(\.id) == active)
        #expect(document.vendors.count == 813)
        let deleted = Fixtures.v3v45.vendors.values.filter { $0.isDeleted(at: noticeDate) }.map(\.id)
        #expect(deleted.count == 20)
        #expect(Set(document.vendors.map(\.id)).isDisjoint(with: deleted))
    }

    @Test("the document's JSON reads back as the same document (the writer and Codable agree)")
    func jsonRoundTrip() async throws {
        let manager = await noticeManager(vendorIds: IDSet(validIds: Fixtures.v3v45.vendors.keys))
        try manager.agreeToAll()
        var settings = publisherSettings
        settings.customTexts = [
            "acceptAll": "Quote \" backslash \\ newline \n tab \t </script> é 中 \u{1}", "rejectAll": "Refuse \u{1} </script>",
        ]
        settings.storageDisclosureBase = URL(string: "https://consent.example.com/v1/vendor-list/storage")
        let document = try session(manager, settings: settings, userInitiated: true).document
        let decoded = try JSONDecoder().decode(NoticeDocument.self, from: document.json())
        #expect(decoded == document)
        #expect(!String(decoding: document.json(), as: UTF8.self).contains("</script>"))
        var google = publisherSettings
        google.mode = .google
        let other = try session(manager, settings: google).document
        #expect(try JSONDecoder().decode(NoticeDocument.self, from: other.json()) == other)
    }

    @Test("a theme whose primary buttons fail 5:1 is refused, naming the colour and the ratio")
    func themeContrast() async throws {
        var settings = publisherSettings
        settings.theme.light.primary = "#6fa0ff"
        let manager = await noticeManager()
        #expect {
            try session(manager, settings: settings)
        } throws: { error in
            guard case .document(.theme(.insufficientContrast(let appearance, let field, _, let ratio, 5))) = error as? NoticeSessionError
            else { return false }
            return appearance == "light" && field == "onPrimary" && ratio < 5
        }
        #expect(NoticeTheme.contrast("#000000", "#ffffff") == 21)
        settings.theme = .standard
        settings.theme.dark.text = "red"
        #expect(throws: NoticeSessionError.document(.theme(.malformedColour(appearance: "dark", field: "text", value: "red")))) {
            try session(manager, settings: settings)
        }
        #expect(throws: Never.self) { try NoticeTheme.standard.validate() }
    }

    @Test("no privacy policy, or no vendor to disclose: a structured error, never an empty notice")
    func unrenderable() async throws {
        var settings = publisherSettings
        settings.privacyPolicyURL = nil
        let manager = await noticeManager()
        #expect(throws: NoticeSessionError.document(.missingPrivacyPolicyURL)) { try session(manager, settings: settings) }
        let deletedOnly = IDSet(validIds: Fixtures.v3v45.vendors.values.filter { $0.isDeleted(at: noticeDate) }.prefix(3).map(\.id))
        let emptyManager = await noticeManager(vendorIds: deletedOnly)
        #expect(throws: NoticeSessionError.document(.noVendors)) { try session(emptyManager) }
    }

    @Test("custom UI texts replace the standard ones without marking the decision UseNonStandardTexts; an unknown key is refused")
    func customTexts() async throws {
        var settings = publisherSettings
        settings.customTexts = ["acceptAll": "OK, fine", "rejectAll": "No, thanks"]
        let manager = await noticeManager()
        let notice = try session(manager, settings: settings)
        #expect(notice.document.texts["acceptAll"] == "OK, fine")
        guard case .decided = notice.receive(resultJSON("acceptAll")) else { Issue.record("not decided"); return }
        #expect(try #require(manager.consent?.tcString(cmp: manager.cmp)).useNonStandardTexts == false)
        settings.customTexts = ["no-such-text": "x"]
        #expect(throws: NoticeSessionError.document(.unknownTextKey("no-such-text"))) { try session(manager, settings: settings) }
    }

    @Test("the official translation is used whole where it covers the list (v2 #224 in German)")
    func translatedList() async throws {
        let german = Fixtures.v2v224.translated(by: try Fixtures.translation("de"), language: "DE")
        let manager = await noticeManager(list: german, vendorIds: [755, 21, 32], language: "DE")
        let document = try session(manager).document
        #expect(document.language == "de" && document.languageFallback == nil)
        #expect(document.purposes["1"]?.name == german.purposes[1]?.name)
        #expect(document.texts["acceptAll"] != nil)
        #expect(document.texts["acceptAll"] != (try NoticeTexts.load("en"))?.texts["acceptAll"])
    }

    @Test("a list consentd could not translate (v3 #45 asked in German) makes the whole screen English, and says so")
    func languageFallback() async throws {
        let translation = try Fixtures.translation("de")
        #expect(!Fixtures.v3v45.untranslated(by: translation).isEmpty)
        let manager = await noticeManager(language: "DE")
        let document = try session(manager).document
        #expect(document.language == "en")
        #expect(document.languageFallback?.requested == "de")
        #expect(document.texts == (try NoticeTexts.load("en"))?.texts)
        guard case .decided(_, let decision, let fallback) = try session(manager).receive(resultJSON("rejectAll")) else {
            Issue.record("not decided"); return
        }
        #expect(decision.consentLanguage == "EN" && fallback?.requested == "de")
    }

    @Test("Google's form asked in Arabic, which no official translation of the list covers: whole in English, left to right, saying so")
    func arabicGoogleForm() async throws {
        var settings = publisherSettings
        settings.mode = .google
        settings.language = "ar"
        let document = try session(await noticeManager(), settings: settings).document
        #expect(document.language == "en" && document.direction == "ltr" && document.languageFallback?.requested == "ar")
        #expect(document.google?.personalizedOffered == true)
    }

    @Test("reopened from the app's settings: the second layer, the present choices; after a policy change, none")
    func reopen() async throws {
        let manager = await noticeManager()
        try manager.agreeToAll()
        let document = try session(manager, userInitiated: true).document
        #expect(document.startLayer == "purposes" && document.allowsDismissal)
        #expect(document.current == NoticeChoices(try #require(manager.consent)))
        let old = try #require(manager.consent)
        let older = ConsentState(
            purposeConsents: old.purposeConsents, vendorListVersion: 20, tcfPolicyVersion: 2, created: noticeDate, updated: noticeDate)
        let rebuilt = try NoticeDocument.build(
            scope: manager.scope(), settings: publisherSettings, cmp: noticeCMP, current: older,
            request: NoticeRequest(reason: .noDecision, allowsDismissal: false))
        #expect(rebuilt.current == nil)
    }
}
