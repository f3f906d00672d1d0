/// The body of `POST /v1/web/session`: a page view of a website running consentd's web CMP
/// (`/cmp/cmp.js`). consentd refuses a key outside these, or one given twice, naming it.
public struct WebSessionRequest: Sendable, Equatable, Codable {
    /// The site's publishable key (or a visitor's subject token).
    public var credential: String
    /// The visitor's language (`navigator.language`); English when absent or not understood.
    public var language: String?
    /// The TC string the page keeps (`euconsent-v2`), if any.
    public var tcString: String?
    /// The Additional Consent string the page keeps with it, if any.
    public var addtlConsent: String?
    /// The GPP string the page keeps (`consentkit-gpp`), if any: the visitor's US choice.
    public var gppString: String?
    /// The browser's Global Privacy Control signal (`navigator.globalPrivacyControl`); a
    /// `Sec-GPC: 1` header says the same.
    public var gpc: Bool?
    /// The visitor opened their privacy settings: the notice's document, on its second layer.
    public var reopen: Bool?
    /// A region to pretend, for testing a page: honoured only when the operator allows it.
    public var debugRegion: DebugRegion?

    /// A page view.
    public init(credential: String, language: String? = nil, tcString: String? = nil, addtlConsent: String? = nil, reopen: Bool? = nil,
                debugRegion: DebugRegion? = nil, gppString: String? = nil, gpc: Bool? = nil) {
        self.gppString = gppString
        self.gpc = gpc
        self.credential = credential
        self.language = language
        self.tcString = tcString
        self.addtlConsent = addtlConsent
        self.reopen = reopen
        self.debugRegion = debugRegion
    }

    /// The body's field names.
    public enum CodingKeys: String, CodingKey, CaseIterable, Sendable {
        /// `credential`.
        case credential
        /// `language`.
        case language
        /// `tcString`.
        case tcString
        /// `addtlConsent`.
        case addtlConsent
        /// `gppString`.
        case gppString
        /// `gpc`.
        case gpc
        /// `reopen`.
        case reopen
        /// `debugRegion`.
        case debugRegion
    }
}
