import ConsentdAPI
import Foundation

/// The sync client: sends the outbox to consentd in the background, in order, and merges the
/// subject's state back (docs/sync.md).
///
/// Passes run one at a time, each after the one before; triggers that come while a pass is
/// queued join it. A pass reads the subject's state when asked to merge, then drains: per
/// subject, in order, up to ``ConsentSyncSettings/batchSize`` events per request. A failure
/// stops the pass and schedules the next one after a backoff (exponential with jitter, or
/// consentd's `Retry-After`).
///
/// It knows of the manager only its ``SyncLedger`` (held weakly: the manager owns the sync), and
/// tells it what happened through ``SyncReport``s. Time is the configuration's clock and the
/// waits are its ``Sleeper``'s, so that a test moves time by hand.
final class ConsentSync: Sendable {
    let settings: ConsentSyncSettings
    let client: ConsentdClient
    private let installationId: @Sendable () -> String
    let now: @Sendable () -> Date
    private let sleeper: any Sleeper
    let report: @Sendable (SyncReport) -> Void
    private let ledger = Locked<WeakLedger>(WeakLedger())
    let files = Locked<Files?>(nil)
    let state = Locked(State())
    private let queue = Locked(PassQueue())

    typealias TokenProvider = @Sendable () async throws -> String

    private struct WeakLedger { weak var value: (any SyncLedger)? }

    /// The outbox and the identity's credential store, opened on first use; touched only under
    /// `files`' lock.
    final class Files: @unchecked Sendable {
        let outbox: Outbox
        let credentials: any SyncCredentialStore
        var identity: SyncIdentity
        init(outbox: Outbox, credentials: any SyncCredentialStore, identity: SyncIdentity) {
            self.outbox = outbox
            self.credentials = credentials
            self.identity = identity
        }
    }

    struct State {
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
        /// The signed-in user whose subject consentd answered for in this process (a merge ran).
        var mergedUser: String?
    }

    private struct PassQueue {
        var current: Task<Void, Never>?
        var queued: Task<Void, Never>?
        var merge = false
        var force = false
    }

    /// A sync client sending through `client`; `now` is the clock of backoff, `Retry-After` and
    /// the status's times (the one that stamps decisions), `sleeper` waits for the next pass,
    /// and `report` hears of failures and passes that reached consentd.
    init(settings: ConsentSyncSettings, client: ConsentdClient, now: @escaping @Sendable () -> Date, sleeper: any Sleeper,
         installationId: @escaping @Sendable () -> String, report: @escaping @Sendable (SyncReport) -> Void) {
        self.settings = settings
        self.client = client
        self.now = now
        self.sleeper = sleeper
        self.installationId = installationId
        self.report = report
    }

    /// Gives the sync its ledger (once, after the manager is made).
    func attach(_ ledger: any SyncLedger) {
        self.ledger.withLock { $0.value = ledger }
    }

    var heldLedger: (any SyncLedger)? { ledger.withLock { $0.value } }

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

    /// Whether a user is signed in whose subject no merge read yet in this process: their
    /// decision may be on consentd, not on this device (a new device, a reinstall).
    var awaitsFirstMerge: Bool {
        guard let user = withFiles({ $0.identity.userId }) ?? nil else { return false }
        return state.withLock { $0.mergedUser != user }
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

    func pass(merge asked: Bool, force: Bool) async {
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
        if reached { report(.synced(status)) }
    }

    /// A failure ends the pass; the caller has reported it and scheduled the next.
    struct Stop: Error {
        /// The pull found no credential for the signed-in user (nothing was sent or scheduled).
        var waitingForCredential = false
    }

    // MARK: Outcomes

    func succeeded() {
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
    func fail(_ error: SyncError, schedule: Bool, after fixed: TimeInterval? = nil) {
        state.withLock { state in
            state.status.lastError = error
            guard schedule else { return }
            state.failures += 1
            let wait = fixed ?? backoff(after: state.failures)
            let due = now().addingTimeInterval(wait)
            state.notBefore = due
            state.status.nextAttempt = due
            state.timer?.cancel()
            state.timer = Task.detached(priority: .utility) { [weak self, sleeper] in
                do { try await sleeper.sleep(seconds: min(max(wait, 0), 86_400)) } catch { return }
                guard !Task.isCancelled else { return }
                self?.trigger(merge: false)
            }
        }
        switch error {
        case .unavailable, .throttled, .waitingForCredential: break
        default: report(.failed(error))
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
