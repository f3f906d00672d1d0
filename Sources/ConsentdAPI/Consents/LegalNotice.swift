/// A legal document the user was shown or accepted with a choice (a privacy policy, terms of
/// use), by the publisher's identifier and version: iubenda's `legal_notices` entry, so the
/// exact text a user accepted stays resolvable.
public struct LegalNotice: Sendable, Equatable, Codable {
    /// The publisher's identifier of the document (1-200 bytes), such as `privacy_policy`.
    public var identifier: String
    /// The version of the document shown (1-100 bytes).
    public var version: String

    /// Creates a reference to a document.
    public init(identifier: String, version: String) {
        self.identifier = identifier
        self.version = version
    }

    /// The JSON field names, as the API spells them.
    public enum CodingKeys: String, CodingKey, CaseIterable, Sendable {
        /// `identifier`.
        case identifier
        /// `version`.
        case version
    }
}
