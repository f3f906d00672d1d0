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
    /// The visitor opened their privacy settings: the notice's document, on its second layer.
    public var reopen: Bool?
    /// A region to pretend, for testing a page: honoured only when the operator allows it.
    public var debugRegion: DebugRegion?

    /// A page view.
    public init(credential: String, language: String? = nil, tcString: String? = nil, addtlConsent: String? = nil, reopen: Bool? = nil,
                debugRegion: DebugRegion? = nil) {
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
        /// `reopen`.
        case reopen
        /// `debugRegion`.
        case debugRegion
    }
}
