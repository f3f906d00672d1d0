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

extension Consentd {
    /// The erasure rule for subject tokens, on every route that takes one, reads and writes
    /// alike: a token minted before its subject's last erasure never works again (`410
    /// subject_erased`), also once the backend has started the subject anew; only tokens minted
    /// after the erasure work, and only after the restart. Installation tokens have no minting
    /// time and so never outlive an erasure.
    func refuseErased(_ token: SubjectToken) async throws {
        guard let erased = try await store.erasures(appId: token.appId, subjectHashes: [token.subjectHash])[token.subjectHash],
              !erased.admits(.subjectToken, token: token) else { return }
        throw APIError(.gone, "subject_erased", erased.restartedAt == nil
            ? "this token's subject was erased; the publisher's backend may start it anew with POST /v1/subjects/{subjectId}/restart"
            : "this token's subject was erased and started anew; tokens from before the erasure no longer read or write it")
    }
}
