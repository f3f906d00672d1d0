// Writes consent notice documents with ConsentKitUI's builder (NoticeDocument), for the notice's
// browser tests (Tests/notice) and benchmarks: the SDK package alone builds them, no consentd.
//
//   NoticeDocuments --vendor-list GVL.json [--translations DIR] [--cmp-id ID --cmp-version VERSION]
//
// Reads one options object per line on standard input and writes one line for each: the document's
// JSON, or {"error": "…"} for options it refuses. The options are consentd's demo's (its
// `POST /demo/document`), and so is the publisher: "Example News", notice version 3, three Google
// ad-tech providers, vendors "20" (nineteen, then Google) or "all" of the list.
//   {"mode": "tcf" | "google", "language": "de", "vendors": "20" | "all", "reopen": true,
//    "adFree": true, "personalized": false, "nonPersonalized": false, "refusal": false, "appIcon": "data:…", "tcString": "C…"}
// ("personalized", "nonPersonalized" and "refusal": NoticeSettings.offersPersonalized, offersNonPersonalized and
// offersRefusal, on by default; "appIcon": NoticeSettings.appIcon.)
// A language is shown when an official translation in --translations (purposes-xx.json) covers
// the list, else the document is English and says why (languageFallback), as in an app.
import ConsentdAPI
import ConsentKit
import ConsentKitUI
import Foundation
import TCF

/// A refusal, written as the line's `error`.
struct Refusal: Error, CustomStringConvertible {
    let description: String
}

/// The command line.
struct Arguments {
    var vendorList: URL
    var translations: URL?
    var cmp = CMPIdentity.development

    init(_ arguments: [String]) throws {
        var vendorList: URL?
        var id: Int?, version = 1
        var rest = arguments.dropFirst()
        while let name = rest.popFirst() {
            guard let value = rest.popFirst() else { throw Refusal(description: "\(name) needs a value") }
            switch name {
            case "--vendor-list": vendorList = URL(fileURLWithPath: value)
            case "--translations": translations = URL(fileURLWithPath: value, isDirectory: true)
            case "--cmp-id": id = Int(value)
            case "--cmp-version": version = Int(value) ?? 0
            default: throw Refusal(description: "unknown option \(name)")
            }
        }
        guard let vendorList else {
            throw Refusal(description: "usage: NoticeDocuments --vendor-list GVL.json [--translations DIR] [--cmp-id ID --cmp-version VERSION]")
        }
        self.vendorList = vendorList
        if let id { cmp = CMPIdentity(cmpId: id, cmpVersion: version) }
    }
}

/// consentd's demo publisher, as `NoticeDemo` in the server package has it.
enum DemoPublisher {
    static let adTechProviders = [
        AppConfig.AdTechProvider(id: 89, name: "Example Ad Network", privacyPolicyUrl: "https://ads.example.net/privacy"),
        AppConfig.AdTechProvider(id: 1051, name: "Sample Measurement Co", privacyPolicyUrl: "https://measure.example.org/privacy"),
        AppConfig.AdTechProvider(id: 2677, name: "Demo Retargeting Ltd", privacyPolicyUrl: "https://retarget.example.com/policy"),
    ]
    static let noticeVersion = 3
}

/// One line's options.
struct Options: Decodable {
    var mode: NoticeSettings.Mode?
    var language: String?
    var vendors: String?
    var reopen: Bool?
    var adFree: Bool?
    var personalized: Bool?
    var nonPersonalized: Bool?
    var refusal: Bool?
    var appIcon: String?
    var tcString: String?
}

/// Builds documents on one vendor list and its translations.
struct Builder {
    let list: VendorList
    let translations: [String: VendorListTranslation]
    let cmp: CMPIdentity

    init(_ arguments: Arguments) throws {
        list = try VendorList(jsonData: Data(contentsOf: arguments.vendorList))
        var translations: [String: VendorListTranslation] = [:]
        if let folder = arguments.translations {
            for name in try FileManager.default.contentsOfDirectory(atPath: folder.path)
            where name.hasPrefix("purposes-") && name.hasSuffix(".json") {
                let language = String(name.dropFirst("purposes-".count).dropLast(".json".count)).lowercased()
                translations[language] = try VendorListTranslation(jsonData: Data(contentsOf: folder.appendingPathComponent(name)))
            }
        }
        self.translations = translations
        cmp = arguments.cmp
    }

    func document(_ options: Options) throws -> NoticeDocument {
        let mode = options.mode ?? .tcf
        let language = (options.language ?? "en").lowercased()
        guard language.count == 2, language.allSatisfy({ $0 >= "a" && $0 <= "z" }) else {
            throw Refusal(description: "language must be a two-letter ISO 639-1 code")
        }
        let everyVendor = list.activeVendors().map(\.id)
        let vendorIds: [Int]
        switch options.vendors ?? "20" {
        case "all": vendorIds = everyVendor
        case "20": vendorIds = Array(everyVendor.filter { $0 != GoogleConsentStatus.googleVendorId }.prefix(19)) + [GoogleConsentStatus.googleVendorId]
        default: throw Refusal(description: "vendors must be \"20\" or \"all\"")
        }
        // The list in that language when a translation covers it, else English.
        var shown = list
        if language != "en", let translation = translations[language], list.untranslated(by: translation).isEmpty {
            shown = list.translated(by: translation, language: language)
        }
        let scope = ConsentScope(
            vendorList: shown, vendorIds: IDSet(validIds: vendorIds), publisherCC: "DE", consentLanguage: language,
            noticeVersion: DemoPublisher.noticeVersion, adTechProviderIds: IDSet(validIds: DemoPublisher.adTechProviders.map(\.id)))
        let current = try options.tcString.map { text in
            do {
                return ConsentState(tcString: try TCString(decoding: text))
            } catch {
                throw Refusal(description: "tcString does not decode: \(error)")
            }
        }
        let settings = NoticeSettings(
            mode: mode, publisherName: "Example News", privacyPolicyURL: URL(string: "https://news.example.com/privacy"),
            offersAdFree: options.adFree ?? (mode == .google), offersPersonalized: options.personalized ?? true,
            offersNonPersonalized: options.nonPersonalized ?? true, language: language, storageDisclosureBase: URL(string: "/v1/vendor-list/storage"),
            offersRefusal: options.refusal ?? true, appIcon: options.appIcon)
        let reopen = options.reopen ?? false
        return try NoticeDocument.build(
            scope: scope, settings: settings, cmp: cmp, current: current,
            request: NoticeRequest(reason: .noDecision, allowsDismissal: reopen, isUserInitiated: reopen),
            adTechProviders: DemoPublisher.adTechProviders)
    }
}

func errorLine(_ message: String) -> String {
    let data = (try? JSONSerialization.data(withJSONObject: ["error": message])) ?? Data(#"{"error":"unprintable"}"#.utf8)
    return String(decoding: data, as: UTF8.self)
}

do {
    let builder = try Builder(Arguments(CommandLine.arguments))
    while let line = readLine() {
        guard !line.trimmingCharacters(in: .whitespaces).isEmpty else { continue }
        let answer: String
        do {
            let options = try JSONDecoder().decode(Options.self, from: Data(line.utf8))
            answer = String(decoding: try builder.document(options).json(), as: UTF8.self)
        } catch {
            answer = errorLine("\(error)")
        }
        // Written at once, unbuffered: the reader waits for this line before sending the next.
        FileHandle.standardOutput.write(Data((answer + "\n").utf8))
    }
} catch {
    FileHandle.standardError.write(Data("NoticeDocuments: \(error)\n".utf8))
    exit(2)
}
