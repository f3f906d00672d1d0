/// The body of `POST /v1/web/choices`: a choice made on a website's notice (``message``), or the
/// consent of the app whose web view shows the page (``appConsent``), with what the page's
/// document was built from. consentd refuses a key outside these (and ``AppConsent``'s), or
/// one given twice, naming it.
public struct WebChoiceRequest: Sendable, Equatable, Codable {
    /// The site's publishable key (or a visitor's subject token).
    public var credential: String
    /// The visitor's language, as sent with the page view.
    public var language: String?
    /// The TC string the notice's document was built with.
    public var tcString: String?
    /// The Additional Consent string kept with it.
    public var addtlConsent: String?
    /// The GPP string the notice's document was built with (a US notice's present choices,
    /// read only without ``usChoice``).
    public var gppString: String?
    /// The visitor's own US choice the notice's document was built with (the page's
    /// `consentkit-us-choice`, as sent with the page view).
    public var usChoice: USChoiceRecord?
    /// The browser's Global Privacy Control signal (`navigator.globalPrivacyControl`); a
    /// `Sec-GPC: 1` header says the same.
    public var gpc: Bool?
    /// The notice was reopened from the privacy settings.
    public var reopen: Bool?
    /// The region pretended for the page view (`WebSessionRequest.debugRegion`), which decides
    /// whether the result is a US notice's.
    public var debugRegion: DebugRegion?
    /// With a subject token, the subject it was minted for.
    public var subjectId: String?
    /// The notice's result message (docs/notice-protocol.md), an object.
    public var message: JSONValue?
    /// The app's consent, with the app's own credential.
    public var appConsent: AppConsent?

    /// The consent of the app whose web view shows the page.
    public struct AppConsent: Sendable, Equatable, Codable {
        /// The app's TC string.
        public var tcString: String
        /// The app's Additional Consent string.
        public var addtlConsent: String?
        /// The app's subject token (`ckt_…`), minted for ``subjectId``.
        public var subjectToken: String?
        /// The app's subject.
        public var subjectId: String?

        /// The app's consent.
        public init(tcString: String, addtlConsent: String? = nil, subjectToken: String? = nil, subjectId: String? = nil) {
            self.tcString = tcString
            self.addtlConsent = addtlConsent
            self.subjectToken = subjectToken
            self.subjectId = subjectId
        }

        /// The object's field names.
        public enum CodingKeys: String, CodingKey, CaseIterable, Sendable {
            /// `tcString`.
            case tcString
            /// `addtlConsent`.
            case addtlConsent
            /// `subjectToken`.
            case subjectToken
            /// `subjectId`.
            case subjectId
        }
    }

    /// A choice.
    public init(credential: String, language: String? = nil, tcString: String? = nil, addtlConsent: String? = nil, reopen: Bool? = nil,
                subjectId: String? = nil, message: JSONValue? = nil, appConsent: AppConsent? = nil, gppString: String? = nil, gpc: Bool? = nil,
                debugRegion: DebugRegion? = nil, usChoice: USChoiceRecord? = nil) {
        self.debugRegion = debugRegion
        self.usChoice = usChoice
        self.gppString = gppString
        self.gpc = gpc
        self.credential = credential
        self.language = language
        self.tcString = tcString
        self.addtlConsent = addtlConsent
        self.reopen = reopen
        self.subjectId = subjectId
        self.message = message
        self.appConsent = appConsent
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
        /// `subjectId`.
        case subjectId
        /// `message`.
        case message
        /// `appConsent`.
        case appConsent
    }
}
