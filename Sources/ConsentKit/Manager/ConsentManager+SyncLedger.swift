import ConsentdAPI
import Foundation
import TCF

/// The manager as the sync's ``SyncLedger``: the marks that place the held decision in
/// consentd's order (kept beside the keys), and what sync hands back. Sync reaches the manager
/// through nothing else.
extension ConsentManager {
    /// The mark a removal writes: nothing older than now may come back from the outbox. It
    /// comes after the decision removed even when the clock did not move past it (the same
    /// millisecond, or a clock set back): an empty event id sorts before every other one, so a
    /// removal at the decision's own millisecond would let the decision come back at the next
    /// start. The caller holds the write lock and calls this before forgetting the decision.
    func removalMark() -> SyncMark {
        let now = SyncMark(date: configuration.now(), eventId: "", method: "")
        let held = [keptMark(), consent.map(SyncMark.init(timeOf:))].compactMap { $0 }.max()
        guard let held, !(held < now) else { return now }
        return SyncMark(collectedAt: held.collectedAt + 1, eventId: "", method: "")
    }

    /// The outbox's newest decision when it is newer than what the keys hold (a crash between
    /// the two), with its mark; nil otherwise. Reads only the end of the outbox file.
    func rollForward(restored: ConsentState?) -> (state: ConsentState, mark: SyncMark)? {
        guard let sync, let newest = Outbox.newestEntry(in: sync.settings.directory),
              let collected = RemoteDecision.parseTimestamp(newest.event.collectedAt) else { return nil }
        let entryMark = SyncMark(date: collected, eventId: newest.eventId, method: newest.event.consent.proof.method.rawValue)
        if let held = place(of: restored), !(held < entryMark) { return nil }
        guard let state = try? ConsentStorage.state(fromRecord: newest.record) else { return nil }
        configuration.log(.info, "the outbox's decision \(newest.eventId) was newer than the stored keys (a crash between the two); its keys are written now")
        return (state, entryMark)
    }

    /// The mark kept beside the keys; nil when none is.
    func keptMark() -> SyncMark? {
        SyncMark.kept(in: configuration.store)
    }

    /// Where `decision`, held in the keys, stands in consentd's order: the kept mark (a removal's
    /// too), else the decision's own time; nil with neither.
    func place(of decision: ConsentState?) -> SyncMark? {
        keptMark() ?? decision.map(SyncMark.init(timeOf:))
    }

    /// Tells a sync report on the event stream (and a failure in the log too).
    static func publish(_ report: SyncReport, on hub: EventHub, log: ConsentLog) {
        switch report {
        case .failed(let error):
            log(.warning, "\(error)")
            hub.exclusive { hub.enqueue(.error(.sync(error))) }
        case .synced(let status):
            hub.exclusive { hub.enqueue(.synced(status)) }
        }
    }
}

extension ConsentManager: SyncLedger {
    func heldMark() -> SyncMark? {
        guard let consent else { return nil }
        return keptMark().flatMap { $0.eventId.isEmpty ? nil : $0 } ?? SyncMark(timeOf: consent)
    }

    func copyHeldDecision(to subject: String, through enqueue: (OutboxEntry) throws(SyncError) -> Void) throws(SyncError) {
        let failure = exclusive { () -> SyncError? in
            guard let consent, let mark = heldMark() else { return nil }
            let method = ConsentProof.Method(rawValue: mark.method) ?? .programmatic
            guard var entry = try? outboxEntry(for: consent, method: method, subject: subject) else { return nil }
            entry.copyOf = mark.eventId
            do throws(SyncError) {
                try enqueue(entry)
            } catch {
                return error
            }
            configuration.store.write(SyncMark(date: consent.updated, eventId: entry.eventId, method: method.rawValue).keyValue)
            return nil
        }
        if let failure { throw failure }
    }

    func apply(_ remote: SubjectState) -> Bool {
        guard let remoteMark = SyncMark(remote) else { return false }
        let applied = exclusive { () -> ConsentState? in
            if let held = place(of: consent), !(held < remoteMark) { return nil }
            let scope = try? self.scope()
            guard var decision = RemoteDecision.state(of: remote, scope: scope) else { return nil }
            if isTaggedForUnderAgeOfConsent { decision = decision.underAgeOfConsent(at: configuration.now()) }
            let gdpr = state.withLock { $0.gdprApplies }
            do throws(TCFEncodingError) {
                try storage.write(decision, gdprApplies: gdpr, also: remoteMark.keyValue)
            } catch {
                hub.enqueue(.error(.encoding(error)))
                return nil
            }
            state.withLock { $0.consent = decision }
            hub.enqueue(.consentChanged(decision))
            hub.enqueue(.remoteConsentApplied(decision))
            return decision
        }
        if applied != nil { configuration.log(.info, "applied the newer decision \(remote.eventId) of subject \(remote.subjectId) from consentd") }
        return applied != nil
    }
}
