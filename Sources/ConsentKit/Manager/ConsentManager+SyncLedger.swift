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
        removalMark(after: [keptMark(), consent.map(SyncMark.init(timeOf:))].compactMap { $0 }.max())
    }

    /// A removal's mark: now, or just after `held` when the clock has not moved past it.
    func removalMark(after held: SyncMark?) -> SyncMark {
        let now = SyncMark(date: configuration.now(), eventId: "", method: "")
        guard let held, !(held < now) else { return now }
        return SyncMark(collectedAt: held.collectedAt + 1, eventId: "", method: "")
    }

    /// Takes the held decision back on consentd (`clearDecision`, `removeAll`, the under-age
    /// tag): with sync on and a decision held or a user signed in (consentd may hold a decision
    /// for them), the withdrawal event (`method`, no consent) goes to the outbox, at the
    /// removal's time (``removalMark()``). Returns the mark the keys then keep (the event's, else
    /// the removal's) and the event queued, which the caller hands to `ConsentSync.committed`
    /// once the keys are written. An outbox that cannot be written is reported; the withdrawal
    /// stands on the device all the same. The caller holds the write lock and calls this before
    /// forgetting the decision.
    func withdraw(_ method: ConsentProof.Method) -> (mark: SyncMark, queued: String?) {
        let removal = removalMark()
        guard let sync else { return (removal, nil) }
        let subject = sync.currentSubject
        guard consent != nil || OutboxEntry.userId(of: subject) != nil else { return (removal, nil) }
        let date = Date(timeIntervalSince1970: Double(removal.collectedAt) / 1000)
        let entry = withdrawalEntry(of: consent, method: method, subject: subject, at: date)
        do throws(SyncError) {
            try sync.enqueue(entry)
        } catch {
            configuration.log(.error, "\(error); the withdrawal is recorded on the device only")
            hub.enqueue(.error(.sync(error)))
            return (removal, nil)
        }
        return (SyncMark(collectedAt: removal.collectedAt, eventId: entry.eventId, method: method.rawValue), entry.eventId)
    }

    /// The outbox's newest decision when it is newer than what the keys hold (a crash between
    /// the two), with its mark; nil otherwise. A newest withdrawal rolls forward to no decision.
    /// Reads only the end of the outbox file. A newest US record is not rolled forward here: it
    /// reaches consentd all the same, and the next merge brings it back as the newer US record.
    func rollForward(restored: ConsentState?) -> (state: ConsentState?, mark: SyncMark)? {
        guard let sync, let newest = Outbox.newestEntry(in: sync.settings.directory), newest.event.consent.recordKind == .tcf,
              let collected = RemoteDecision.parseTimestamp(newest.event.collectedAt) else { return nil }
        let method = newest.event.consent.proof.method
        let entryMark = SyncMark(date: collected, eventId: newest.eventId, method: method.rawValue)
        if let held = place(of: restored), !(held < entryMark) { return nil }
        if method.isWithdrawal {
            configuration.log(.info, "the outbox's withdrawal \(newest.eventId) was newer than the stored keys (a crash between the two); the decision goes now")
            return (nil, entryMark)
        }
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
    func heldMark(of kind: ConsentRecord.Kind) -> SyncMark? {
        switch kind {
        case .tcf:
            guard let consent else { return nil }
            return keptMark().flatMap { $0.eventId.isEmpty ? nil : $0 } ?? SyncMark(timeOf: consent)
        case .us:
            guard let choice = state.withLock({ $0.usChoice }) else { return nil }
            return SyncMark.kept(in: configuration.store, of: .us).flatMap { $0.eventId.isEmpty ? nil : $0 }
                ?? SyncMark(date: choice.decided, eventId: "", method: "")
        }
    }

    func copyHeld(_ kind: ConsentRecord.Kind, to subject: String, through enqueue: (OutboxEntry) throws(SyncError) -> Bool) throws(SyncError) {
        if kind == .us { return try copyHeldUSChoice(to: subject, through: enqueue) }
        let failure = exclusive { () -> SyncError? in
            guard let consent, let mark = heldMark(of: .tcf) else { return nil }
            let method = ConsentProof.Method(rawValue: mark.method) ?? .programmatic
            guard var entry = try? outboxEntry(for: consent, method: method, subject: subject) else { return nil }
            entry.copyOf = mark.eventId
            do throws(SyncError) {
                guard try enqueue(entry) else { return nil }
            } catch {
                return error
            }
            configuration.store.write(SyncMark(date: consent.updated, eventId: entry.eventId, method: method.rawValue).keyValue)
            return nil
        }
        if let failure { throw failure }
    }

    /// Each kind of `remote` against its own kind here: the US record against the US choice
    /// (``applyUSChoice(_:)``), the TCF decision against the TCF decision.
    func apply(_ remote: SubjectState) -> Set<ConsentRecord.Kind> {
        var applied: Set<ConsentRecord.Kind> = []
        if let us = remote.state(of: .us), applyUSChoice(us) { applied.insert(.us) }
        if let tcf = remote.state(of: .tcf), applyDecision(tcf) { applied.insert(.tcf) }
        return applied
    }

    /// A newer withdrawal (an event with a withdrawal method: the decision was taken back on
    /// another device, or the user was tagged under age there) forgets the held decision.
    private func applyDecision(_ remote: SubjectState) -> Bool {
        guard let remoteMark = SyncMark(remote) else { return false }
        let withdrawn = remote.consent.proof.method.isWithdrawal
        let applied = exclusive { () -> Bool in
            if let held = place(of: consent), !(held < remoteMark) { return false }
            var decision: ConsentState?
            if withdrawn {
                // Nothing held: nothing to forget.
                guard consent != nil else { return false }
            } else {
                guard let made = RemoteDecision.state(of: remote, scope: try? self.scope()) else { return false }
                decision = isTaggedForUnderAgeOfConsent ? made.underAgeOfConsent(at: configuration.now()) : made
            }
            let gdpr = state.withLock { $0.gdprApplies }
            do throws(TCFEncodingError) {
                try storage.write(decision, gdprApplies: gdpr, us: usPrivacyKeys(), also: remoteMark.keyValue)
            } catch {
                hub.enqueue(.error(.encoding(error)))
                return false
            }
            state.withLock { $0.consent = decision }
            hub.enqueue(.consentChanged(decision))
            hub.enqueue(.remoteConsentApplied(decision))
            return true
        }
        if applied {
            let what = withdrawn ? "withdrawal" : "decision"
            configuration.log(.info, "applied the newer \(what) \(remote.eventId) of subject \(remote.subjectId) from consentd")
        }
        return applied
    }
}
