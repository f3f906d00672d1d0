import ConsentdAPI
import Foundation

/// What the publisher decides about how its notice looks and what it offers.
public struct NoticeSettings: Sendable, Equatable {
    /// Which form the notice takes.
    public enum Mode: String, Sendable, Equatable, Codable {
        /// The TCF notice: purposes or stacks, vendors, "Accept all", "Reject all", "Manage options".
        case tcf
        /// Google's consent form: personalized ads, non-personalized ads, the ad-free version.
        /// It is built only where GDPR applies or may apply, as Google's was
        /// (``ConsentKit/GoogleAdsConsent/checkConsentFormCanLoad()``).
        case google
        /// The US notice at collection: the opt-outs of sale, sharing and targeted advertising
        /// (decision record 0032). Built by ``NoticeDocument/build(us:subdivision:signals:current:settings:cmp:noticeVersion:language:request:textsDirectory:)``.
        case us
    }

    /// How the first layer names the purposes: stacks or purposes (defined with the console's
    /// options, which consentd and the SDK share).
    public typealias FirstLayer = NoticeOptions.FirstLayer

    /// The form.
    public var mode: Mode
    /// The publisher's name, shown in the title.
    public var publisherName: String
    /// The app's (or site's) name, for Google's form; the publisher's name when nil.
    public var appName: String?
    /// The logo: a `data:image/(png|jpeg|gif|webp);base64,` URL, or an `https` URL; nil for none.
    /// Anything else is refused when the document is built (``NoticeDocumentError/logo(_:)``).
    public var logo: String?
    /// The privacy policy (required: a notice without one is not rendered).
    public var privacyPolicyURL: URL?
    /// Colours, corner radius, font and button style.
    public var theme: NoticeTheme
    /// Where the notice sits on the screen (``NoticeLayout/auto`` by default).
    public var layout: NoticeLayout
    /// Stacks or purposes on the first layer.
    public var firstLayer: FirstLayer
    /// Whether the publisher sells an ad-free version: "Pay for the ad-free version" on Google's
    /// form and on the TCF notice's first layer (Google's `shouldOfferAdFree`, off by default).
    public var offersAdFree: Bool
    /// Google's form: whether it offers personalized ads ("Yes, continue to see relevant ads";
    /// Google's `shouldOfferPersonalizedAds`, on by default). Personalized ads are offered only
    /// when this is on, Google (vendor 755) is among the publisher's vendors and no publisher
    /// serves non-personalized ads only. The TCF notice ignores it ("Accept all" is its own).
    public var offersPersonalized: Bool
    /// Google's form: whether it offers non-personalized ads ("No, see ads that are less
    /// relevant"; Google's `shouldOfferNonPersonalizedAds`, on by default). A Google form that
    /// offers neither kind of ads is not built (``NoticeDocumentError/noGoogleChoice``). The
    /// TCF notice ignores it.
    public var offersNonPersonalized: Bool
    /// Google's form: whether its first screen offers "Do not consent" (no consent, no opt-in,
    /// an objection to every legitimate interest), as UMP's "Consent, Do not consent, or Manage
    /// options"; on by default. Off, the form's only refusal is the ad-free version: a Google
    /// form with neither is not built (``NoticeDocumentError/googleFormWithoutRefusal``).
    /// The TCF notice ignores it ("Reject all" is always on its first layer).
    public var offersRefusal: Bool
    /// Google's form: the app's icon, shown on the form's card: a `data:` URL of a PNG, JPEG,
    /// GIF or WebP image, or a URL on the consentd origin; nil for none.
    public var appIcon: String?
    /// The publisher's own wording for UI texts, by text key (`texts/en.json` lists the keys),
    /// in the notice's language. UI texts are not the TCF's standard texts, so they do not mark
    /// decisions as made on non-standard texts. "Accept all" and "Reject all" stay equal: both
    /// are renamed or neither (``NoticeDocumentError/unequalActionLabels(renamed:kept:)``), and no
    /// custom text may be blank (``NoticeDocumentError/blankText(_:)``).
    public var customTexts: [String: String]
    /// The publisher's own description of a stack of the vendor list, by stack id, in the
    /// notice's language (the policy allows a modified stack description). Any entry marks
    /// decisions as made on non-standard texts (`UseNonStandardTexts`).
    public var stackDescriptions: [Int: String]
    /// The publisher's own illustrations of a purpose, by purpose id, in the notice's language,
    /// in place of the list's (the policy allows modified or supplemented illustrations). Any
    /// entry marks decisions as made on non-standard texts (`UseNonStandardTexts`).
    public var purposeIllustrations: [Int: [String]]
    /// The UI language wanted (ISO 639-1; a tag such as `pt-PT` stands for its language); nil: the manager's ``ConsentKit/ConsentConfiguration/consentLanguage``.
    public var language: String?
    /// Where a vendor's device storage disclosure is fetched from: consentd's proxy,
    /// `https://consentd…/v1/vendor-list/storage` (the page asks `…/{vendorId}`; a path alone when
    /// consentd serves the page, as on the web); nil: the notice offers no storage details.
    public var storageDisclosureBase: URL?
    /// How many days the choice is kept, as the notice says on its vendor and legitimate
    /// interest layers (TCF policy Appendix B, D(c)(VII): the CMP discloses how long it stores
    /// the choice); nil, the default for an app: on the device until the user changes it or the
    /// notice asks again. The web CMP states its own cookie's figure (390 days) in the document
    /// it shows. Zero or less is refused (``NoticeDocumentError/choiceStorageDays(_:)``).
    public var choiceStorageDays: Int?

    /// Whether the notice shows non-standard texts as the TC string's `UseNonStandardTexts`
    /// means them: a modified stack description or modified illustrations, never UI texts.
    public var usesNonStandardTexts: Bool { !stackDescriptions.isEmpty || !purposeIllustrations.isEmpty }

    /// Checks the brand the way every notice build does, so that a publisher's configuration can
    /// be refused when it is read rather than when a user is waiting: the theme's form and
    /// contrasts (``NoticeTheme/validate()``) and a logo the page can show.
    ///
    /// - Throws: ``NoticeDocumentError/theme(_:)`` or ``NoticeDocumentError/logo(_:)``.
    public func validateBrand() throws(NoticeDocumentError) {
        do {
            try theme.validate()
        } catch {
            throw .theme(error)
        }
        if let logo, !Self.isShowableLogo(logo) { throw .logo(logo) }
    }

    /// A logo the page shows: a base64 `data:` image of a kind every engine decodes, or `https`.
    private static func isShowableLogo(_ logo: String) -> Bool {
        if logo.hasPrefix("data:") {
            return ["png", "jpeg", "gif", "webp"].contains { logo.hasPrefix("data:image/\($0);base64,") }
        }
        guard let url = URL(string: logo) else { return false }
        return url.scheme?.lowercased() == "https" && url.host?.isEmpty == false
    }

    /// Settings for a notice.
    public init(
        mode: Mode = .tcf, publisherName: String, appName: String? = nil, logo: String? = nil, privacyPolicyURL: URL?,
        theme: NoticeTheme = .standard, layout: NoticeLayout = .auto, firstLayer: FirstLayer = .stacks, offersAdFree: Bool = false,
        offersPersonalized: Bool = true, offersNonPersonalized: Bool = true, customTexts: [String: String] = [:],
        stackDescriptions: [Int: String] = [:], purposeIllustrations: [Int: [String]] = [:], language: String? = nil,
        storageDisclosureBase: URL? = nil,
        offersRefusal: Bool = true, appIcon: String? = nil, choiceStorageDays: Int? = nil
    ) {
        self.mode = mode
        self.publisherName = publisherName
        self.appName = appName
        self.logo = logo
        self.privacyPolicyURL = privacyPolicyURL
        self.theme = theme
        self.layout = layout
        self.firstLayer = firstLayer
        self.offersAdFree = offersAdFree
        self.offersPersonalized = offersPersonalized
        self.offersNonPersonalized = offersNonPersonalized
        self.offersRefusal = offersRefusal
        self.appIcon = appIcon
        self.customTexts = customTexts
        self.stackDescriptions = stackDescriptions
        self.purposeIllustrations = purposeIllustrations
        self.language = language
        self.storageDisclosureBase = storageDisclosureBase
        self.choiceStorageDays = choiceStorageDays
    }
}

extension NoticeSettings {
    /// These settings with the notice's options as published in consentd's console in place
    /// (decision record 0045), for a user asking for `language` (a tag such as `pt-PT` stands
    /// for its language): what the console edits wins, the rest stays the app's.
    ///
    /// From the options: the publisher's name, the privacy policy, the logo, the layout, the
    /// first layer, the ad-free offer, the theme, and the language (the one asked for when the
    /// options offer it, else their default) with the publisher's texts in it, in place of
    /// ``language`` and ``customTexts``. The app's own: ``mode`` (the app chooses its form),
    /// ``appName`` and ``appIcon`` (the app's, not the publisher's), Google's offers
    /// (``offersPersonalized``, ``offersNonPersonalized``, ``offersRefusal``), the modified
    /// ``stackDescriptions`` and ``purposeIllustrations`` (non-standard texts the console does
    /// not edit), ``storageDisclosureBase`` (where the app reaches consentd) and
    /// ``choiceStorageDays`` (how the app stores the choice). ``NoticeSession`` applies the
    /// options of ``ConsentKit/ConsentManager/appConfig`` itself.
    public func applying(_ options: NoticeOptions, language: String) -> NoticeSettings {
        var settings = self
        settings.publisherName = options.publisherName
        settings.privacyPolicyURL = URL(string: options.privacyPolicyUrl)
        settings.logo = options.logo
        settings.layout = options.layout
        settings.firstLayer = options.firstLayer
        settings.offersAdFree = options.offersAdFree
        settings.theme = options.theme
        let shown = options.language(for: NoticeTexts.language(of: language) ?? language.lowercased())
        settings.language = shown
        settings.customTexts = options.texts[shown] ?? [:]
        return settings
    }
}
