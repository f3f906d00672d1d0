import ConsentdAPI
import Foundation

/// The drain: the outbox's pending events sent in order, per subject, by batch or alone, and
/// what each of consentd's answers does to them (acknowledged, dead-lettered, retried later).
extension ConsentSync {
    /// Sends what is pending; true when consentd acknowledged something.
    func drain(_ files: Files) async -> Result<Bool, Stop> {
        var sentAny = false
        var blocked = Set<String>()
        var refreshed = Set<String>()
        while true {
            let group = nextGroup(files, skipping: blocked)
            guard let first = group.first else { return .success(sentAny) }
            switch await credential(for: first.subject, files: files) {
            case nil:
                blocked.insert(first.subject)
                if let user = first.userId { state.withLock { $0.status.lastError = .waitingForCredential(userId: user) } }
            case .publishable?:
                guard await sendCreatingSubject(first, files: files) else { return .failure(Stop()) }
                sentAny = true
            case .token(let subjectId, let token)?:
                let useBatch = group.count > 1 && !state.withLock { $0.batchUnsupported }
                let sent = useBatch
                    ? await sendBatch(group, subjectId: subjectId, token: token, files: files)
                    : await sendOne(first, subjectId: subjectId, token: token, files: files)
                switch sent {
                case .sent: sentAny = true
                case .retryWithFreshCredential:
                    if !refreshed.contains(first.subject) {
                        refreshed.insert(first.subject)
                        if await credential(for: first.subject, files: files, refresh: true) != nil { continue }
                    }
                    fail(.credentialRejected(subject: subjectId, status: 401, message: "a fresh token from the provider was refused too"), schedule: true)
                    blocked.insert(first.subject)
                case .blocked:
                    blocked.insert(first.subject)
                case .stop: return .failure(Stop())
                }
            }
        }
    }

    /// The oldest pending entries of one subject (the oldest entry's, unless blocked), committed,
    /// in order, up to the batch size.
    private func nextGroup(_ files: Files, skipping blocked: Set<String>) -> [OutboxEntry] {
        return self.files.withLock { _ in
            // Read under the files' lock, which enqueue holds while it appends: an entry seen
            // here is either committed or known to be uncommitted.
            let uncommitted = state.withLock { $0.uncommitted }
            var group: [OutboxEntry] = []
            for entry in files.outbox.pending {
                if uncommitted.contains(entry.eventId) { break }
                if blocked.contains(entry.subject) { continue }
                if let first = group.first, first.subject != entry.subject { continue }
                group.append(entry)
                if group.count == settings.batchSize { break }
            }
            return group
        }
    }

    enum Sent { case sent, retryWithFreshCredential, blocked, stop }

    /// The installation's first event: sent with the publishable key and no subject, so consentd
    /// creates the subject and answers its installation token, kept before the event is marked
    /// sent (a retry after a crash gets the same answer, and so the same subject).
    private func sendCreatingSubject(_ entry: OutboxEntry, files: Files) async -> Bool {
        let answer: ConsentdAnswer
        do {
            answer = try await client.append(entry.event, credential: client.endpoint.publishableKey, timeout: settings.requestTimeout)
        } catch {
            fail(.unavailable(error), schedule: true)
            return false
        }
        guard answer.status == 200 || answer.status == 201 else {
            return handleEventAnswer(answer, entry: entry, files: files)
        }
        guard let result = try? answer.decode(AppendResult.self), let token = result.subjectToken else {
            fail(.unavailable(.malformed(url: answer.url, message: "an append with the publishable key answered no subjectToken")), schedule: true)
            return false
        }
        let saved = self.files.withLock { _ in
            Result { () throws(OutboxLogError) in
                files.identity.anonymousSubjectId = result.subjectId
                files.identity.installationToken = token
                try files.identity.save(to: files.credentials)
            }
        }
        if case .failure(let error) = saved {
            fail(.file(String(describing: error)), schedule: true)
            return false
        }
        return acknowledge([entry], results: [result], files: files, compacting: true)
    }

    private func sendOne(_ entry: OutboxEntry, subjectId: String, token: String, files: Files) async -> Sent {
        var event = entry.event
        event.subjectId = subjectId
        let answer: ConsentdAnswer
        do {
            answer = try await client.append(event, credential: token, timeout: settings.requestTimeout)
        } catch {
            fail(.unavailable(error), schedule: true)
            return .stop
        }
        if answer.status == 401 || answer.status == 403 { return credentialRefused(answer, subjectId: subjectId, entry: entry) }
        if answer.status == 200 || answer.status == 201, let result = try? answer.decode(AppendResult.self) {
            return acknowledge([entry], results: [result], files: files) ? .sent : .stop
        }
        return handleEventAnswer(answer, entry: entry, files: files) ? .sent : .stop
    }

    private func sendBatch(_ group: [OutboxEntry], subjectId: String, token: String, files: Files) async -> Sent {
        let events = group.map { entry -> ConsentEventRequest in
            var event = entry.event
            event.subjectId = subjectId
            return event
        }
        let answer: ConsentdAnswer
        do {
            answer = try await client.appendBatch(events, credential: token, timeout: settings.requestTimeout)
        } catch {
            fail(.unavailable(error), schedule: true)
            return .stop
        }
        switch answer.status {
        case 200:
            guard let response = try? answer.decode(ConsentBatchResponse.self), response.results.count == group.count else {
                fail(.unavailable(.malformed(url: answer.url, message: "the batch answer does not have one result per event")), schedule: true)
                return .stop
            }
            var acknowledged: [(OutboxEntry, AppendResult)] = []
            for (entry, item) in zip(group, response.results) {
                if let result = item.result, item.status == 200 || item.status == 201 {
                    acknowledged.append((entry, result))
                } else if item.status == 401 || item.status == 403 {
                    // Sent so far stays sent; the rest waits for a working credential.
                    guard acknowledge(acknowledged.map(\.0), results: acknowledged.map(\.1), files: files) else { return .stop }
                    let detail = item.error ?? ConsentdErrorBody.Detail(code: "forbidden", message: "")
                    fail(.credentialRejected(subject: subjectId, status: item.status, message: detail.message), schedule: true)
                    return .blocked
                } else if Self.contractStatuses.contains(item.status) {
                    guard acknowledge(acknowledged.map(\.0), results: acknowledged.map(\.1), files: files) else { return .stop }
                    acknowledged = []
                    guard deadLetter(entry, status: item.status, error: item.error ?? ConsentdErrorBody.Detail(code: "unknown", message: "no error body"),
                                     files: files) else { return .stop }
                } else {
                    // Not a refusal of the event itself: what was sent stays sent, the rest waits.
                    guard acknowledge(acknowledged.map(\.0), results: acknowledged.map(\.1), files: files) else { return .stop }
                    fail(.unavailable(.status(url: answer.url, status: item.status, code: item.error?.code, message: item.error?.message)),
                         schedule: true)
                    return .stop
                }
            }
            return acknowledge(acknowledged.map(\.0), results: acknowledged.map(\.1), files: files) ? .sent : .stop
        case 404, 405:
            // A consentd from before the batch route: one event per request from now on.
            state.withLock { $0.batchUnsupported = true }
            return .sent
        case 401, 403:
            return credentialRefused(answer, subjectId: subjectId, entry: group[0])
        case 400, 413:
            // The batch as a whole was refused: each event alone decides its fate.
            return await sendOne(group[0], subjectId: subjectId, token: token, files: files)
        default:
            handleRequestFailure(answer, subject: subjectId)
            return .stop
        }
    }

    /// A refused token: a provider's is minted again once; any other blocks the subject's
    /// events (kept) until a pass after the backoff, or a new ``identify(userId:token:provider:)``.
    private func credentialRefused(_ answer: ConsentdAnswer, subjectId: String, entry: OutboxEntry) -> Sent {
        if let user = entry.userId, state.withLock({ $0.providers[user] != nil }) { return .retryWithFreshCredential }
        fail(.credentialRejected(subject: subjectId, status: answer.status, message: answer.problem?.message ?? ""), schedule: true)
        return .blocked
    }

    /// A single event's refusal: a contract error moves it to the dead-letter file (true: go
    /// on); anything else is a failure of the request (false: stop, back off).
    private func handleEventAnswer(_ answer: ConsentdAnswer, entry: OutboxEntry, files: Files) -> Bool {
        switch answer.status {
        case let status where Self.contractStatuses.contains(status):
            return deadLetter(entry, status: answer.status,
                              error: answer.problem ?? ConsentdErrorBody.Detail(code: "unknown", message: "no error body"), files: files)
        default:
            handleRequestFailure(answer, subject: entry.subject)
            return false
        }
    }

    func handleRequestFailure(_ answer: ConsentdAnswer, subject: String) {
        switch answer.status {
        case 429, 503:
            // Bounded: a Retry-After of days (or of a year 9999 date) must neither stop sync for
            // the session nor overflow the timer.
            let wait = min(answer.retryAfter ?? backoff(after: state.withLock { $0.failures + 1 }), settings.maximumBackoff)
            state.withLock { $0.retryAfterUntil = now().addingTimeInterval(wait) }
            fail(.throttled(status: answer.status, retryAfter: wait), schedule: true, after: wait)
        case 401, 403:
            fail(.credentialRejected(subject: subject, status: answer.status, message: answer.problem?.message ?? ""), schedule: true)
        default:
            fail(.unavailable(answer.error), schedule: true)
        }
    }

    /// The statuses that refuse an event for what it is: sending it again cannot change them.
    static let contractStatuses: Set<Int> = [400, 409, 410, 413, 415, 422]

    /// Moves `entry` to the dead-letter file and reports it; false when the file could not be
    /// written (the entry stays pending, and the pass stops and backs off rather than sending
    /// it again at once).
    private func deadLetter(_ entry: OutboxEntry, status: Int, error: ConsentdErrorBody.Detail, files: Files) -> Bool {
        let moved = self.files.withLock { _ in
            Result { () throws(OutboxLogError) in try files.outbox.deadLetter(entry, status: status, error: error, at: now()) }
        }
        if case .failure(let problem) = moved {
            fail(.file(String(describing: problem)), schedule: true)
            return false
        }
        report(.failed(.eventRejected(eventId: entry.eventId, status: status, code: error.code, message: error.message, field: error.field)))
        return true
    }

    /// Marks `entries` sent (`compacting`: and rewrites the outbox without them at once) and
    /// hands each answer's winning state to the manager.
    private func acknowledge(_ entries: [OutboxEntry], results: [AppendResult], files: Files, compacting: Bool = false) -> Bool {
        guard !entries.isEmpty else { return true }
        let marked = self.files.withLock { _ in
            Result { () throws(OutboxLogError) in try files.outbox.markSent(entries.map(\.eventId), compacting: compacting) }
        }
        if case .failure(let error) = marked {
            fail(.file(String(describing: error)), schedule: true)
            return false
        }
        succeeded()
        forgetCredentialsOfSignedOutUsers(among: entries, files: files)
        // Every answer carries the subject's winner (the last one is the newest of them); it is
        // this device's only when the events were the current subject's.
        let current = self.files.withLock { _ in files.identity.userId.map(OutboxEntry.user) ?? OutboxEntry.installation }
        if entries.last?.subject == current, let winner = results.last?.current { heldLedger?.apply(winner) }
        return true
    }

    /// Drops the token and provider of a signed-out user whose last pending event was just sent.
    private func forgetCredentialsOfSignedOutUsers(among entries: [OutboxEntry], files: Files) {
        let users = Set(entries.compactMap(\.userId))
        let done = self.files.withLock { _ -> [String] in
            let done = users.filter { user in files.identity.userId != user && !files.outbox.pending.contains { $0.userId == user } }
            guard !done.isEmpty else { return [] }
            for user in done { files.identity.userTokens[user] = nil }
            try? files.identity.save(to: files.credentials)
            return Array(done)
        }
        guard !done.isEmpty else { return }
        state.withLock { state in
            for user in done {
                state.providers[user] = nil
                state.minted[user] = nil
            }
        }
    }
}
