import Foundation
import TCF

/// Starting, and the one refresh: ``ConsentManager/start(refreshing:)`` does the local work
/// synchronously (keys published, decision restored or rolled forward, another CMP's taken over),
/// then begins the refresh that everything needing the region awaits.
extension ConsentManager {
    /// Publishes the CMP-present keys and restores the stored decision, synchronously and
    /// without network (a publisher override of the region applies at once). With no decision
    /// record of its own, it first reads another CMP's stored string and takes a valid one over
    /// (``ConsentTakeover``; an invalid one is reported with
    /// ``ConsentKitError/foreignConsentRejected(key:reason:)`` and removed). Then, unless
    /// `refreshing` is false, begins the refresh (``refresh()``) in the background and returns
    /// its task. A second call restores nothing again and joins the refresh begun.
    @discardableResult
    public func start(refreshing: Bool = true) -> Task<RefreshReport, Never>? {
        let first = exclusive { () -> Bool in
            guard !state.withLock({ $0.started }) else { return false }
            let restored = storage.restore()
            // Another CMP's consent is read before anything is written over it.
            let foreign = restored.hasRecord ? nil : storage.foreignConsent(now: configuration.now())
            if configuration.cmp == nil, let kept = restored.cmp { storage.adopt(kept) }
            storage.publishPresence()
            let forced = configuration.gdprOverride.flatMap { $0 == .undetermined ? nil : $0 }
            let known = restored.gdprApplies == .undetermined ? foreign?.gdprApplies ?? .undetermined : restored.gdprApplies
            let gdpr = forced ?? known
            var decision = foreign?.decision ?? restored.state
            // A crash between the outbox and the keys: the outbox's newest decision is newer
            // than what the keys hold, so its keys are written now.
            let rolledForward = rollForward(restored: decision)
            if let rolledForward { decision = rolledForward.state }
            if isTaggedForUnderAgeOfConsent { decision = decision?.underAgeOfConsent(at: configuration.now()) }
            state.withLock { state in
                state.started = true
                state.consent = decision
                state.usChoice = restored.usChoice
                state.gdprApplies = gdpr
                state.lastKnownGDPR = known
                state.appConfigJSON = restored.appConfigJSON
            }
            if let problem = restored.problem { hub.enqueue(.error(.storedDecisionUnreadable(problem))) }
            if let foreign { reportTakeover(foreign) }
            let leftovers = !(foreign?.rejected.isEmpty ?? true)
            if let rolledForward {
                writeKeys(mark: rolledForward.mark)
            } else if gdpr != restored.gdprApplies || decision != restored.state || leftovers {
                writeKeys()
            }
            hub.enqueue(.ready(decision, gdpr))
            return true
        }
        if first {
            warnIfDevelopmentCMP()
            #if DEBUG
            configuration.log(.info, configuration.debug.startMessage(on: configuration.device))   // 001-27, debug builds only
            #endif
        }
        guard refreshing else { return nil }
        if !first, let begun = state.withLock({ $0.refresh }) { return begun }
        return beginRefresh()
    }

    /// Runs a refresh now (joining one in flight): decides the region and loads the vendor list
    /// (held copy first, then the network), both at once, each falling back on failure; the keys
    /// are written once afterwards, so keys of an earlier configuration or launch that no longer
    /// apply go. ``start()`` begins one; call this only to check again later (the app coming
    /// back to the foreground after a long time, say).
    @discardableResult
    public func refresh() async -> RefreshReport {
        await beginRefresh().value
    }

    /// The report of the refresh ``start()`` began, waiting for it while it runs (starting the
    /// manager first if nobody did). Everything that needs the region awaits this rather than
    /// refreshing again.
    ///
    /// For a signed-in user (``identify(userId:token:)``) it then waits for the first merge of
    /// this launch with their subject on consentd, at most
    /// ``ConsentSyncSettings/firstMergeTimeout`` (1.5 s by default): a user who decided on
    /// another device, or before a reinstall, holds that decision when ``shouldAsk`` is read
    /// next, and is not asked again (seed 002: ask after the sync). Offline, or with consentd
    /// slow, the wait ends at the bound and the merge lands later
    /// (``ConsentEvent/remoteConsentApplied(_:)``).
    @discardableResult
    public func refreshed() async -> RefreshReport {
        let report = if let running = state.withLock({ $0.refresh }) {
            await running.value
        } else {
            await (start() ?? beginRefresh()).value
        }
        await firstMerge()
        return report
    }

    /// Waits, at most ``ConsentSyncSettings/firstMergeTimeout``, for a merge with the signed-in
    /// user's subject when none has run yet in this process; returns at once otherwise.
    private func firstMerge() async {
        let seconds = configuration.sync.firstMergeTimeout
        guard let sync, seconds > 0, sync.awaitsFirstMerge else { return }
        _ = await Self.withTimeout(seconds: seconds, sleeper: configuration.sleeper) { await sync.trigger(merge: true).value }
    }

    /// Logs and reports what start() found of another CMP's consent; the caller holds the write
    /// lock, and writes the keys afterwards (which removes the strings that were rejected).
    private func reportTakeover(_ foreign: ForeignConsent) {
        for (key, reason) in foreign.rejected {
            let failure = ConsentKitError.foreignConsentRejected(key: key, reason: reason)
            configuration.log(.warning, "\(failure); it is removed")
            hub.enqueue(.error(failure))
        }
        guard let taken = foreign.decision, let source = taken.takenOver else { return }
        let findings = foreign.findings.isEmpty ? "" : "; policy findings: \(foreign.findings.map(\.description).joined(separator: "; "))"
        configuration.log(.info, "took over the decision CMP \(source.cmp.cmpId) stored in \(source.key)\(findings)")
    }

    /// Begins a refresh unless one is running, and returns the running one.
    func beginRefresh() -> Task<RefreshReport, Never> {
        state.withLock { state in
            if let running = state.refresh, state.refreshRunning { return running }
            state.refreshRunning = true
            let task = Task.detached(priority: .utility) { [self] in
                let report = await runRefresh()
                self.state.withLock { $0.refreshRunning = false }
                // With the region and the vendor list known, the subject's state is merged.
                sync?.trigger(merge: true)
                return report
            }
            state.refresh = task
            return task
        }
    }
}
