import Hummingbird

/// Who a request speaks for: an app, through one kind of credential, and for a subject token the
/// one subject it is limited to.
struct Principal: Sendable {
    var appId: String
    var credential: CredentialKind
    /// The API key behind the request: the key itself, or the one that minted the subject token.
    var keyId: String
    /// Set for subject tokens: the token, which limits the request to its subject.
    var token: SubjectToken?
    /// Set for subject tokens: the stored form of the only subject the request may touch.
    var subjectHash: String? { token?.subjectHash }
}

extension Consentd {
    /// Checks the bearer credential, that its kind may use this route, and its rate limit.
    func authenticate(_ request: Request, allowing allowed: Set<CredentialKind>, action: String) async throws -> Principal {
        guard let header = request.headers[.authorization], header.hasPrefix("Bearer ") else { throw APIError.unauthorized }
        return try await authenticate(credential: String(header.dropFirst("Bearer ".count)), allowing: allowed, action: action)
    }

    /// Checks a credential given as text (an API key or a subject token), that its kind may use
    /// this route, and its rate limit: what a bearer header is checked for, for the web CMP's
    /// routes, whose pages send it in the body.
    ///
    /// The rate limits (``ServerSettings/rateLimitPerKey`` each): a secret key has one bucket; a
    /// subject token one per subject; a publishable key, which every install and every page of a
    /// site carries, one per client address (``RequestOrigin/address``), under a ceiling for the
    /// key over all addresses (``ServerSettings/rateLimitPerPublicKey``), so no address can spend
    /// another's share.
    func authenticate(credential: String, allowing allowed: Set<CredentialKind>, action: String) async throws -> Principal {
        let token = credential.trimmingCharacters(in: .whitespaces)
        let principal: Principal
        let limitKey: String
        var ceilingKey: String?
        if token.hasPrefix("ckt_") {
            guard let subject = SubjectToken.verify(token, with: secret) else {
                throw APIError(.unauthorized, "unauthorized", "the subject token is not valid or has expired; mint a new one")
            }
            // A token dies with the key that minted it.
            guard let key = try await keys.liveKey(id: subject.keyId), key.appId == subject.appId else {
                throw APIError(.unauthorized, "unauthorized", "the key that minted this subject token was revoked")
            }
            try await refuseErased(subject)
            principal = Principal(appId: subject.appId, credential: .subjectToken, keyId: subject.keyId, token: subject)
            limitKey = "subject:" + subject.subjectHash
        } else {
            guard let key = try await keys.authenticate(token) else {
                throw APIError(.unauthorized, "unauthorized", "the API key is unknown, revoked or mistyped")
            }
            principal = Principal(appId: key.appId, credential: key.kind == .publishable ? .publishable : .secret, keyId: key.keyId)
            if key.kind == .publishable {
                limitKey = "key:" + key.keyId + " ip:" + (RequestOrigin.address ?? "unknown")
                ceilingKey = "key:" + key.keyId
            } else {
                limitKey = "key:" + key.keyId
            }
        }
        guard allowed.contains(principal.credential) else {
            let kind = switch principal.credential {
            case .publishable: "a publishable key"
            case .secret: "a secret key"
            case .subjectToken: "a subject token"
            }
            throw APIError.forbidden("\(kind) may not \(action)")
        }
        if let wait = keyLimiter.take(limitKey) {
            throw APIError(.tooManyRequests, "rate_limited", "this credential exceeded its request rate; retry in \(wait) s", retryAfter: wait)
        }
        if let ceilingKey, let wait = publicKeyLimiter.take(ceilingKey) {
            throw APIError(.tooManyRequests, "rate_limited", "this publishable key exceeded its request rate over all clients; retry in \(wait) s",
                           retryAfter: wait)
        }
        return principal
    }

    /// Takes one subject creation from the client address's bucket
    /// (``ServerSettings/rateLimitSubjectCreation``) when `principal` is a publishable key, the
    /// credential that creates subjects; the routes call it where a publishable key creates one.
    func takeSubjectCreation(for principal: Principal) throws(APIError) {
        guard principal.credential == .publishable else { return }
        if let wait = subjectCreationLimiter.take("ip:" + (RequestOrigin.address ?? "unknown")) {
            throw APIError(.tooManyRequests, "rate_limited", "too many new subjects from this address; retry in \(wait) s", retryAfter: wait)
        }
    }

    /// Refuses a subject token used for another subject than its own.
    func requireSubject(_ principal: Principal, subjectId: String) throws(APIError) {
        if let allowed = principal.subjectHash, allowed != secret.subjectHash(appId: principal.appId, subjectId: subjectId) {
            throw APIError.forbidden("this subject token is for another subject")
        }
    }
}
