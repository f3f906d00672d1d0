import ArgumentParser
import Foundation
import TCF

/// `consent gvl`: summarises a Global Vendor List file, or shows one vendor.
struct VendorListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gvl",
        abstract: "Summarise a Global Vendor List (v1, v2 or v3 JSON), or show one vendor."
    )

    @Argument(help: "A vendor-list.json file.")
    var file: String

    @Option(name: .long, help: "Show this vendor's declarations instead of the list summary.")
    var vendor: Int?

    @Option(name: .long, help: "A translation file (purposes-xx.json) whose texts replace the list's.")
    var translation: String?

    @Option(name: .long, help: "The language of --translation, like de (default: the xx of its file name).")
    var language: String?

    func run() throws {
        var list = try load(file) { try VendorList(jsonData: Data(contentsOf: URL(fileURLWithPath: file))) }
        if let translation {
            let texts = try load(translation) { try VendorListTranslation(jsonData: Data(contentsOf: URL(fileURLWithPath: translation))) }
            guard let language = language ?? Self.language(ofFile: translation) else {
                throw ValidationError("--language is needed: \(translation) does not end in -xx.json")
            }
            list = list.translated(by: texts, language: language)
        }
        if let vendor {
            guard let found = list.vendors[vendor] else {
                Output.error("consent gvl: vendor \(vendor) is not in vendor list \(list.vendorListVersion)")
                throw ExitCode.failure
            }
            Output.line(VendorListSummary.text(for: found, in: list))
        } else {
            Output.line(VendorListSummary.text(for: list))
        }
    }

    /// Runs `body`, turning a vendor-list error into a message naming `path` and an exit status.
    private func load<T>(_ path: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as VendorListError {
            Output.error("consent gvl: \(path): \(error)")
            throw ExitCode.failure
        }
    }

    /// `de` for `purposes-de.json`.
    static func language(ofFile path: String) -> String? {
        let name = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
        guard let dash = name.lastIndex(of: "-") else { return nil }
        let code = name[name.index(after: dash)...]
        return (2...3).contains(code.count) && code.allSatisfy(\.isLetter) ? String(code) : nil
    }
}

/// Readable text for a vendor list and its vendors.
enum VendorListSummary {
    /// The list's version, dates and sections, one declaration per line.
    static func text(for list: VendorList) -> String {
        let deleted = list.vendors.values.filter { $0.deletedDate != nil }.count
        var lines = [
            "Global Vendor List version \(list.vendorListVersion)",
            "  format          " + (list.gvlSpecificationVersion == 1 ? "TCF v1.1 vendorlist.json" : "GVL specification \(list.gvlSpecificationVersion)"),
            "  TCF policy      " + (list.tcfPolicyVersion.map { "\($0)" } ?? "none (v1 list)"),
            "  last updated    " + (list.lastUpdated.map { TCFTimestamp($0).iso8601 } ?? "unknown"),
            "  language        \(list.language)",
            "  vendors         \(list.vendors.count) (\(deleted) deleted), ids \(list.vendors.keys.min() ?? 0)-\(list.vendors.keys.max() ?? 0)",
        ]
        let sections: [(String, [Int: String])] = [
            ("purposes", list.purposes.mapValues(\.name)),
            ("special purposes", list.specialPurposes.mapValues(\.name)),
            ("features", list.features.mapValues(\.name)),
            ("special features", list.specialFeatures.mapValues(\.name)),
            ("data categories", list.dataCategories.mapValues(\.name)),
            ("stacks", list.stacks.mapValues(\.name)),
        ]
        for (title, names) in sections where !names.isEmpty {
            lines.append("\(title) (\(names.count)):")
            lines += names.sorted { $0.key < $1.key }.map { "  \(pad($0.key))  \(oneLine($0.value))" }
        }
        return lines.joined(separator: "\n")
    }

    /// One vendor's declarations, each id followed by its name in the list.
    static func text(for vendor: Vendor, in list: VendorList) -> String {
        func named(_ ids: IDSet, _ declarations: [Int: Declaration]) -> String {
            ids.isEmpty ? "none" : ids.map { "\($0) \(declarations[$0].map { oneLine($0.name) } ?? "(not in this list)")" }.joined(separator: "; ")
        }
        var rows: [(String, String)] = [
            ("purposes (consent)", named(vendor.purposes, list.purposes)),
            ("purposes (legitimate interest)", named(vendor.legIntPurposes, list.purposes)),
            ("flexible purposes", named(vendor.flexiblePurposes, list.purposes)),
            ("special purposes", named(vendor.specialPurposes, list.specialPurposes)),
            ("features", named(vendor.features, list.features)),
            ("special features", named(vendor.specialFeatures, list.specialFeatures)),
        ]
        if !vendor.dataDeclaration.isEmpty { rows.append(("data categories", named(vendor.dataDeclaration, list.dataCategories))) }
        if let retention = vendor.dataRetention {
            let specific = retention.purposes.sorted { $0.key < $1.key }.map { "purpose \($0.key): \($0.value)" }
                + retention.specialPurposes.sorted { $0.key < $1.key }.map { "special purpose \($0.key): \($0.value)" }
            rows.append(("retention (days)", ([retention.stdRetention.map { "standard \($0)" } ?? "no standard"] + specific).joined(separator: ", ")))
        }
        if let policyUrl = vendor.policyUrl { rows.append(("privacy policy", policyUrl)) }
        // Real vendors list up to 40 languages: show the list's language (or the first) and name the rest.
        if let urls = vendor.urls.first(where: { $0.langId.uppercased() == list.language }) ?? vendor.urls.first {
            rows.append(("privacy policy (\(urls.langId))", urls.privacy))
            if let claim = urls.legIntClaim { rows.append(("LI claim (\(urls.langId))", claim)) }
            if vendor.urls.count > 1 { rows.append(("URL languages", vendor.urls.map(\.langId).joined(separator: ", "))) }
        }
        if let usesCookies = vendor.usesCookies {
            let age = vendor.cookieMaxAgeSeconds.map { $0 <= 0 ? "session" : "max age \($0) s" } ?? "no max age"
            rows.append(("cookies", usesCookies ? "yes, \(age)\(vendor.cookieRefresh == true ? ", refreshed" : "")" : "no"))
        }
        if let other = vendor.usesNonCookieAccess { rows.append(("non-cookie storage", other ? "yes" : "no")) }
        if let url = vendor.deviceStorageDisclosureUrl { rows.append(("storage disclosure", url)) }
        if let limit = vendor.httpGetLimit { rows.append(("HTTP GET limit", "\(limit) KB")) }
        if let deleted = vendor.deletedDate { rows.append(("deleted", TCFTimestamp(deleted).iso8601)) }
        let width = rows.map(\.0.count).max() ?? 0
        return (["Vendor \(vendor.id): \(vendor.name)"]
            + rows.map { "  " + $0.0 + String(repeating: " ", count: width - $0.0.count) + "  " + $0.1 }).joined(separator: "\n")
    }

    private static func pad(_ id: Int) -> String {
        let text = String(id)
        return String(repeating: " ", count: max(0, 3 - text.count)) + text
    }

    /// Names in real lists sometimes end in a newline; a summary shows one line each.
    private static func oneLine(_ text: String) -> String {
        text.split(whereSeparator: \.isNewline).joined(separator: " ")
    }
}
