/// What the publisher may tell consentd about the person behind a subject, as iubenda's Create
/// Consent takes it (`subject.email`, `first_name`, `last_name`, `full_name`, `verified`): sent
/// with an event as its `subject` field, every field optional.
///
/// consentd never stores it in clear: each event keeps a keyed hash of it in its hash-chained
/// record and the information itself encrypted under a key derived from the server secret. It
/// comes back only in the subject's history and export, and an erasure deletes it. It is not
/// part of the subject's current state, so a device's sync never reads it.
public struct SubjectInformation: Sendable, Equatable, Codable {
    /// The person's e-mail address (3-254 bytes, with an `@`).
    public var email: String?
    /// The first name (1-200 bytes).
    public var firstName: String?
    /// The last name (1-200 bytes).
    public var lastName: String?
    /// The full name (1-200 bytes).
    public var fullName: String?
    /// Whether the publisher verified the information (for example a confirmed e-mail address).
    public var verified: Bool?

    /// Creates subject information; give at least one field.
    public init(email: String? = nil, firstName: String? = nil, lastName: String? = nil, fullName: String? = nil, verified: Bool? = nil) {
        self.email = email
        self.firstName = firstName
        self.lastName = lastName
        self.fullName = fullName
        self.verified = verified
    }

    /// The JSON field names, as the API spells them.
    public enum CodingKeys: String, CodingKey, CaseIterable, Sendable {
        /// `email`.
        case email
        /// `firstName`.
        case firstName
        /// `lastName`.
        case lastName
        /// `fullName`.
        case fullName
        /// `verified`.
        case verified
    }
}
