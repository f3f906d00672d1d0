import ConsentdAPI
import Foundation

/// What the notice page is given to show: one JSON document, protocol 1
/// (`docs/notice-protocol.md`). Build it with ``build(scope:settings:cmp:current:request:adTechProviders:textsDirectory:)``
/// or, for an app, through ``NoticeSession``.
public struct NoticeDocument: Sendable, Equatable, Codable {
    /// The bridge protocol this build speaks.
    public static let protocolVersion = 1

    /// A purpose, feature or data category as the page shows it.
    public struct Declaration: Sendable, Equatable, Codable {
        /// The standard name.
        public var name: String
        /// The standard description.
        public var description: String
        /// The standard illustrations (GVL v3).
        public var illustrations: [String]
    }

    /// A stack shown on the first layer.
    public struct Stack: Sendable, Equatable, Codable {
        /// The stack's id in the vendor list.
        public var id: Int
        /// Its standard name.
        public var name: String
        /// Its standard description.
        public var description: String
        /// The purposes it groups.
        public var purposes: [Int]
        /// The special features it groups.
        public var specialFeatures: [Int]
    }

    /// Retention periods in days.
    public struct Retention: Sendable, Equatable, Codable {
        /// The standard retention, where a purpose has none of its own.
        public var std: Int?
        /// Days by purpose id.
        public var purposes: [String: Int]
        /// Days by special purpose id.
        public var specialPurposes: [String: Int]
    }

    /// A vendor as the page shows it.
    public struct Vendor: Sendable, Equatable, Codable {
        /// The vendor's id in the list.
        public var id: Int
        /// Its name.
        public var name: String
        /// Purposes on consent.
        public var purposes: [Int]
        /// Purposes on legitimate interest the user may object to, the publisher's restrictions
        /// applied (``ConsentKit/LegitimateInterest/purposes(of:restrictions:)``; never 1 or 3-6).
        public var legIntPurposes: [Int]
        /// Whether showing the vendor establishes its legitimate interest
        /// (``ConsentKit/LegitimateInterest/isEstablished(for:restrictions:)``): a purpose on
        /// legitimate interest or a special purpose. With no ``legIntPurposes`` the user has
        /// nothing to object to and the vendor's bit stays set.
        public var legitimateInterest: Bool
        /// Purposes the publisher may switch between the two.
        public var flexiblePurposes: [Int]
        /// Special purposes.
        public var specialPurposes: [Int]
        /// Features.
        public var features: [Int]
        /// Special features.
        public var specialFeatures: [Int]
        /// Data categories collected.
        public var dataCategories: [Int]
        /// Retention, when the list declares it.
        public var retention: Retention?
        /// The privacy policy in the notice's language, else English.
        public var privacyPolicyUrl: String?
        /// The legitimate-interest claim in the notice's language, else English.
        public var legIntClaimUrl: String?
        /// Whether it stores cookies.
        public var usesCookies: Bool?
        /// The longest cookie lifetime in seconds (0 or less: the session).
        public var cookieMaxAgeSeconds: Int?
        /// Whether it refreshes cookie lifetimes.
        public var cookieRefresh: Bool?
        /// Whether it uses other device storage than cookies.
        public var usesNonCookieAccess: Bool?
        /// Where the page fetches the vendor's device storage disclosure (through consentd).
        public var storageDisclosureUrl: String?
    }

    /// A Google ad-tech provider (Additional Consent, outside the TCF).
    public struct AdTechProvider: Sendable, Equatable, Codable {
        /// Its Additional Consent id.
        public var id: Int
        /// Its name.
        public var name: String
        /// Its privacy policy.
        public var privacyPolicyUrl: String
    }

    /// The publisher as the page shows it.
    public struct Publisher: Sendable, Equatable, Codable {
        /// Name in the title.
        public var name: String
        /// The app's name (Google's form).
        public var appName: String
        /// A `data:` URL or a URL on the consentd origin.
        public var logo: String?
        /// The privacy policy; the page refuses to render without one.
        public var privacyPolicyUrl: String?
    }

    /// The CMP writing the strings.
    public struct CMP: Sendable, Equatable, Codable {
        /// Registered id (2-4095).
        public var id: Int
        /// Version.
        public var version: Int
    }

    /// A screen that is English because the language asked for could not be shown whole.
    public struct LanguageFallback: Sendable, Equatable, Codable {
        /// The language asked for.
        public var requested: String
        /// Why it is not shown.
        public var reason: String
    }

    /// Ad-free offer.
    public struct AdFree: Sendable, Equatable, Codable {
        /// Whether "Pay for the ad-free version" is offered (Google's form and the TCF notice's
        /// first layer).
        public var offered: Bool
    }

    /// Google's form: which kinds of ads it offers (at least one), whether it offers "Do not
    /// consent", and the app's icon (decision record 0017).
    public struct Google: Sendable, Equatable, Codable {
        /// Whether personalized ads are offered: the publisher's setting
        /// (``NoticeSettings/offersPersonalized``), Google among its vendors, and no publisher
        /// serving non-personalized ads only.
        public var personalizedOffered: Bool
        /// Whether non-personalized ads are offered (``NoticeSettings/offersNonPersonalized``).
        public var nonPersonalizedOffered: Bool
        /// Whether the first screen offers "Do not consent" (``NoticeSettings/offersRefusal``).
        public var refusalOffered: Bool
        /// The app's icon (``NoticeSettings/appIcon``).
        public var appIcon: String?
    }

    /// The protocol version (1).
    public var `protocol`: Int
    /// `tcf`, `google` or `us`.
    public var mode: NoticeSettings.Mode
    /// The language of every text, ISO 639-1 lower case.
    public var language: String
    /// `ltr` or `rtl`.
    public var direction: String
    /// Set when the screen is English because the language asked for is incomplete.
    public var languageFallback: LanguageFallback?
    /// UI texts by key.
    public var texts: [String: String]
    /// The publisher.
    public var publisher: Publisher
    /// The CMP.
    public var cmp: CMP
    /// Colours, corner radius, font and button style.
    public var theme: NoticeTheme
    /// Where the notice sits; `auto` is resolved by the page from its width.
    public var layout: NoticeLayout
    /// The publisher's notice version.
    public var noticeVersion: Int
    /// The consent scope: `service`.
    public var scope: String
    /// `first` or `purposes`.
    public var startLayer: String
    /// Whether the notice may be closed without a choice.
    public var allowsDismissal: Bool
    /// The ad-free offer.
    public var adFree: AdFree
    /// How many days the choice is kept (``NoticeSettings/choiceStorageDays``); nil: on the
    /// device until the user changes it or the notice asks again.
    public var choiceStorageDays: Int? = nil
    /// The vendor list version shown.
    public var vendorListVersion: Int
    /// Its TCF policy version.
    public var tcfPolicyVersion: Int
    /// Purposes by id (as a string).
    public var purposes: [String: Declaration]
    /// Special purposes by id.
    public var specialPurposes: [String: Declaration]
    /// Features by id.
    public var features: [String: Declaration]
    /// Special features by id.
    public var specialFeatures: [String: Declaration]
    /// Data categories by id.
    public var dataCategories: [String: Declaration]
    /// The stacks of the first layer.
    public var stacks: [Stack]
    /// The disclosed vendors by increasing id.
    public var vendors: [Vendor]
    /// Google's ad-tech providers disclosed.
    public var adTechProviders: [AdTechProvider]
    /// The user's present choices, so that the page opens on them.
    public var current: NoticeChoices?
    /// Google's form, in Google mode.
    public var google: Google?
    /// The US notice at collection, in US mode (``build(us:subdivision:signals:current:settings:cmp:noticeVersion:language:request:textsDirectory:)``).
    public var us: US? = nil
}

/// Choices as ids: what the page answers with "save", and what the document gives as the present
/// choices. In US mode only ``us`` is written (`{"us": {…}}`) and the id lists are empty.
public struct NoticeChoices: Sendable, Equatable, Codable {
    /// Purposes consented to.
    public var purposeConsents: [Int]
    /// Purposes whose legitimate interest is kept (not objected to).
    public var purposeLegitimateInterests: [Int]
    /// Special features opted in to.
    public var specialFeatureOptIns: [Int]
    /// Vendors consented to.
    public var vendorConsents: [Int]
    /// Vendors whose legitimate interest is kept.
    public var vendorLegitimateInterests: [Int]
    /// Google ad-tech providers consented to.
    public var adTechProviderConsents: [Int]
    /// The US opt-outs (US mode only).
    public var us: USNoticeChoices?

    /// Choices.
    public init(
        purposeConsents: [Int] = [], purposeLegitimateInterests: [Int] = [], specialFeatureOptIns: [Int] = [],
        vendorConsents: [Int] = [], vendorLegitimateInterests: [Int] = [], adTechProviderConsents: [Int] = [],
        us: USNoticeChoices? = nil
    ) {
        self.purposeConsents = purposeConsents
        self.purposeLegitimateInterests = purposeLegitimateInterests
        self.specialFeatureOptIns = specialFeatureOptIns
        self.vendorConsents = vendorConsents
        self.vendorLegitimateInterests = vendorLegitimateInterests
        self.adTechProviderConsents = adTechProviderConsents
        self.us = us
    }

    private enum CodingKeys: String, CodingKey {
        case purposeConsents, purposeLegitimateInterests, specialFeatureOptIns, vendorConsents, vendorLegitimateInterests
        case adTechProviderConsents, us
    }

    /// Reads US choices (`{"us": {…}}`, the id lists then empty) or TCF choices, whose six id
    /// lists are all required.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if let us = try container.decodeIfPresent(USNoticeChoices.self, forKey: .us) {
            self.init(us: us)
            return
        }
        self.init(
            purposeConsents: try container.decode([Int].self, forKey: .purposeConsents),
            purposeLegitimateInterests: try container.decode([Int].self, forKey: .purposeLegitimateInterests),
            specialFeatureOptIns: try container.decode([Int].self, forKey: .specialFeatureOptIns),
            vendorConsents: try container.decode([Int].self, forKey: .vendorConsents),
            vendorLegitimateInterests: try container.decode([Int].self, forKey: .vendorLegitimateInterests),
            adTechProviderConsents: try container.decode([Int].self, forKey: .adTechProviderConsents))
    }

    /// Writes `{"us": {…}}` for US choices, the six id lists otherwise.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        if let us {
            try container.encode(us, forKey: .us)
            return
        }
        try container.encode(purposeConsents, forKey: .purposeConsents)
        try container.encode(purposeLegitimateInterests, forKey: .purposeLegitimateInterests)
        try container.encode(specialFeatureOptIns, forKey: .specialFeatureOptIns)
        try container.encode(vendorConsents, forKey: .vendorConsents)
        try container.encode(vendorLegitimateInterests, forKey: .vendorLegitimateInterests)
        try container.encode(adTechProviderConsents, forKey: .adTechProviderConsents)
    }
}

/// Why a notice document could not be built.
public enum NoticeDocumentError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The theme was refused.
    case theme(NoticeThemeError)
    /// No privacy policy URL is configured.
    case missingPrivacyPolicyURL
    /// The scope discloses no vendor (TCF mode) or nothing at all (Google mode).
    case noVendors
    /// A custom text names a key the notice does not have.
    case unknownTextKey(String)
    /// A custom text, stack description or illustration is empty or only white space (named as
    /// the setting: `customTexts.rejectAll`, `stackDescriptions[42]`, `purposeIllustrations[1]`).
    case blankText(String)
    /// Only one of "Accept all" and "Reject all" was renamed: the two answers must stay equal
    /// (TCF policy Appendix B, C(g)).
    case unequalActionLabels(renamed: String, kept: String)
    /// A stack description names a stack the vendor list does not have.
    case unknownStack(Int)
    /// Illustrations name a purpose the vendor list does not have.
    case unknownPurpose(Int)
    /// The logo is neither a `data:image/(png|jpeg|gif|webp);base64,` URL nor an `https` URL.
    case logo(String)
    /// Neither the language asked for nor English can be shown whole.
    case languageUnavailable(requested: String, vendorList: String)
    /// A bundled resource could not be read.
    case resourceUnreadable(String)
    /// Google's form would offer neither personalized nor non-personalized ads: the settings
    /// turn both off, or turn non-personalized ads off where personalized ones cannot be offered
    /// (Google, vendor 755, is not among the publisher's vendors, or a publisher serves only
    /// non-personalized ads).
    case noGoogleChoice
    /// Google's form would offer no refusal on its first screen: "Do not consent" is turned
    /// off (``NoticeSettings/offersRefusal``) and the ad-free version is not offered.
    case googleFormWithoutRefusal
    /// ``NoticeSettings/appIcon`` is neither a `data:` URL of a PNG, JPEG, GIF or WebP image
    /// nor an `https:` URL or a path on the consentd origin.
    case appIconInvalid(String)
    /// ``NoticeSettings/choiceStorageDays`` is zero or less.
    case choiceStorageDays(Int)
    /// A US notice was asked for where no US section applies (outside the US, or the region unknown).
    case noUSSection
    /// ``build(scope:settings:cmp:current:request:adTechProviders:textsDirectory:)`` was given
    /// US mode, which ``build(us:subdivision:signals:current:settings:cmp:noticeVersion:language:request:textsDirectory:)`` builds.
    case usModeNeedsUSBuild

    /// What is wrong.
    public var description: String {
        switch self {
        case .theme(let error): "the notice theme was refused: \(error)"
        case .missingPrivacyPolicyURL: "NoticeSettings.privacyPolicyURL is required: the notice links the publisher's privacy policy"
        case .noVendors: "the notice discloses no vendor: the publisher's vendors are not in the vendor list"
        case .unknownTextKey(let key): "customTexts: the notice has no text \"\(key)\" (texts/en.json lists the keys)"
        case .blankText(let setting): "NoticeSettings.\(setting) is empty: leave it out to keep the standard text"
        case .unequalActionLabels(let renamed, let kept):
            "NoticeSettings.customTexts renames \(renamed) but not \(kept): \"Accept all\" and \"Reject all\" are renamed "
                + "together or not at all, so that both answers stay equal (TCF policy Appendix B, C(g))"
        case .unknownStack(let id): "NoticeSettings.stackDescriptions: the vendor list has no stack \(id)"
        case .unknownPurpose(let id): "NoticeSettings.purposeIllustrations: the vendor list has no purpose \(id)"
        case .logo(let logo):
            "NoticeSettings.logo \"\(logo.prefix(40))\" is neither a data:image/(png|jpeg|gif|webp);base64, URL nor an https URL"
        case .languageUnavailable(let requested, let list):
            "the notice cannot be shown in \(requested): the vendor list is in \(list) and the notice has no UI texts for it; "
                + "ask consentd for a language the notice has texts for (NoticeTexts.languages())"
        case .resourceUnreadable(let detail): "a notice resource could not be read: \(detail)"
        case .noGoogleChoice:
            "Google's form would offer no kind of ads: turn NoticeSettings.offersNonPersonalized on, or offersPersonalized "
                + "with Google (vendor 755) among the publisher's vendors and personalized ads allowed"
        case .googleFormWithoutRefusal:
            "Google's form would offer no way to refuse: turn NoticeSettings.offersRefusal on (\"Do not consent\"), "
                + "or offer the ad-free version (offersAdFree)"
        case .appIconInvalid(let icon):
            "NoticeSettings.appIcon \"\(icon.prefix(40))\" is not a data:image/(png|jpeg|gif|webp);base64 URL, an https URL "
                + "or a path on the consentd origin"
        case .choiceStorageDays(let days):
            "NoticeSettings.choiceStorageDays is \(days): the choice is kept for at least one day, or nil for \"until it changes\""
        case .noUSSection:
            "the US notice is for visitors to whom a US GPP section applies; the region decision names none"
        case .usModeNeedsUSBuild:
            "NoticeSettings.mode is us: build the US notice with NoticeDocument.build(us:subdivision:signals:current:settings:cmp:noticeVersion:language:request:textsDirectory:)"
        }
    }
}
