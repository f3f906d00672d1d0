import Foundation

/// What a publisher edits of an app's or website's notice in consentd's console (decision
/// records 0043 and 0045): the texts the notice lets it set, the layout, the brand and the
/// languages.
///
/// consentd keeps one of these with every published version of the notice and builds a website's
/// notice from it; an app receives the published one in `GET /v1/config`
/// (``AppConfig/NoticeVersions/options``), and `ConsentKitUI`'s `NoticeSession` builds the app's
/// notice from it over the app's own settings. The JSON is the console's, field for field.
public struct NoticeOptions: Codable, Sendable, Equatable {
    /// How the first layer names the purposes.
    public enum FirstLayer: String, Sendable, Equatable, Codable {
        /// Stacks of the vendor list where they cover what the vendors use, purposes otherwise.
        case stacks
        /// Every purpose and special feature by its own name.
        case purposes
    }

    /// The publisher's name in the notice's title.
    public var publisherName: String
    /// The privacy policy the notice links (`https`).
    public var privacyPolicyUrl: String
    /// The logo: a `data:image/…;base64,` URL or an `https` URL; nil for none.
    public var logo: String?
    /// Where the notice sits on the screen.
    public var layout: NoticeLayout
    /// Stacks or purposes on the first layer.
    public var firstLayer: FirstLayer
    /// Whether the first layer offers the ad-free version.
    public var offersAdFree: Bool
    /// Colours, corners, font stack and button style.
    public var theme: NoticeTheme
    /// The languages the notice is offered in, the first the default for users whose language
    /// is not among them (ISO 639-1 codes the notice has texts for).
    public var languages: [String]
    /// The publisher's own UI texts, by language and text key (`texts/en.json` lists the keys).
    public var texts: [String: [String: String]]

    /// Creates options; consentd checks them when a version is saved or published, and the
    /// notice build checks them again (brand, texts) wherever they are shown.
    public init(
        publisherName: String, privacyPolicyUrl: String, logo: String? = nil, layout: NoticeLayout = .auto,
        firstLayer: FirstLayer = .stacks, offersAdFree: Bool = false, theme: NoticeTheme = .standard, languages: [String] = ["en"],
        texts: [String: [String: String]] = [:]
    ) {
        self.publisherName = publisherName
        self.privacyPolicyUrl = privacyPolicyUrl
        self.logo = logo
        self.layout = layout
        self.firstLayer = firstLayer
        self.offersAdFree = offersAdFree
        self.theme = theme
        self.languages = languages
        self.texts = texts
    }

    /// The language a user asking for `language` is shown: it when offered, else the default
    /// (the first of ``languages``).
    public func language(for language: String) -> String {
        languages.contains(language) ? language : languages.first ?? "en"
    }
}
