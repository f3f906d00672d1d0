/// A subject that was erased (GDPR Art. 17), and whether the publisher's backend started it anew.
///
/// An erased subject stays erased: no credential held before the erasure can write it again,
/// so a device that still holds an installation token, or a session token minted earlier,
/// cannot recreate what was erased. Only the backend starts it anew
/// (`POST /v1/subjects/{subjectId}/restart`, secret key); from then on the secret key, and
/// session tokens minted after the erasure, may write it. Installation tokens never come back.
public struct ErasedSubject: Sendable, Equatable {
    /// When it was last erased, in milliseconds since 1970.
    public var erasedAt: Int64
    /// When the backend started it anew, nil while it stays erased.
    public var restartedAt: Int64?

    /// Whether a request with `credential` (and, for a subject token, `token`) may write it.
    func admits(_ credential: CredentialKind, token: SubjectToken?) -> Bool {
        guard restartedAt != nil else { return false }
        switch credential {
        case .secret: return true
        case .publishable: return false
        case .subjectToken: return (token?.issuedAt).map { $0 > erasedAt } ?? false
        }
    }
}
