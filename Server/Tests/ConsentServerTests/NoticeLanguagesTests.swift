@testable import ConsentServer
import ConsentKitUI
import Foundation
import Hummingbird
import HummingbirdTesting
import TCF
import Testing

/// Issue 27 §4: the web notice in every language the notice has texts for, with the official
/// translation of the list in use, fetched with the list; whole in English, saying so, without one.
@Suite("The web notice's languages")
struct NoticeLanguagesTests {
    @Test("holding a translation of the list in use, the web notice is whole in that language, for every UI language",
          .timeLimit(.minutes(4)))
    func wholeInEveryLanguage() async throws {
        let catalog = try VendorListCatalog.bundled()
        let languages = NoticeTexts.languages().filter { $0 != "en" }
        for language in languages {
            _ = try catalog.replaceTranslation(
                language, with: try VendorListUpdatesTests.translation(of: catalog.document.body, prefix: "\(language.uppercased()) "))
        }
        let server = try await TestServer.make(catalog: catalog)
        try await server.test { client async throws in
            let key = try await server.consentd.demoSite.key(server.consentd.keys)
            for language in languages {
                // A browser's tag: with a region, and Norwegian as browsers say it (Bokmål).
                let tag = language == "no" ? "nb-NO" : "\(language)-XX"
                let answer = try await WebCMPAPITests.web(
                    client, "/v1/web/session", #"{"credential":"\#(key)","debugRegion":"eea","language":"\#(tag)"}"#)
                let document = try #require(answer.object["document"] as? [String: Any], "\(language)")
                #expect(document["language"] as? String == language && document["languageFallback"] is NSNull, "\(language)")
                #expect(document["texts"] as? [String: String] == (try NoticeTexts.load(language))?.texts, "\(language)")
                let purposes = try #require(document["purposes"] as? [String: [String: Any]])
                #expect(purposes.values.allSatisfy { ($0["name"] as? String)?.hasPrefix("\(language.uppercased()) ") == true },
                        "\(language): a purpose is not in that language")
            }
        }
    }

    @Test("the refresher fetches the translation of every language the notice has texts for with each list, asked for or not")
    func noticeLanguagesAreWanted() throws {
        let catalog = try VendorListCatalog.bundled()
        #expect(Set(catalog.wantedLanguages) == Set(NoticeTexts.languages()).subtracting(["en"]).union(catalog.languages))
        #expect(catalog.newlyRequestedLanguages.isEmpty, "nothing is fetched between lists for them")
    }

    @Test("a language whose translation the list in use lacks: the web notice is whole in English and says which was asked",
          .timeLimit(.minutes(1)))
    func wholeInEnglishWithoutATranslation() async throws {
        let server = try await TestServer.make(catalog: try VendorListCatalog.bundled())
        try await server.test { client async throws in
            let key = try await server.consentd.demoSite.key(server.consentd.keys)
            let answer = try await WebCMPAPITests.web(client, "/v1/web/session", #"{"credential":"\#(key)","debugRegion":"eea","language":"fi"}"#)
            let document = try #require(answer.object["document"] as? [String: Any])
            #expect(document["language"] as? String == "en")
            #expect((document["languageFallback"] as? [String: Any])?["requested"] as? String == "fi")
            #expect(document["texts"] as? [String: String] == (try NoticeTexts.load("en"))?.texts)
        }
        #expect(server.consentd.catalog.newlyRequestedLanguages == ["fi"], "asked once, fetched with the next refresh")
    }

    @Test("Portuguese, which the IAB translates per region, is fetched as purposes-pt-pt.json and served as PT",
          .timeLimit(.minutes(2)))
    func regionalTranslationFile() async throws {
        let catalog = try VendorListCatalog.bundled()
        let bundled = catalog.document.body
        let upstream = VendorListUpdatesTests.Upstream()
        upstream.serve("vendor-list.json", bundled)
        upstream.serve("purposes-pt-pt.json", try VendorListUpdatesTests.translation(of: bundled, prefix: "PT "))
        try await Application(router: upstream.router, configuration: .init(address: .hostname("127.0.0.1", port: 0))).test(.live) { client in
            let refresher = VendorListRefresher(url: "http://127.0.0.1:\(try #require(client.port))/v3/vendor-list.json",
                                                interval: .seconds(3600), catalog: catalog, logger: VendorListUpdatesTests.quietLogger)
            #expect(refresher.translationURLs("pt").map { $0.split(separator: "/").last! } == ["purposes-pt.json", "purposes-pt-pt.json"])
            #expect(refresher.translationURLs("de").count == 1)
            _ = await refresher.refresh()
            let fetched = upstream.fetched.withLock { $0 }
            let plain = try #require(fetched.firstIndex(of: "purposes-pt.json")), regional = try #require(fetched.firstIndex(of: "purposes-pt-pt.json"))
            #expect(plain < regional)
            let list = try VendorList(jsonData: try catalog.trimmed(vendorIds: [755], language: "pt").body)
            #expect(list.language == "PT" && list.purposes[1]?.name.hasPrefix("PT ") == true)
        }
    }
}
