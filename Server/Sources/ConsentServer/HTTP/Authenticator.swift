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

/// Checks credentials: API keys and subject tokens, the kinds a route allows, the erasure rule of
/// subject tokens, and the rate limits per credential. ``CredentialMiddleware`` runs it before
/// the routes that take a bearer header; the web CMP's routes, whose pages send the credential in
/// the body, call it themselves.
struct Authenticator: Sendable {
    /// The API keys.
    let keys: APIKeys
    /// The server secret, which signs subject tokens and hashes subject ids.
    let secret: ServerSecret
    /// The consent database, for the erasure rule.
    let store: ConsentStore
    /// Per secret key, per (publishable key, address) and per subject token.
    let keyLimiter: RateLimiter
    /// Per publishable key over all addresses: the ceiling of a public key.
    let publicKeyLimiter: RateLimiter
    /// Subjects created with a publishable key, per client address.
    let subjectCreationLimiter: RateLimiter

    /// An authenticator over `keys`, `secret` and `store`, with the rate limits of `settings`.
    init(keys: APIKeys, secret: ServerSecret, store: ConsentStore, settings: ServerSettings) {
        self.keys = keys
        self.secret = secret
        self.store = store
        keyLimiter = RateLimiter(limit: settings.rateLimitPerKey)
        publicKeyLimiter = RateLimiter(limit: settings.rateLimitPerPublicKey)
        subjectCreationLimiter = RateLimiter(limit: settings.rateLimitSubjectCreation)
    }

    /// The middleware that lets only `allowed` credentials through to the routes after it, saying
    /// `action` in its refusal ("a publishable key may not <action>").
    func require(_ allowed: Set<CredentialKind>, to action: String) -> CredentialMiddleware {
        CredentialMiddleware(authenticator: self, allowed: allowed, action: action)
    }

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

extension Authenticator {
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
