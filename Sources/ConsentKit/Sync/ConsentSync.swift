import ConsentdAPI
import Foundation

/// What the sync client needs of the manager; the manager is its only host.
protocol SyncHost: AnyObject, Sendable {
    /// What the keys reflect now.
    func syncMark() -> SyncMark?
    /// Queues the decision held for `subject` with a new event id and the decision's own time
    /// and method (the push of seed 002's "local is newer"), and makes that event the keys'
    /// mark, so that its echo from consentd is recognised as this decision; the problem, if any.
    func queueHeldDecision(subject: String) -> SyncError?
    /// Applies a newer remote state (checked again under the manager's lock); whether it did.
    func applyRemote(_ remote: SubjectState) -> Bool
    /// Reports a failure on the manager's stream and log.
    func report(_ error: SyncError)
    /// Reports a pass that reached consentd.
    func synced(_ status: SyncStatus)
}

/// The sync client: sends the outbox to consentd in the background, in order, and merges the
/// subject's state back (docs/sync.md).
///
/// Passes run one at a time, each after the one before; triggers that come while a pass is
/// queued join it. A pass reads the subject's state when asked to merge, then drains: per
/// subject, in order, up to ``ConsentSyncSettings/batchSize`` events per request. A failure
/// stops the pass and schedules the next one after a backoff (exponential with jitter, or
/// consentd's `Retry-After`).
final class ConsentSync: Sendable {
    let settings: ConsentSyncSettings
    let client: ConsentdClient
    private let installationId: @Sendable () -> String
    private let host = Locked<WeakHost>(WeakHost())
    private let files = Locked<Files?>(nil)
    private let state = Locked(State())
    private let queue = Locked(PassQueue())

    typealias TokenProvider = @Sendable () async throws -> String

    private struct WeakHost { weak var value: (any SyncHost)? }

    /// The outbox and the identity's credential store, opened on first use; touched only under
    /// `files`' lock.
    private final class Files: @unchecked Sendable {
        let outbox: Outbox
        let credentials: any SyncCredentialStore
        var identity: SyncIdentity
        init(outbox: Outbox, credentials: any SyncCredentialStore, identity: SyncIdentity) {
            self.outbox = outbox
            self.credentials = credentials
            self.identity = identity
        }
    }

    private struct State {
        var status = SyncStatus()
        var providers: [String: TokenProvider] = [:]
        var minted: [String: String] = [:]
        /// Entries written to the outbox whose keys are not written yet: not sent until they are.
        var uncommitted: Set<String> = []
        var failures = 0
        var notBefore: Date?
        var retryAfterUntil: Date?
        var batchUnsupported = false
        var timer: Task<Void, Never>?
        /// A merge was asked for and has not succeeded yet: the next pass merges.
        var mergeOwed = false
    }

    private struct PassQueue {
        var current: Task<Void, Never>?
        var queued: Task<Void, Never>?
        var merge = false
        var force = false
    }

    /// Backoff, `Retry-After` and the status's times are the wall clock's, not the manager's
    /// clock (which stamps decisions).
    init(settings: ConsentSyncSettings, client: ConsentdClient, installationId: @escaping @Sendable () -> String) {
        self.settings = settings
        self.client = client
        self.installationId = installationId
    }

    private func now() -> Date { Date() }

    func attach(_ host: any SyncHost) {
        self.host.withLock { $0.value = host }
    }

    private var hostValue: (any SyncHost)? { host.withLock { $0.value } }

    // MARK: Files

    /// Opens the files on first use; reports what it found wrong. Nil when the folder cannot be used.
    private func opened() -> Files? {
        if let files = self.files.withLock({ $0 }) { return files }
        // Outside the lock: it may write the store, whose observers must not find it held.
        let installation = installationId()
        let (files, problems) = self.files.withLock { files -> (Files?, [SyncError]) in
            if let files { return (files, []) }
            var problems: [SyncError] = []
            do {
                let outbox = try Outbox(directory: settings.directory, capacity: settings.capacity)
                if let corrupt = try outbox.load(now: now()) { problems.append(corrupt) }
                let credentials = settings.effectiveCredentialStore
                let (identity, problem) = SyncIdentity.load(from: credentials, directory: settings.directory, installationId: installation)
                if let problem { problems.append(problem) }
                files = Files(outbox: outbox, credentials: credentials, identity: identity)
            } catch {
                problems.append(.file(String(describing: error)))
            }
            return (files, problems)
        }
        if let files { refreshStatus(files) }
        for problem in problems { fail(problem, schedule: false) }
        return files
    }

    private func withFiles<R>(_ body: (Files) throws -> R) rethrows -> R? {
        guard opened() != nil else { return nil }
        return try files.withLock { try body($0!) }
    }

    private func refreshStatus(_ files: Files) {
        let (pending, dead, dropped, identity) = self.files.withLock { _ in
            (files.outbox.pending.count, files.outbox.deadLettered, files.outbox.dropped?.count ?? 0, files.identity)
        }
        state.withLock { state in
            state.status.pending = pending
            state.status.deadLettered = dead
            state.status.dropped = dropped
            state.status.isIdentified = identity.userId != nil
            state.status.subjectId = identity.userId ?? identity.anonymousSubjectId
        }
    }

    // MARK: What the manager calls

    /// The status now (the first read opens the outbox to count it).
    var status: SyncStatus {
        _ = opened()
        return state.withLock { $0.status }
    }

    /// Writes `entry` to the outbox, durable when this returns; the keys are written next, then
    /// ``committed(_:)`` lets it be sent. Returns the events the bound let go (0 mostly).
    func enqueue(_ entry: OutboxEntry) throws(SyncError) {
        guard let files = opened() else { throw .file("the sync folder \(settings.directory.path) cannot be used") }
        // Marked before it is in the outbox, so that a pass running now does not send it yet.
        state.withLock { _ = $0.uncommitted.insert(entry.eventId) }
        let result = self.files.withLock { _ -> Result<Int, OutboxLogError> in
            Result { () throws(OutboxLogError) -> Int in try files.outbox.add(entry) }
        }
        switch result {
        case .success(let dropped):
            refreshStatus(files)
            if dropped > 0 { fail(.outboxOverflow(dropped: dropped), schedule: false) }
        case .failure(let error):
            state.withLock { _ = $0.uncommitted.remove(entry.eventId) }
            throw .file(String(describing: error))
        }
    }

    /// The keys of `eventId`'s decision are written: it may be sent. Begins a pass unless
    /// `triggering` is false (the caller is a pass).
    func committed(_ eventId: String, triggering: Bool = true) {
        state.withLock { _ = $0.uncommitted.remove(eventId) }
        if triggering { trigger(merge: false) }
    }

    /// Takes back an entry whose keys could not be written: the decision did not happen.
    func discard(_ eventId: String) {
        let files = self.files.withLock { $0 }
        if let files { _ = self.files.withLock { _ in try? files.outbox.markSent([eventId]) } }
        state.withLock { _ = $0.uncommitted.remove(eventId) }
        if let files { refreshStatus(files) }
    }

    /// The subject the manager's decisions are written for now.
    var currentSubject: String {
        (withFiles { $0.identity.userId } ?? nil).map(OutboxEntry.user) ?? OutboxEntry.installation
    }

    /// Signs `userId` in: their decisions go to their subject, the pending ones of this
    /// installation with them (under new event ids, returned by old id: consentd's idempotency
    /// is per subject, so an id the installation's subject may hold already cannot be reused).
    /// The caller triggers the merge.
    func identify(userId: String, token: String?, provider: TokenProvider?) throws(SyncError) -> [String: String] {
        let outcome = withFiles { files -> Result<[String: String], OutboxLogError> in
            Result { () throws(OutboxLogError) -> [String: String] in
                files.identity.userId = userId
                // The credential given now replaces the one given before, whichever kind.
                files.identity.userTokens[userId] = token
                try files.identity.save(to: files.credentials)
                return try files.outbox.rebind(from: OutboxEntry.installation, to: OutboxEntry.user(userId))
            }
        }
        guard let outcome else { throw .file("the sync folder \(settings.directory.path) cannot be used") }
        let renamed: [String: String]
        switch outcome {
        case .success(let map): renamed = map
        case .failure(let error): throw .file(String(describing: error))
        }
        state.withLock { state in
            state.providers[userId] = provider
            state.minted[userId] = nil
            state.notBefore = nil
            for (old, new) in renamed where state.uncommitted.remove(old) != nil { state.uncommitted.insert(new) }
        }
        if let files = opened() { refreshStatus(files) }
        return renamed
    }

    /// Signs the user out: decisions from now on are the installation's. The user's pending
    /// events keep their credential until they are sent.
    func forgetUser() throws(SyncError) {
        let outcome = withFiles { files -> Result<Void, OutboxLogError> in
            Result { () throws(OutboxLogError) in
                files.identity.userId = nil
                try files.identity.save(to: files.credentials)
            }
        }
        if case .failure(let error)? = outcome { throw .file(String(describing: error)) }
        if let files = opened() { refreshStatus(files) }
        trigger(merge: false)
    }

    /// The dead-letter file's entries: event ids with consentd's answer.
    func deadLetters() -> [(eventId: String, status: Int, error: ConsentdErrorBody.Detail)] {
        withFiles { $0.outbox.deadLetters().map { ($0.entry.eventId, $0.status, $0.error) } } ?? []
    }

    // MARK: Passes

    /// Queues a pass (joining one queued already) and returns it.
    @discardableResult
    func trigger(merge: Bool, force: Bool = false) -> Task<Void, Never> {
        queue.withLock { queue in
            queue.merge = queue.merge || merge
            queue.force = queue.force || force
            if let queued = queue.queued { return queued }
            let previous = queue.current
            let task = Task.detached(priority: .utility) { [self] in
                await previous?.value
                let (merge, force) = self.queue.withLock { queue -> (Bool, Bool) in
                    queue.current = queue.queued
                    queue.queued = nil
                    defer { queue.merge = false; queue.force = false }
                    return (queue.merge, queue.force)
                }
                await self.pass(merge: merge, force: force)
            }
            queue.queued = task
            return task
        }
    }

    private func pass(merge asked: Bool, force: Bool) async {
        guard let files = opened() else { return }
        let (waiting, merge) = state.withLock { state -> (Bool, Bool) in
            state.mergeOwed = state.mergeOwed || asked
            let time = now()
            if let until = state.retryAfterUntil, until > time { return (true, state.mergeOwed) }
            return (!force && (state.notBefore.map { $0 > time } ?? false), state.mergeOwed)
        }
        if waiting { return }
        var reached = false
        if merge {
            switch await pull(files) {
            case .success(let answered):
                reached = reached || answered
                state.withLock { $0.mergeOwed = false }
            case .failure(let stop):
                // Without a credential for the signed-in user, the other subjects' events still go.
                if !stop.waitingForCredential { return refreshStatus(files) }
            }
        }
        switch await drain(files) {
        case .success(let sent): reached = reached || sent
        case .failure: break
        }
        refreshStatus(files)
        if reached { hostValue?.synced(status) }
    }

    /// A failure ends the pass; the caller has reported it and scheduled the next.
    private struct Stop: Error {
        /// The pull found no credential for the signed-in user (nothing was sent or scheduled).
        var waitingForCredential = false
    }

    // MARK: Credentials

    private enum Credential {
        case publishable
        case token(subjectId: String, token: String)
    }

    /// The credential for `subject`'s events; nil when there is none (a user with no token).
    private func credential(for subject: String, files: Files, refresh: Bool = false) async -> Credential? {
        let identity = self.files.withLock { _ in files.identity }
        guard let userId = OutboxEntry.userId(of: subject) else {
            guard let subjectId = identity.anonymousSubjectId, let token = identity.installationToken else { return .publishable }
            return .token(subjectId: subjectId, token: token)
        }
        if let token = identity.userTokens[userId], !refresh { return .token(subjectId: userId, token: token) }
        let (cached, provider) = state.withLock { state in
            if refresh { state.minted[userId] = nil }
            return (state.minted[userId], state.providers[userId])
        }
        if let cached { return .token(subjectId: userId, token: cached) }
        guard let provider else {
            if let token = identity.userTokens[userId] { return .token(subjectId: userId, token: token) }
            return nil
        }
        do {
            let token = try await provider()
            state.withLock { $0.minted[userId] = token }
            return .token(subjectId: userId, token: token)
        } catch {
            fail(.credentialRejected(subject: userId, status: 0, message: "the token provider failed: \(error)"), schedule: true)
            return nil
        }
    }

    // MARK: Pull

    /// Reads the current subject's state and hands it to the manager; true when consentd answered.
    private func pull(_ files: Files) async -> Result<Bool, Stop> {
        let (subject, identity) = self.files.withLock { _ in (files.identity.userId.map(OutboxEntry.user) ?? OutboxEntry.installation, files.identity) }
        if subject == OutboxEntry.installation && identity.anonymousSubjectId == nil {
            // No subject yet: consentd holds nothing for this installation. A decision held
            // from before sync (or taken over) is queued so that it has its proof there too.
            queueHeldDecisionIfUnsent(subject: subject, remote: nil, files: files)
            return .success(false)
        }
        for attempt in 0..<2 {
            guard case .token(let subjectId, let token)? = await credential(for: subject, files: files, refresh: attempt > 0) else {
                if let user = identity.userId { fail(.waitingForCredential(userId: user), schedule: false) }
                return .failure(Stop(waitingForCredential: true))
            }
            let answer: ConsentdAnswer
            do {
                answer = try await client.subject(subjectId, credential: token, timeout: settings.requestTimeout)
            } catch {
                fail(.unavailable(error), schedule: true)
                return .failure(Stop())
            }
            switch answer.status {
            case 200:
                guard let remote = try? answer.decode(SubjectState.self) else {
                    fail(.unavailable(.malformed(url: answer.url, message: "not a subject state")), schedule: true)
                    return .failure(Stop())
                }
                succeeded()
                if hostValue?.applyRemote(remote) != true { queueHeldDecisionIfUnsent(subject: subject, remote: remote, files: files) }
                return .success(true)
            case 404:
                succeeded()
                queueHeldDecisionIfUnsent(subject: subject, remote: nil, files: files)
                return .success(true)
            case let status where (status == 401 || status == 403) && attempt == 0 && subject != OutboxEntry.installation:
                continue
            default:
                handleRequestFailure(answer, subject: subjectId)
                return .failure(Stop())
            }
        }
        return .failure(Stop())
    }

    /// Seed 002's "local is newer": queues the decision held for `subject` unless consentd
    /// has it (its event is `remote`'s) or an entry for it is pending.
    private func queueHeldDecisionIfUnsent(subject: String, remote: SubjectState?, files: Files) {
        guard let host = hostValue, let mark = host.syncMark() else { return }
        if let remote, remote.eventId == mark.eventId || SyncMark(remote) ?? mark > mark { return }
        // The installation's own decisions were queued for it when made; only one from before
        // sync (no event id) is sent afterwards.
        if subject == OutboxEntry.installation && !mark.eventId.isEmpty { return }
        let concerns: (OutboxEntry) -> Bool = { $0.subject == subject && ($0.eventId == mark.eventId || $0.copyOf == mark.eventId) }
        let known = self.files.withLock { _ in
            files.outbox.pending.contains(where: concerns) || files.outbox.deadLetters().contains { concerns($0.entry) }
        }
        if known { return }
        if let problem = host.queueHeldDecision(subject: subject) { fail(problem, schedule: false) }
    }

    // MARK: Drain

    /// Sends what is pending; true when consentd acknowledged something.
    private func drain(_ files: Files) async -> Result<Bool, Stop> {
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

    private enum Sent { case sent, retryWithFreshCredential, blocked, stop }

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

    private func handleRequestFailure(_ answer: ConsentdAnswer, subject: String) {
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
        hostValue?.report(.eventRejected(eventId: entry.eventId, status: status, code: error.code, message: error.message, field: error.field))
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
        if entries.last?.subject == current, let winner = results.last?.current { _ = hostValue?.applyRemote(winner) }
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

    // MARK: Outcomes

    private func succeeded() {
        state.withLock { state in
            state.failures = 0
            state.notBefore = nil
            state.retryAfterUntil = nil
            state.status.lastSuccess = now()
            state.status.lastError = nil
            state.status.nextAttempt = nil
        }
    }

    /// Records `error`; with `schedule`, counts a failure and schedules the next pass after the
    /// backoff (or `after`).
    private func fail(_ error: SyncError, schedule: Bool, after fixed: TimeInterval? = nil) {
        state.withLock { state in
            state.status.lastError = error
            guard schedule else { return }
            state.failures += 1
            let wait = fixed ?? backoff(after: state.failures)
            let due = now().addingTimeInterval(wait)
            state.notBefore = due
            state.status.nextAttempt = due
            state.timer?.cancel()
            state.timer = Task.detached(priority: .utility) { [weak self] in
                try? await Task.sleep(nanoseconds: UInt64(min(max(wait, 0), 86_400) * 1_000_000_000))
                guard !Task.isCancelled else { return }
                self?.trigger(merge: false)
            }
        }
        switch error {
        case .unavailable, .throttled, .waitingForCredential: break
        default: hostValue?.report(error)
        }
    }

    /// The wait after `failures` failures in a row: doubling from the initial backoff up to the
    /// maximum, then a random 50-100 % of it, so that devices that failed together do not all
    /// come back together.
    func backoff(after failures: Int) -> TimeInterval {
        let exponent = min(max(failures - 1, 0), 30)
        let full = min(settings.maximumBackoff, settings.initialBackoff * pow(2, Double(exponent)))
        return full * Double.random(in: 0.5...1.0)
    }
}

extension SyncMark {
    /// A remote state's place in consentd's order; nil when its time does not parse.
    init?(_ remote: SubjectState) {
        guard let date = RemoteDecision.parseTimestamp(remote.collectedAt) else { return nil }
        self.init(date: date, eventId: remote.eventId, method: remote.consent.proof.method.rawValue)
    }
}
