/// The `gpp` object of `POST /v1/web/session` and `POST /v1/web/choices`: what the page's `__gpp`
/// answers (the PingReturn fields the CMP owns, which `cmp.js` hands to `ConsentKitGPP.update`),
/// with the site's MSPA settings.
///
/// ```json
/// {"applicableSections": [8], "gppString": "DBABBg~BVoYYYAAEABgA.QA", "mspaCoveredTransaction": false, "mspaMode": null,
///  "parsedSections": {"usca": [{"Version": 1, "SaleOptOutNotice": 1, …}, {"SubsectionType": 1, "Gpc": false}]},
///  "sectionList": [8], "supportedAPIs": ["2:tcfeuv2", "5:tcfcav1", …]}
/// ```
/// In the EEA it carries the `tcfeuv2` section (the TC string) and `applicableSections` `[2]`; in
/// the US the visitor's US section ([7] usnat or the state's); elsewhere no section (`DBAA`) and
/// `applicableSections` `[-1]`.
public struct WebGPP: Sendable, Equatable, Codable {
    /// The GPP string (`DBAA`: no section).
    public var gppString: String
    /// The ids of the string's sections, in order.
    public var sectionList: [Int]
    /// The ids in force (at most two), `[-1]` when none applies.
    public var applicableSections: [Int]
    /// The string's sections in the CMP API's form: `{prefix: [core, sub-section, …]}` with the
    /// IAB section specs' field names.
    public var parsedSections: JSONValue
    /// Every section the CMP supports, as `"id:prefix"`.
    public var supportedAPIs: [String]
    /// Whether the site's transactions are MSPA covered (``GPPApplicability/mspaCoveredTransaction``).
    public var mspaCoveredTransaction: Bool
    /// Their mode; nil when not covered.
    public var mspaMode: GPPApplicability.MSPAMode?

    /// An object.
    public init(gppString: String, sectionList: [Int], applicableSections: [Int], parsedSections: JSONValue, supportedAPIs: [String],
                mspaCoveredTransaction: Bool = false, mspaMode: GPPApplicability.MSPAMode? = nil) {
        self.gppString = gppString
        self.sectionList = sectionList
        self.applicableSections = applicableSections
        self.parsedSections = parsedSections
        self.supportedAPIs = supportedAPIs
        self.mspaCoveredTransaction = mspaCoveredTransaction
        self.mspaMode = mspaMode
    }

    private enum CodingKeys: String, CodingKey {
        case gppString, sectionList, applicableSections, parsedSections, supportedAPIs, mspaCoveredTransaction, mspaMode
    }

    /// Writes every field, `mspaMode` as `null` when not covered.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(gppString, forKey: .gppString)
        try container.encode(sectionList, forKey: .sectionList)
        try container.encode(applicableSections, forKey: .applicableSections)
        try container.encode(parsedSections, forKey: .parsedSections)
        try container.encode(supportedAPIs, forKey: .supportedAPIs)
        try container.encode(mspaCoveredTransaction, forKey: .mspaCoveredTransaction)
        try container.encode(mspaMode, forKey: .mspaMode)
    }
}
