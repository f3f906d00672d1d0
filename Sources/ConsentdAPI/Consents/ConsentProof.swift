/// The proof of a consent: which notice the user saw, in which language, through which SDK, and
/// how the choice was made; with ``documentHash``, also what exactly the notice showed (iubenda's
/// proof `content`, kept as its hash).
public struct ConsentProof: Sendable, Equatable, Codable {
    /// The publisher's identifier of the notice shown (1-200 bytes).
    public var noticeId: String
    /// The version of that notice (1-100 bytes).
    public var noticeVersion: String
    /// The language the notice was shown in (a BCP 47 tag such as `de` or `pt-BR`).
    public var language: String
    /// The version of the SDK that collected the choice (1-100 bytes).
    public var sdkVersion: String
    /// The platform the choice was made on.
    public var platform: Platform
    /// How the choice was made.
    public var method: Method
    /// The SHA-256 of the notice document shown (version ``noticeVersion``), as 64 lower-case
    /// hexadecimal digits: proof of the content the user saw, which the publisher can match
    /// against the document it keeps. Nil when no document was shown or it was not hashed.
    public var documentHash: String?

    /// Creates a proof.
    public init(noticeId: String, noticeVersion: String, language: String, sdkVersion: String, platform: Platform, method: Method,
                documentHash: String? = nil) {
        self.noticeId = noticeId
        self.noticeVersion = noticeVersion
        self.language = language
        self.sdkVersion = sdkVersion
        self.platform = platform
        self.method = method
        self.documentHash = documentHash
    }

    /// The platform a choice was made on; the raw values are the API's.
    public enum Platform: String, Sendable, Equatable, Codable, CaseIterable {
        /// An iOS app.
        case ios
        /// An Android app.
        case android
        /// A website.
        case web
        /// Anything else.
        case other
    }

    /// How a choice was made; the raw values are the API's.
    public enum Method: String, Sendable, Equatable, Codable, CaseIterable {
        /// The user accepted everything.
        case acceptAll
        /// The user refused everything.
        case rejectAll
        /// The user chose purpose by purpose or vendor by vendor.
        case custom
        /// The choice came from another of the user's devices.
        case sync
        /// The app set it through the API (for example from its own UI).
        case programmatic
        /// The user or the app took the decision back (`clearDecision`, `removeAll`): the event
        /// carries no consent, and the subject has no decision from then on.
        case withdrawal
        /// The user was tagged as under the age of consent, which withdraws every consent: the
        /// event carries no consent.
        case underAge
        /// A refusal that follows the user's "Ask App Not to Track" in the system's tracking
        /// prompt, recorded without a notice being shown.
        case trackingDenied
    }

    /// The JSON field names, as the API spells them.
    public enum CodingKeys: String, CodingKey, CaseIterable, Sendable {
        /// `noticeId`.
        case noticeId
        /// `noticeVersion`.
        case noticeVersion
        /// `language`.
        case language
        /// `sdkVersion`.
        case sdkVersion
        /// `platform`.
        case platform
        /// `method`.
        case method
        /// `documentHash`.
        case documentHash
    }
}
