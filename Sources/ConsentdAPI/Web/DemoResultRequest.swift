/// The body of consentd's `POST /demo/result`: a result of the notice playground (`/demo/playground`),
/// with the options its document was built with. consentd refuses a key outside these, or one
/// given twice, naming it.
public struct DemoResultRequest: Sendable, Equatable, Codable {
    /// The options the document was built with (``DemoOptions``; all defaults when absent).
    public var options: DemoOptions?
    /// The notice's result message (docs/notice-protocol.md), an object.
    public var message: JSONValue
    /// The playground's page key, or the subject token its first result returned.
    public var credential: String
    /// With a subject token, the subject it was minted for.
    public var subjectId: String?

    /// A playground result.
    public init(options: DemoOptions? = nil, message: JSONValue, credential: String, subjectId: String? = nil) {
        self.options = options
        self.message = message
        self.credential = credential
        self.subjectId = subjectId
    }

    /// The body's field names.
    public enum CodingKeys: String, CodingKey, CaseIterable, Sendable {
        /// `options`.
        case options
        /// `message`.
        case message
        /// `credential`.
        case credential
        /// `subjectId`.
        case subjectId
    }
}

/// What the notice playground asks for (the body of `POST /demo/document`, and `options` of
/// `POST /demo/result`).
public struct DemoOptions: Sendable, Equatable, Codable {
    /// The notice's mode.
    public enum Mode: String, Sendable, Equatable, Codable, CaseIterable {
        /// The TCF notice.
        case tcf
        /// Google's form.
        case google
    }

    /// `tcf` (default) or `google`.
    public var mode: Mode?
    /// ISO 639-1; English by default.
    public var language: String?
    /// `"20"` (default): twenty vendors, Google among them; `"all"`: every vendor of the list.
    public var vendors: String?
    /// The user opened their privacy settings: the second layer, with the present choices.
    public var reopen: Bool?
    /// Offer "Pay for the ad-free version".
    public var adFree: Bool?
    /// The TC string the page stored after the last choice (the present choices).
    public var tcString: String?
    /// Where the visitor is: `eea` (default: the notice of `mode`), `us` (a US visitor whose state
    /// is not known: the national section) or `us-` and a state's code (`us-ca`: that state's
    /// section, or the national one where the state has none): the US notice at collection.
    public var region: String?
    /// The GPP string the page stored after the last US choice (the present US choices).
    public var gppString: String?

    /// Options; every absent one takes its default.
    public init(mode: Mode? = nil, language: String? = nil, vendors: String? = nil, reopen: Bool? = nil, adFree: Bool? = nil,
                tcString: String? = nil, region: String? = nil, gppString: String? = nil) {
        self.mode = mode
        self.language = language
        self.vendors = vendors
        self.reopen = reopen
        self.adFree = adFree
        self.tcString = tcString
        self.region = region
        self.gppString = gppString
    }
}
