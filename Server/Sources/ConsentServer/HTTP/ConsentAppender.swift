import ConsentKitFormats
import ConsentRequests
import Foundation
import Hummingbird

/// Appends checked consent events for a principal, by the rules of `POST /v1/consents`, and
/// makes the installation token a subject-creating answer carries: the one way an event is
/// written, whichever route carries it (`/v1/consents`, `/v1/consents/batch`, `/v1/web/choices`,
/// `/demo/result`).
struct ConsentAppender: Sendable {
    /// The consent database.
    let store: ConsentStore
    /// The API keys, for the anonymous subject's quota and the retry token.
    let keys: APIKeys
    /// The server secret, which hashes subject ids and signs tokens.
    let secret: ServerSecret
    /// The subject-token rule (a token writes its own subject only).
    let authenticator: Authenticator
    /// The anonymous subject's quota: events (``ServerSettings/anonymousSubjectEventsPerDay``)
    /// and bytes (``ServerSettings/anonymousSubjectBytesPerDay``) in any 24 hours; 0 is no limit.
    let quota: (events: Int, bytes: Int)
    /// The region decision, for the region the analytics count an event in.
    let resolver: RegionResolver
    /// The trusted proxy's client-address header (``ServerSettings/clientIPHeader``).
    let clientIPHeader: String?

    /// The region `request` was sent from, as the analytics count its events
    /// (``RegionDecision/analyticsRegion``; a caller's debug region is not honoured here).
    func region(of request: Request, context: ConsentdContext) -> String {
        resolver.decide(headers: request.headers, address: clientAddress(request, context, header: clientIPHeader), debug: nil).analyticsRegion
    }

    /// Checks and appends events for `principal`, by the rules of `POST /v1/consents`, and answers
    /// each in order: the store's answer, or the refusal that route would have sent for that event
    /// alone. The events that pass go to the store together, in order: one transaction.
    ///
    /// The rules, for each event that decoded: with a publishable key, no `subjectId` (`403
    /// subject_credential_required`); with a subject token, its own subject (`400 missing_field`
    /// without one, `403 forbidden` for another); with `requiringSubject` (a batch, which writes
    /// existing subjects only), a `subjectId` whatever the credential (`400 missing_field`); a
    /// subject erased is `410 subject_erased` unless the credential may write it anew; an event id
    /// used before with other content is `409 event_id_conflict`.
    ///
    /// `region` is the region the events were sent from, as the analytics count them
    /// (``region(of:context:)``).
    ///
    /// Throws only what fails the request as a whole: a database that does not answer.
    func appendEvents(
        _ events: [Result<CheckedConsentEvent, APIError>], for principal: Principal, requiringSubject: Bool, region: String
    ) async throws -> [Result<ConsentStore.AppendAnswer, APIError>] {
        var answers = [Result<ConsentStore.AppendAnswer, APIError>?](repeating: nil, count: events.count)
        var admitted: [(index: Int, event: CheckedConsentEvent)] = []
        for (index, event) in events.enumerated() {
            do throws(APIError) {
                let event = try event.get()
                try admit(event, for: principal, requiringSubject: requiringSubject)
                admitted.append((index, event))
            } catch {
                answers[index] = .failure(error)
            }
        }
        admitted = try await withinQuota(admitted, for: principal, answers: &answers)
        // Erasures, for the subjects of the events admitted so far, in one query.
        let erasures = try await store.erasures(appId: principal.appId, subjectIds: Set(admitted.compactMap(\.event.subjectId)))
        var appending: [(index: Int, event: CheckedConsentEvent)] = []
        for (index, event) in admitted {
            if let subjectId = event.subjectId, let erased = erasures[subjectId], !erased.admits(principal.credential, token: principal.token) {
                answers[index] = .failure(APIError(.gone, "subject_erased", erased.restartedAt == nil
                    ? "subject \(subjectId) was erased; the publisher's backend may start it anew with POST /v1/subjects/{subjectId}/restart"
                    : "subject \(subjectId) was erased and started anew; credentials from before the erasure no longer write it",
                    field: "subjectId"))
            } else {
                appending.append((index, event))
            }
        }
        if !appending.isEmpty {
            let stored = try await store.append(appId: principal.appId, contentsOf: appending.map(\.event), credential: principal.credential,
                                                keyId: principal.keyId, region: region)
            for ((index, _), result) in zip(appending, stored) {
                switch result {
                case .success(let answer):
                    answers[index] = .success(answer)
                case .failure(let error as StoreError):
                    answers[index] = .failure(APIError(.conflict, "event_id_conflict", error.description, field: "eventId"))
                case .failure(let error):
                    // Not the event's fault: the request fails as a whole (503), as a single append would.
                    throw error
                }
            }
        }
        return answers.map { $0! }
    }

    /// The events of `admitted` that fit the anonymous subject's quota, the others answered
    /// `429` (events) or `413` (bytes) `subject_quota_exceeded` in `answers`. An anonymous
    /// subject is one a publishable key created: it is written with the token that key minted,
    /// and may store ``ServerSettings/anonymousSubjectEventsPerDay`` events and
    /// ``ServerSettings/anonymousSubjectBytesPerDay`` bytes in any 24 hours. Other credentials
    /// pass untouched.
    private func withinQuota(
        _ admitted: [(index: Int, event: CheckedConsentEvent)], for principal: Principal,
        answers: inout [Result<ConsentStore.AppendAnswer, APIError>?]
    ) async throws -> [(index: Int, event: CheckedConsentEvent)] {
        let (maxEvents, maxBytes) = quota
        guard principal.credential == .subjectToken, let subjectHash = principal.subjectHash, !admitted.isEmpty,
              maxEvents > 0 || maxBytes > 0,
              try await keys.liveKey(id: principal.keyId)?.kind == .publishable else { return admitted }
        var (events, bytes) = try await store.usage(appId: principal.appId, subjectHash: subjectHash, since: Date(timeIntervalSinceNow: -86_400))
        var fitting: [(index: Int, event: CheckedConsentEvent)] = []
        for (index, event) in admitted {
            let size = event.consent.canonicalJSON.utf8.count
            if maxEvents > 0, events + 1 > maxEvents {
                answers[index] = .failure(APIError(.tooManyRequests, "subject_quota_exceeded",
                    "this anonymous subject stored \(maxEvents) events in the last 24 hours, its quota; retry later", retryAfter: 3600))
            } else if maxBytes > 0, bytes + size > maxBytes {
                answers[index] = .failure(APIError(.contentTooLarge, "subject_quota_exceeded",
                    "this anonymous subject stored \(bytes) of its \(maxBytes) bytes in the last 24 hours; this event of \(size) bytes does not fit"))
            } else {
                events += 1
                bytes += size
                fitting.append((index, event))
            }
        }
        return fitting
    }

    /// How long a retry of a subject-creating event may still be given a token: 24 hours from
    /// the first answer. Past that the retry gets the stored answer without one.
    static let creationRetryTokenWindow: Int64 = 24 * 3600 * 1000

    /// The installation token an answer to `principal` carries, nil when it carries none. Only an
    /// event that created its subject gets one, sent with a publishable key: on its first answer;
    /// on a retry only when the key is the one that created the subject (and, as it
    /// authenticated, still live) and within ``creationRetryTokenWindow`` of the first answer. So
    /// a creating event's body is never a lasting credential for its subject.
    ///
    /// `lifetime` is nil for an app's installation token (it does not expire); a web page's
    /// visitor gets one that expires after ``ServerSettings/webTokenLifetime``.
    func creationToken(for principal: Principal, answer: ConsentStore.AppendAnswer, lifetime: Duration? = nil, now: Date = Date()) throws -> String? {
        guard principal.credential == .publishable, let creation = answer.creation else { return nil }
        if !answer.created {
            guard creation.keyId == principal.keyId,
                  ISO8601.milliseconds(of: now) - creation.firstAnsweredAt < Self.creationRetryTokenWindow else { return nil }
        }
        let subjectHash = secret.subjectHash(appId: principal.appId, subjectId: try answer.result().subjectId)
        return SubjectToken(appId: principal.appId, subjectHash: subjectHash, keyId: principal.keyId, lifetime: lifetime, now: now).encoded(with: secret)
    }

    /// Whether `principal` may write `event`'s subject (the rules that need no database).
    private func admit(_ event: CheckedConsentEvent, for principal: Principal, requiringSubject: Bool) throws(APIError) {
        switch principal.credential {
        case .publishable:
            // The key ships inside every app, so it is public: alone it may only create a subject.
            if event.subjectId != nil {
                throw APIError(.forbidden, "subject_credential_required",
                               "a publishable key alone cannot write for a subjectId: send the subject's token "
                               + "(returned when consentd created the subject, or minted by the publisher's backend)",
                               field: "subjectId")
            }
        case .subjectToken:
            guard let subjectId = event.subjectId else {
                throw APIError(.badRequest, "missing_field", "with a subject token, subjectId is required", field: "subjectId")
            }
            try authenticator.requireSubject(principal, subjectId: subjectId)
        case .secret:
            break
        }
        if requiringSubject, event.subjectId == nil {
            throw APIError(.badRequest, "missing_field",
                           "subjectId is required: a batch writes existing subjects (POST /v1/consents without subjectId creates one)",
                           field: "subjectId")
        }
    }
}
