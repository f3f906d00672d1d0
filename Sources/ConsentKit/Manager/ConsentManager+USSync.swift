import ConsentdAPI
import Foundation
import GPP
import TCF

/// The US choice in the sync (decision record 0035): a consent event of kind `us`, queued and
/// sent as a TCF decision is, with its own mark (``SyncMark/key(of:)``), and merged by the same
/// rule (the newer by `collectedAt`, then event id, wins) against the US choice alone: a US
/// record never replaces the TCF decision, nor the reverse.
extension ConsentManager {
    /// Queues `choice`'s event (with `keys`, the US keys it is written with) when sync is on;
    /// returns the mark to write with the keys and the event queued (for `ConsentSync.committed`
    /// once the keys are written). An outbox that cannot be written is reported, and the choice
    /// stands on the device with its own time as its mark. The caller holds the write lock.
    func queueUSChoice(_ choice: USPrivacyChoice, keys: USPrivacyKeys, method: ConsentProof.Method, documentHash: String?)
        -> (mark: [String: StoredValue?], queued: String?) {
        guard let sync else { return ([:], nil) }
        let entry = outboxEntry(for: choice, keys: keys, method: method, subject: sync.currentSubject, documentHash: documentHash)
        do throws(SyncError) {
            try sync.enqueue(entry)
        } catch {
            configuration.log(.error, "\(error); the US choice is recorded on the device only")
            hub.enqueue(.error(.sync(error)))
            return (SyncMark(date: choice.decided, eventId: "", method: method.rawValue).keyValue(of: .us), nil)
        }
        return (SyncMark(date: choice.decided, eventId: entry.eventId, method: method.rawValue).keyValue(of: .us), entry.eventId)
    }

    /// The consent event of `choice` for `subject`: kind `us`, its values, and the GPP string of
    /// the US sections `keys` put in force (none outside the US). Its record is the choice as the
    /// keys keep it.
    func outboxEntry(for choice: USPrivacyChoice, keys: USPrivacyKeys, method: ConsentProof.Method, subject: String,
                     eventId: UUID = UUID(), documentHash: String? = nil) -> OutboxEntry {
        var context = eventContext(method: method, documentHash: documentHash)
        let gpp = GPPString(sections: keys.sections.sorted { $0.id < $1.id })
        context.gppString = gpp.sections.isEmpty ? nil : try? gpp.encoded()
        return OutboxEntry(subject: subject, event: context.event(for: choice, eventId: eventId),
                           record: ConsentStorage.record(choice)?.string ?? "")
    }

    /// Takes the held US choice back on consentd (``clearDecision()``, ``removeAll()``): with sync
    /// on and a US choice held, a withdrawal event of kind `us` (`method`, no choice, the proof of
    /// the choice withdrawn) goes to the outbox at the removal's time, after the choice's. Returns
    /// the US mark the keys then keep and the event queued; nothing without a US choice or sync.
    /// The caller holds the write lock and calls this before forgetting the choice.
    func withdrawUSChoice(_ method: ConsentProof.Method) -> (mark: SyncMark?, queued: String?) {
        guard let sync, let choice = state.withLock({ $0.usChoice }) else { return (nil, nil) }
        let removal = removalMark(after: usPlace(of: choice))
        var entry = withdrawalEntry(of: nil, method: method, subject: sync.currentSubject,
                                    at: Date(timeIntervalSince1970: Double(removal.collectedAt) / 1000))
        entry.event.consent.kind = .us
        entry.event.consent.proof.noticeVersion = String(choice.noticeVersion)
        entry.event.consent.proof.language = choice.language
        do throws(SyncError) {
            try sync.enqueue(entry)
        } catch {
            configuration.log(.error, "\(error); the US choice's withdrawal is recorded on the device only")
            hub.enqueue(.error(.sync(error)))
            return (removal, nil)
        }
        return (SyncMark(collectedAt: removal.collectedAt, eventId: entry.eventId, method: method.rawValue), entry.eventId)
    }

    /// The ledger's ``SyncLedger/copyHeld(_:to:through:)`` for the US choice: its event again for
    /// `subject` (a new event id, the choice's own time, the method of its mark, the US keys in
    /// force now), ``OutboxEntry/copyOf`` its mark's event, which then becomes the copy's.
    func copyHeldUSChoice(to subject: String, through enqueue: (OutboxEntry) throws(SyncError) -> Bool) throws(SyncError) {
        let failure = exclusive { () -> SyncError? in
            guard let choice = state.withLock({ $0.usChoice }), let mark = heldMark(of: .us) else { return nil }
            let method = ConsentProof.Method(rawValue: mark.method) ?? .programmatic
            var keys = usPrivacyKeys()
            keys.choice = choice
            var entry = outboxEntry(for: choice, keys: keys, method: method, subject: subject)
            entry.copyOf = mark.eventId
            do throws(SyncError) {
                guard try enqueue(entry) else { return nil }
            } catch {
                return error
            }
            configuration.store.write(SyncMark(date: choice.decided, eventId: entry.eventId, method: method.rawValue).keyValue(of: .us))
            return nil
        }
        if let failure { throw failure }
    }

    /// Where the held US choice stands in consentd's order: its kept mark, else its own time.
    func usPlace(of choice: USPrivacyChoice?) -> SyncMark? {
        SyncMark.kept(in: configuration.store, of: .us) ?? choice.map { SyncMark(date: $0.decided, eventId: "", method: "") }
    }

    /// Applies `remote`, a subject's current US record, when it is newer than the held US choice:
    /// its choice (or, for a withdrawal, none) is written with the US keys of what is in force
    /// here, beside the TCF decision, which stays. Whether it did.
    func applyUSChoice(_ remote: SubjectState) -> Bool {
        guard let remoteMark = SyncMark(remote), let collected = RemoteDecision.parseTimestamp(remote.collectedAt) else { return false }
        let withdrawn = remote.consent.proof.method.isWithdrawal
        let applied = exclusive { () -> Bool in
            let (consent, gdpr, held) = state.withLock { ($0.consent, $0.gdprApplies, $0.usChoice) }
            if let place = usPlace(of: held), !(place < remoteMark) { return false }
            let choice: USPrivacyChoice?
            if withdrawn {
                guard held != nil else { return false }
                choice = nil
            } else {
                guard let made = USPrivacyChoice(record: remote.consent, collectedAt: collected) else { return false }
                choice = made
            }
            var keys = usPrivacyKeys()
            keys.choice = choice
            do throws(TCFEncodingError) {
                try storage.write(consent, gdprApplies: gdpr, us: keys, also: remoteMark.keyValue(of: .us))
            } catch {
                hub.enqueue(.error(.encoding(error)))
                return false
            }
            state.withLock { $0.usChoice = choice }
            hub.enqueue(.consentChanged(consent))
            return true
        }
        if applied {
            configuration.log(.info, "applied the newer US \(withdrawn ? "withdrawal" : "choice") \(remote.eventId) of subject \(remote.subjectId) from consentd")
        }
        return applied
    }
}
