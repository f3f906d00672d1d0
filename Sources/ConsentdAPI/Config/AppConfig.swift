import Foundation

/// consentd's answer to `GET /v1/config`: where the request comes from, what the app's
/// publishers use, the vendor list the server holds and the CMP identity its operator registered.
///
/// The server encodes it and the SDK decodes it (and keeps the last answer); an app without a
/// server may build one itself. `gdprApplies`, `country` and `subdivision` are written as `null`
/// when unknown.
public struct AppConfig: Sendable, Equatable, Codable {
    /// The app the credential belongs to.
    public var appId: String
    /// Whether GDPR applies to the caller; nil when the server could not tell.
    public var gdprApplies: Bool?
    /// The region the caller is in.
    public var region: Region
    /// The caller's ISO 3166-1 alpha-2 country, upper-case; nil when not known.
    public var country: String?
    /// The caller's subdivision: the suffix of its ISO 3166-2 code, upper-case (`CA` for
    /// `US-CA`). Only US states and DC for now (``USStateCode``); nil when not known.
    public var subdivision: String?
    /// What the region decision rests on.
    public var geoSource: GeoSource
    /// The publishers asked for, in the order asked.
    public var publishers: [Publisher]
    /// The union of their IAB vendor ids, ascending.
    public var vendorIds: [Int]
    /// The union of their Google ad-tech providers, by id.
    public var adTechProviders: [AdTechProvider]
    /// The version of the Global Vendor List the server holds.
    public var vendorListVersion: Int
    /// That list's TCF policy version.
    public var tcfPolicyVersion: Int
    /// That list's format version (`gvlSpecificationVersion`, 3 for GVL v3); nil in an answer
    /// kept by an SDK that did not read it.
    public var gvlSpecificationVersion: Int?
    /// The CMP identity TC strings carry, as the server's operator set it; nil in an answer
    /// from a server older than the setting (or kept from one).
    public var cmp: CMP?
    /// Which GPP sections apply to the caller, with the publishers' MSPA settings; nil in an
    /// answer from a server older than GPP (or kept from one).
    public var gpp: GPPApplicability?
    /// The app's notice as published in consentd's console (decision record 0043); nil when no
    /// version was published (or from an older server).
    public var notice: NoticeVersions?

    /// The notice as published in the console: the versions an app applies, and what the
    /// publisher edited of the notice (decision record 0045).
    ///
    /// The app applies the versions itself: decisions are recorded under ``noticeVersion``
    /// (`ConsentConfiguration.noticeVersion`), and a decision made under an older version than
    /// ``materialNoticeVersion`` is asked again (`AskRules.materialNoticeVersion`).
    /// `ConsentKitUI`'s `NoticeSession` builds the notice from ``options`` when present.
    public struct NoticeVersions: Sendable, Equatable, Codable {
        /// The version of the notice published now.
        public var noticeVersion: Int
        /// The last version whose publication changed what users agree to.
        public var materialNoticeVersion: Int
        /// What that version holds: texts, brand, layout, languages, as the console published
        /// them; nil from a server older than decision record 0045 (or an answer kept from one).
        public var options: NoticeOptions?

        /// Creates the versions, with the published options when known.
        public init(noticeVersion: Int, materialNoticeVersion: Int, options: NoticeOptions? = nil) {
            self.noticeVersion = noticeVersion
            self.materialNoticeVersion = materialNoticeVersion
            self.options = options
        }

        private enum CodingKeys: String, CodingKey { case noticeVersion, materialNoticeVersion, options }

        /// Reads the versions and the options. Options this SDK cannot read (a layout or text
        /// form of a later consentd) are left out, nil: the versions still apply, and the app's
        /// notice is built from its own settings rather than the whole answer refused.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            noticeVersion = try container.decode(Int.self, forKey: .noticeVersion)
            materialNoticeVersion = try container.decode(Int.self, forKey: .materialNoticeVersion)
            options = try? container.decodeIfPresent(NoticeOptions.self, forKey: .options)
        }
    }

    /// Creates a configuration (the server's answer, or one an app supplies itself).
    public init(
        appId: String, gdprApplies: Bool?, region: Region, country: String?, geoSource: GeoSource, publishers: [Publisher],
        vendorIds: [Int], adTechProviders: [AdTechProvider], vendorListVersion: Int, tcfPolicyVersion: Int,
        gvlSpecificationVersion: Int? = nil, cmp: CMP? = nil, subdivision: String? = nil, gpp: GPPApplicability? = nil,
        notice: NoticeVersions? = nil
    ) {
        self.appId = appId
        self.gdprApplies = gdprApplies
        self.region = region
        self.country = country
        self.geoSource = geoSource
        self.publishers = publishers
        self.vendorIds = vendorIds
        self.adTechProviders = adTechProviders
        self.vendorListVersion = vendorListVersion
        self.tcfPolicyVersion = tcfPolicyVersion
        self.gvlSpecificationVersion = gvlSpecificationVersion
        self.cmp = cmp
        self.subdivision = subdivision
        self.gpp = gpp
        self.notice = notice
    }

    private enum CodingKeys: String, CodingKey {
        case appId, gdprApplies, region, country, subdivision, geoSource, publishers, vendorIds, adTechProviders
        case vendorListVersion, tcfPolicyVersion, gvlSpecificationVersion, cmp, gpp
        case notice
    }

    /// Writes every field; `gdprApplies`, `country` and `subdivision` as `null` when unknown,
    /// `gvlSpecificationVersion`, `cmp`, `gpp` and `notice` only when known.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(appId, forKey: .appId)
        try container.encode(gdprApplies, forKey: .gdprApplies)
        try container.encode(region, forKey: .region)
        try container.encode(country, forKey: .country)
        try container.encode(subdivision, forKey: .subdivision)
        try container.encode(geoSource, forKey: .geoSource)
        try container.encode(publishers, forKey: .publishers)
        try container.encode(vendorIds, forKey: .vendorIds)
        try container.encode(adTechProviders, forKey: .adTechProviders)
        try container.encode(vendorListVersion, forKey: .vendorListVersion)
        try container.encode(tcfPolicyVersion, forKey: .tcfPolicyVersion)
        try container.encodeIfPresent(gvlSpecificationVersion, forKey: .gvlSpecificationVersion)
        try container.encodeIfPresent(cmp, forKey: .cmp)
        try container.encodeIfPresent(gpp, forKey: .gpp)
        try container.encodeIfPresent(notice, forKey: .notice)
    }
}

extension AppConfig {
    /// The regions consentd tells apart; the raw values are the API's.
    public enum Region: String, Sendable, Equatable, Codable, CaseIterable {
        /// The European Economic Area (the EU, Iceland, Liechtenstein, Norway).
        case eea
        /// The United Kingdom (UK GDPR).
        case uk
        /// Switzerland (revFADP, treated like the GDPR by the IAB's framework).
        case ch
        /// The United States: state privacy laws, opt-out regimes (the TCF does not apply:
        /// as ``other`` for the TCF; ``GPPApplicability`` says which GPP sections do).
        case us
        /// Anywhere else.
        case other
        /// The country could not be determined.
        case unknown
    }

    /// What a region decision rests on; the raw values are the API's.
    public enum GeoSource: String, Sendable, Equatable, Codable, CaseIterable {
        /// A trusted edge header (such as Cloudflare's `CF-IPCountry`).
        case header
        /// The server's CIDR-to-country table.
        case cidr
        /// The request's `debug_geo` parameter (see ``DebugRegion``).
        case debug
        /// Nothing: the country is unknown.
        case none
    }
}
