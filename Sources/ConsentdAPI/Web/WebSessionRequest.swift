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
    /// The GPP string the page keeps (`consentkit-gpp`), if any: what `__gpp` answered after the
    /// visitor's last US choice, Global Privacy Control applied. Read for the choice only without
    /// ``usChoice`` (a page of a CMP older than it), and then as possibly forced by GPC
    /// (decision record 0046).
    public var gppString: String?
    /// The visitor's own US choice the page keeps (`consentkit-us-choice`), as the last choice's
    /// answer gave it (``WebChoice/Recorded/usChoice``): before Global Privacy Control is
    /// applied, so that the GPP string is encoded again from it and the signal in force now.
    public var usChoice: USChoiceRecord?
    /// The browser's Global Privacy Control signal (`navigator.globalPrivacyControl`); a
    /// `Sec-GPC: 1` header says the same.
    public var gpc: Bool?
    /// The visitor opened their privacy settings: the notice's document, on its second layer.
    public var reopen: Bool?
    /// A region to pretend, for testing a page: honoured only when the operator allows it.
    public var debugRegion: DebugRegion?

    /// A page view.
    public init(credential: String, language: String? = nil, tcString: String? = nil, addtlConsent: String? = nil, reopen: Bool? = nil,
                debugRegion: DebugRegion? = nil, gppString: String? = nil, gpc: Bool? = nil, usChoice: USChoiceRecord? = nil) {
        self.gppString = gppString
        self.usChoice = usChoice
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
        /// `usChoice`.
        case usChoice
        /// `reopen`.
        case reopen
        /// `debugRegion`.
        case debugRegion
    }
}
