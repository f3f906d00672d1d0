/// The credential an event was appended with, kept with the event as part of its proof.
public enum CredentialKind: String, Codable, Sendable, CaseIterable {
    /// A publishable key, from inside an app.
    case publishable
    /// A secret key, from the customer's backend.
    case secret
    /// A subject token, minted by the customer's backend for one subject.
    case subjectToken
}
