/// The answer to `POST /v1/web/session`: what a website's page view calls for. consentd writes
/// it directly as JSON text (it embeds `TCData` and the notice's document as they were written);
/// this type is the contract the server's answers are held to (`openapi.yaml`'s `WebSession`).
public struct WebSession: Sendable, Equatable, Codable {
    /// Whether GDPR applies to the visitor; nil when the region is unknown.
    public var gdprApplies: Bool?
    /// The region decided (`eea`, `uk`, `ch`, `us`, `other`, `unknown`).
    public var region: String
    /// The visitor's US state (``AppConfig/subdivision``, `CA`); nil when not known.
    public var subdivision: String?
    /// What the page's `__gpp` answers (the GPP string for the visitor's region and choice, the
    /// sections in force), with the site's MSPA settings; nil only in an answer from a server
    /// older than GPP.
    public var gpp: WebGPP?
    /// Why the visitor is to be asked (the ask rules' reason, `noDecision`, `vendorsAdded`, ...);
    /// nil when the stored choice holds or GDPR does not apply.
    public var ask: String?
    /// The CMP's id.
    public var cmpId: Int
    /// The CMP's version.
    public var cmpVersion: Int
    /// The vendor list's version.
    public var gvlVersion: Int
    /// The vendor list's TCF policy version.
    public var tcfPolicyVersion: Int
    /// The CMP API's `TCData` for the stored string, or for GDPR not applying; nil while the
    /// visitor is to be asked or when nothing is stored. Its id maps are binary strings (`"101"`:
    /// character n is id n+1), which the page's `ConsentKitTCF.update` expands into the API's maps.
    public var tcData: JSONValue?
    /// What the CMP API says while the notice is on screen; id maps as in ``tcData``.
    public var uiTCData: JSONValue?
    /// The notice's document (docs/notice-protocol.md), when the notice is to be shown.
    public var document: JSONValue?
    /// Why a stored string was ignored (it does not decode, or it is dated in the future).
    public var storedStringRefused: String?
    /// A renewed visitor token, when the one sent is in the last third of its lifetime.
    public var subjectToken: String?

    /// An answer.
    public init(
        gdprApplies: Bool?, region: String, ask: String?, cmpId: Int, cmpVersion: Int, gvlVersion: Int, tcfPolicyVersion: Int,
        tcData: JSONValue?, uiTCData: JSONValue? = nil, document: JSONValue? = nil, storedStringRefused: String? = nil,
        subjectToken: String? = nil, subdivision: String? = nil, gpp: WebGPP? = nil
    ) {
        self.gdprApplies = gdprApplies
        self.region = region
        self.ask = ask
        self.cmpId = cmpId
        self.cmpVersion = cmpVersion
        self.gvlVersion = gvlVersion
        self.tcfPolicyVersion = tcfPolicyVersion
        self.tcData = tcData
        self.uiTCData = uiTCData
        self.document = document
        self.storedStringRefused = storedStringRefused
        self.subjectToken = subjectToken
        self.subdivision = subdivision
        self.gpp = gpp
    }

    /// The answer's field names.
    public enum CodingKeys: String, CodingKey, CaseIterable, Sendable {
        /// `gdprApplies`.
        case gdprApplies
        /// `region`.
        case region
        /// `subdivision`.
        case subdivision
        /// `gpp`.
        case gpp
        /// `ask`.
        case ask
        /// `cmpId`.
        case cmpId
        /// `cmpVersion`.
        case cmpVersion
        /// `gvlVersion`.
        case gvlVersion
        /// `tcfPolicyVersion`.
        case tcfPolicyVersion
        /// `tcData`.
        case tcData
        /// `uiTCData`.
        case uiTCData
        /// `document`.
        case document
        /// `storedStringRefused`.
        case storedStringRefused
        /// `subjectToken`.
        case subjectToken
    }

    /// Writes the answer: `gdprApplies`, `ask` and `tcData` always (null when absent), the
    /// rest only when present, as consentd does (which always sends `gpp`).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(gdprApplies, forKey: .gdprApplies)
        try container.encode(region, forKey: .region)
        try container.encodeIfPresent(subdivision, forKey: .subdivision)
        try container.encodeIfPresent(gpp, forKey: .gpp)
        try container.encode(ask, forKey: .ask)
        try container.encode(cmpId, forKey: .cmpId)
        try container.encode(cmpVersion, forKey: .cmpVersion)
        try container.encode(gvlVersion, forKey: .gvlVersion)
        try container.encode(tcfPolicyVersion, forKey: .tcfPolicyVersion)
        try container.encode(tcData ?? .null, forKey: .tcData)
        try container.encodeIfPresent(uiTCData, forKey: .uiTCData)
        try container.encodeIfPresent(document, forKey: .document)
        try container.encodeIfPresent(storedStringRefused, forKey: .storedStringRefused)
        try container.encodeIfPresent(subjectToken, forKey: .subjectToken)
    }
}
