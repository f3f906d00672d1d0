import ConsentKitUI
import ConsentdAPI
import Foundation

/// consentd's side of ``NoticeOptions`` (the type is `ConsentdAPI`'s, shared with the SDK, which
/// receives the published options in `GET /v1/config`: decision record 0045): a version of the
/// notice (``NoticeVersion``) holds one; the notice is built from it with the checks every notice
/// build makes (``NoticeSettings/validateBrand()``, the custom texts' rules).
extension NoticeOptions {
    /// The keys a body's `options` object may have.
    static let keys: Set<String> = ["publisherName", "privacyPolicyUrl", "logo", "layout", "firstLayer", "offersAdFree", "theme",
                                    "languages", "texts"]

    /// The options a website or app starts from before its first version: its configured name,
    /// privacy policy, layout, logo and theme, in English, with the standard texts.
    static func baseline(name: String, privacyPolicyURL: URL?, layout: NoticeLayout = .auto, logo: String? = nil,
                         theme: NoticeTheme = .standard) -> NoticeOptions {
        NoticeOptions(publisherName: name, privacyPolicyUrl: privacyPolicyURL?.absoluteString ?? "", logo: logo, layout: layout,
                      firstLayer: .stacks, offersAdFree: false, theme: theme, languages: ["en"], texts: [:])
    }

    /// The notice's settings in `language` and `mode`, for the build.
    func settings(language: String, mode: NoticeSettings.Mode = .tcf) -> NoticeSettings {
        NoticeSettings(
            mode: mode, publisherName: publisherName, logo: logo, privacyPolicyURL: URL(string: privacyPolicyUrl), theme: theme,
            layout: layout, firstLayer: firstLayer, offersAdFree: offersAdFree, customTexts: texts[language] ?? [:], language: language,
            storageDisclosureBase: URL(string: "/v1/vendor-list/storage"))
    }

    /// Whether going from `previous` to these options changes what a user agreed to, so that
    /// publishing them asks every user again (``NoticeVersions/publish(appId:version:reask:by:address:now:)``):
    /// the publisher's name, the privacy policy, any text in any language, the ad-free offer.
    /// The look (layout, colours, font, radius, buttons, logo), the first layer's form and the
    /// languages offered do not.
    func isMaterialChange(from previous: NoticeOptions) -> Bool {
        publisherName != previous.publisherName || privacyPolicyUrl != previous.privacyPolicyUrl || offersAdFree != previous.offersAdFree
            || texts.filter { !$0.value.isEmpty } != previous.texts.filter { !$0.value.isEmpty }
    }

    /// Reads `options` from a request body's JSON value: unknown keys, wrong types and malformed
    /// values refused with a 400 naming the field (`options.…`).
    static func decode(_ value: Any?, field: String = "options") throws(APIError) -> NoticeOptions {
        guard let object = value as? [String: Any] else {
            throw APIError(.badRequest, "invalid_field", "\(field) must be an object of the notice's options", field: field)
        }
        if let unknown = object.keys.sorted().first(where: { !keys.contains($0) }) {
            throw APIError(.badRequest, "unknown_field", "\(field).\(unknown) is not a notice option (\(keys.sorted().joined(separator: ", ")))",
                           field: "\(field).\(unknown)")
        }
        let data: Data
        do {
            data = try JSONSerialization.data(withJSONObject: object)
        } catch {
            throw APIError(.badRequest, "invalid_field", "\(field) is not JSON", field: field)
        }
        let options: NoticeOptions
        do {
            options = try JSONDecoder().decode(NoticeOptions.self, from: data)
        } catch let error as DecodingError {
            let (path, message) = Self.describe(error)
            let named = ([field] + path).joined(separator: ".")
            throw APIError(.badRequest, "invalid_field", "\(named): \(message)", field: named)
        } catch {
            throw APIError(.badRequest, "invalid_field", "\(field): \(error)", field: field)
        }
        try options.checkForm(field: field)
        return options
    }

    /// The checks of form that need no vendor list: name, policy link, languages and the texts'
    /// languages. The notice build checks the rest (``NoticeVersions/check(_:appId:)``).
    func checkForm(field: String = "options") throws(APIError) {
        func refuse(_ name: String, _ message: String) -> APIError {
            APIError(.badRequest, "invalid_field", "\(field).\(name): \(message)", field: "\(field).\(name)")
        }
        let name = publisherName.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !name.isEmpty, publisherName.count <= 100 else { throw refuse("publisherName", "the publisher's name needs 1 to 100 characters") }
        guard let url = URL(string: privacyPolicyUrl), url.scheme?.lowercased() == "https", url.host?.isEmpty == false,
              privacyPolicyUrl.utf8.count <= 2000 else {
            throw refuse("privacyPolicyUrl", "the privacy policy must be an https URL (such as https://example.com/privacy)")
        }
        if let logo, logo.utf8.count > 100_000 { throw refuse("logo", "a logo may take at most 100,000 bytes") }
        let known = Set(NoticeTexts.languages())
        guard !languages.isEmpty, languages.count <= known.count else {
            throw refuse("languages", "name at least one language the notice has texts for, the default first")
        }
        for (index, language) in languages.enumerated() {
            guard known.contains(language) else {
                throw refuse("languages[\(index)]", "\"\(language)\" is not a language the notice has texts for (\(known.sorted().joined(separator: ", ")))")
            }
            guard languages.firstIndex(of: language) == index else { throw refuse("languages[\(index)]", "\(language) is named twice") }
        }
        for (language, texts) in self.texts.sorted(by: { $0.key < $1.key }) {
            guard languages.contains(language) else {
                throw refuse("texts.\(language)", "texts in \(language), which is not among languages")
            }
            for (key, text) in texts where text.count > 2000 {
                throw refuse("texts.\(language).\(key)", "a text may have at most 2,000 characters")
            }
        }
    }

    /// The field and message of a decoding error.
    private static func describe(_ error: DecodingError) -> ([String], String) {
        func path(_ keys: [any CodingKey]) -> [String] {
            keys.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.reduce(into: [String]()) { parts, part in
                if part.hasPrefix("["), let last = parts.popLast() { parts.append(last + part) } else { parts.append(part) }
            }
        }
        switch error {
        case .keyNotFound(let key, let context): return (path(context.codingPath + [key]), "is required")
        case .typeMismatch(let type, let context): return (path(context.codingPath), "must be \(Self.kind(type))")
        case .valueNotFound(let type, let context): return (path(context.codingPath), "must be \(Self.kind(type)), not null")
        case .dataCorrupted(let context): return (path(context.codingPath), context.debugDescription)
        @unknown default: return ([], "\(error)")
        }
    }

    private static func kind(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Bool.Type: "true or false"
        case is Int.Type: "a whole number"
        case is [String].Type: "an array of strings"
        default: "an object of the documented form"
        }
    }
}

extension NoticeDocumentError {
    /// The field of ``NoticeOptions`` (under `options.`) this refusal is about, for texts in `language`.
    func optionsField(language: String) -> String {
        switch self {
        case .theme(let error):
            switch error {
            case .malformedColour(let appearance, let field, _), .insufficientContrast(let appearance, let field, _, _, _):
                "options.theme.\(appearance).\(field)"
            case .cornerRadius: "options.theme.cornerRadius"
            case .fontFamily: "options.theme.fontFamily"
            }
        case .logo: "options.logo"
        case .missingPrivacyPolicyURL: "options.privacyPolicyUrl"
        case .unknownTextKey(let key): "options.texts.\(language).\(key)"
        case .blankText(let setting): "options.texts.\(language).\(setting.replacingOccurrences(of: "customTexts.", with: ""))"
        case .unequalActionLabels(_, let kept): "options.texts.\(language).\(kept)"
        case .languageUnavailable: "options.languages"
        default: "options"
        }
    }
}
