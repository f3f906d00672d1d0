import Foundation
import TCF

/// The decisions: each is made under the write lock, written to the keys in one store write
/// (after its consent event reached the outbox, with sync on) and emitted as one
/// ``ConsentEvent/consentChanged(_:)``.
extension ConsentManager {
    /// Records "accept all" for what the notice covers.
    public func agreeToAll() throws(ConsentKitError) {
        try change(method: .acceptAll) { .agreeToAll(scope: try scope(), at: configuration.now()) }
    }

    /// Records "reject all".
    public func disagreeToAll() throws(ConsentKitError) {
        try change(method: .rejectAll) { .disagreeToAll(scope: try scope(), at: configuration.now()) }
    }

    /// Applies the changes made in `body` to the current decision, taken under what the notice
    /// covers now (``ConsentState/rescoped(to:)``; with no decision yet, "reject all"), and
    /// commits them at once; nothing is written when anything throws.
    ///
    /// - Throws: ``ConsentKitError/change(_:)`` for a change a setter refused, another
    ///   ``ConsentKitError`` from the commit, or what `body` itself throws.
    public func update(_ body: (inout ConsentChanges) throws -> Void) throws {
        try exclusive {
            let now = configuration.now()
            let base: ConsentState
            if let consent {
                base = (try? scope()).map(consent.rescoped(to:)) ?? consent
            } else {
                base = .disagreeToAll(scope: try scope(), at: now)
            }
            let next: ConsentState
            do {
                next = try base.changing(at: now, body)
            } catch let refused as ConsentChangeError {
                throw ConsentKitError.change(refused)
            }
            try commit(next, method: .programmatic)
        }
    }

    /// Takes the decision a TC string records (consent received from another device or the web),
    /// made at `collectedAt` (now by default): the string keeps only the day, so the time of the
    /// choice comes from the caller and is kept to the millisecond
    /// (``ConsentState/init(tcString:collectedAt:takenOver:)``). The Additional Consent string
    /// saved with it, if any, gives the Google ad-tech providers consented to and disclosed, so
    /// the Google status follows from the pair as it did where the choice was made.
    ///
    /// - Throws: ``ConsentKitError/invalidTCString(_:)`` when the string does not decode;
    ///   ``ConsentKitError/collectedBeforeLastUpdated(collectedAt:lastUpdated:)`` when
    ///   `collectedAt` is before the day of the string's `LastUpdated`;
    ///   ``ConsentKitError/invalidAdditionalConsent(_:)`` when `additionalConsent` is not a
    ///   version 2 AC string. Nothing is written then.
    public func setConsent(tcString: String, additionalConsent: String? = nil, collectedAt: Date? = nil) throws(ConsentKitError) {
        let decoded: TCString
        do {
            decoded = try TCString(decoding: tcString)
        } catch {
            throw .invalidTCString(error)
        }
        let collected = collectedAt ?? configuration.now()
        let lastUpdated = decoded.lastUpdated.date
        let day = Date(timeIntervalSince1970: (lastUpdated.timeIntervalSince1970 / 86_400).rounded(.down) * 86_400)
        guard collected >= day else { throw .collectedBeforeLastUpdated(collectedAt: collected, lastUpdated: lastUpdated) }
        let providers = try additionalConsent.map { text throws(ConsentKitError) in
            guard let parsed = AdditionalConsent.parse(text) else { throw .invalidAdditionalConsent(text) }
            return parsed
        }
        let decision = ConsentState(tcString: decoded, collectedAt: collected)
        try change(method: .sync) {
            guard let providers else { return decision }
            return decision.restoring(created: decision.created, updated: decision.updated, noticeVersion: decision.noticeVersion,
                                      adTechProviderConsents: providers.consented, disclosedAdTechProviders: providers.disclosed)
        }
    }

    /// Forgets the decision, and the US choice: their keys are removed (the CMP-present keys and
    /// the region decision stay), and the user will be asked again. With sync on, a withdrawal event goes to consentd
    /// first (``withdraw(_:)``), and one of the US choice (``withdrawUSChoice(_:)``), so the
    /// subject and the user's other devices forget them too.
    public func clearDecision() {
        exclusive {
            // The US choice's first: the outbox's newest entry is then the TCF withdrawal, which a
            // start after a crash before the keys' write rolls forward (a US record is not).
            let usWithdrawal = withdrawUSChoice(.withdrawal)
            let withdrawal = withdraw(.withdrawal)
            state.withLock { state in
                state.consent = nil
                state.usChoice = nil
            }
            writeKeys(mark: withdrawal.mark, also: usWithdrawal.mark?.keyValue(of: .us) ?? [:])
            hub.enqueue(.consentChanged(nil))
            for queued in [usWithdrawal.queued, withdrawal.queued].compactMap({ $0 }) { sync?.committed(queued) }
        }
    }

    /// Makes `decision` the user's decision as it is (for callers that build one themselves,
    /// such as ``GoogleAdsConsent/setStatus(_:prefersAdFree:)`` and the notice), recorded in
    /// consentd's proof as made by `method`; `documentHash` is the hash of the notice document
    /// the user saw (`ConsentProof.hash(ofDocument:)`), kept with the proof.
    public func record(_ decision: ConsentState, method: ConsentProof.Method = .programmatic, documentHash: String? = nil) throws(ConsentKitError) {
        try change(method: method, documentHash: documentHash) { decision }
    }

    /// Removes every key the CMP owns (both generations and its own records) and forgets the
    /// decision: what a publisher removing the CMP, or a user's reset, needs. With sync on, a
    /// withdrawal event goes to consentd first (``withdraw(_:)``), and one of the US choice
    /// (``withdrawUSChoice(_:)``).
    public func removeAll() {
        exclusive {
            // The US choice's first: the outbox's newest entry is then the TCF withdrawal, which a
            // start after a crash before the keys' write rolls forward (a US record is not).
            let usWithdrawal = withdrawUSChoice(.withdrawal)
            let withdrawal = withdraw(.withdrawal)
            let marks = withdrawal.mark.keyValue.merging(usWithdrawal.mark?.keyValue(of: .us) ?? [:]) { _, us in us }
            storage.removeAll(keeping: sync == nil ? [:] : marks)
            state.withLock { state in
                state.consent = nil
                state.usChoice = nil
            }
            hub.enqueue(.consentChanged(nil))
            for queued in [usWithdrawal.queued, withdrawal.queued].compactMap({ $0 }) { sync?.committed(queued) }
        }
    }

    /// Tags (or untags) the user as under the age of consent, writing the tag and every key of
    /// what then stands in one store write; emits ``ConsentEvent/consentChanged(_:)`` when the
    /// decision changed, then ``ConsentEvent/underAgeOfConsentChanged(_:)``, when anything
    /// changed.
    ///
    /// Tagging withdraws what a child cannot give (``ConsentState/underAgeOfConsent(at:)``); with
    /// sync on, the withdrawal goes to consentd first as an event with the proof method
    /// `underAge` and no consent (``withdraw(_:)``), so the subject and the user's other devices
    /// hold no decision either. Untagging forgets the decision on this device altogether, so
    /// the user is asked afresh: consent given before the tag is not restored, and the withdrawn
    /// decision does not stand as if chosen.
    public func setTagForUnderAgeOfConsent(_ tagged: Bool) {
        exclusive {
            guard tagged != isTaggedForUnderAgeOfConsent else { return }
            let (before, gdpr) = state.withLock { ($0.consent, $0.gdprApplies) }
            var after = tagged ? before?.underAgeOfConsent(at: configuration.now()) : nil
            let withdrawal = tagged && sync != nil ? withdraw(.underAge) : nil
            var tag: [String: StoredValue?] = [ConsentStorage.underAgeKey: tagged ? .bool(true) : nil]
            if let withdrawal { tag.merge(withdrawal.mark.keyValue) { _, mark in mark } }
            do throws(TCFEncodingError) {
                try storage.write(after, gdprApplies: gdpr, us: usPrivacyKeys(knownChild: tagged), also: tag)
            } catch {
                // Unreachable for a decision written before; should it happen, no decision stands.
                hub.enqueue(.error(.encoding(error)))
                after = nil
                try? storage.write(nil, gdprApplies: gdpr, us: usPrivacyKeys(knownChild: tagged), also: tag)
            }
            state.withLock { $0.consent = after }
            if after != before { hub.enqueue(.consentChanged(after)) }
            hub.enqueue(.underAgeOfConsentChanged(tagged))
            if let queued = withdrawal?.queued { sync?.committed(queued) }
        }
    }

    /// Makes the decision `make` returns, under the write lock, and commits it. `make` throws
    /// only ``ConsentKitError``s.
    private func change(method: ConsentProof.Method, documentHash: String? = nil, _ make: () throws -> ConsentState) throws(ConsentKitError) {
        let failure = exclusive { () -> ConsentKitError? in
            do {
                try commit(make(), method: method, documentHash: documentHash)
                return nil
            } catch let error as ConsentKitError {
                return error
            } catch {
                preconditionFailure("a decision threw \(error), not a ConsentKitError")
            }
        }
        if let failure { throw failure }
    }

    /// Writes `decision`'s keys, holds it, and queues its event; the caller holds the write lock.
    /// For a user tagged under the age of consent, what stands of it is committed instead.
    ///
    /// With sync on, the decision's consent event goes to the outbox first, durable, then the
    /// keys with the event's mark: a crash in between leaves the outbox newer than the keys,
    /// and the next start finishes the keys (``rollForward(restored:)``). An outbox that cannot
    /// be written is reported; the decision stands all the same.
    private func commit(_ decision: ConsentState, method: ConsentProof.Method, documentHash: String? = nil) throws(ConsentKitError) {
        let decision = isTaggedForUnderAgeOfConsent ? decision.underAgeOfConsent(at: configuration.now()) : decision
        let gdpr = state.withLock { $0.gdprApplies }
        var mark: [String: StoredValue?] = [:]
        var queued: String?
        if let sync {
            let entry = try outboxEntry(for: decision, method: method, subject: sync.currentSubject, documentHash: documentHash)
            do {
                try sync.enqueue(entry)
                queued = entry.eventId
                mark = SyncMark(date: decision.updated, eventId: entry.eventId, method: method.rawValue).keyValue
            } catch {
                configuration.log(.error, "\(error); the decision is recorded on the device only")
                hub.enqueue(.error(.sync(error)))
                // Its own time, no event: a remote decision older than it must not win.
                mark = SyncMark(date: decision.updated, eventId: "", method: method.rawValue).keyValue
            }
        }
        do {
            try storage.write(decision, gdprApplies: gdpr, us: usPrivacyKeys(), also: mark)
        } catch {
            // The decision did not happen: its event goes too.
            if let queued { sync?.discard(queued) }
            throw .encoding(error)
        }
        state.withLock { state in
            state.consent = decision
            state.commits += 1
        }
        hub.enqueue(.consentChanged(decision))
        if let queued { sync?.committed(queued) }
    }

    /// Writes every key for what is held (and `mark`, when given, and `also`); the caller holds
    /// the write lock.
    func writeKeys(mark: SyncMark? = nil, also: [String: StoredValue?] = [:]) {
        let (consent, gdpr) = state.withLock { ($0.consent, $0.gdprApplies) }
        do {
            try storage.write(consent, gdprApplies: gdpr, us: usPrivacyKeys(), also: (mark?.keyValue ?? [:]).merging(also) { _, also in also })
        } catch {
            hub.enqueue(.error(.encoding(error)))
        }
    }
}
