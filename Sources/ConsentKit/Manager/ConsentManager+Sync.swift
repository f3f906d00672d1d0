import ConsentdAPI
import Foundation
import TCF

/// The sync with consentd's consent database (docs/sync.md): on whenever the configuration
/// names consentd, with nothing for the app to write but, when it knows its user, who they are.
extension ConsentManager {
    // MARK: What the app calls

    /// Signs the user in: from now on decisions are written for `userId`'s subject on consentd
    /// (and this installation's pending ones with them), and their state is merged into this
    /// device at once and at every start. `token` is a subject token the app's backend minted
    /// with its secret key (`POST /v1/subjects/{userId}/tokens`); it is kept in the sync folder.
    /// Call it at every launch while the user is signed in, as for an analytics SDK.
    ///
    /// - Throws: ``ConsentKitError/sync(_:)`` when sync is off or its folder cannot be written.
    public func identify(userId: String, token: String) throws(ConsentKitError) {
        try signIn(userId: userId, token: token, provider: nil)
    }

    /// Signs the user in with a token provider: `tokens` asks the app's backend for a fresh
    /// subject token whenever one is needed (at first use, and when consentd refuses one that
    /// expired). Kept in memory only: call it at every launch while the user is signed in.
    ///
    /// - Throws: ``ConsentKitError/sync(_:)`` when sync is off or its folder cannot be written.
    public func identify(userId: String, tokens: @escaping @Sendable () async throws -> String) throws(ConsentKitError) {
        try signIn(userId: userId, token: nil, provider: tokens)
    }

    /// Both `identify`s, under the write lock (a decision being committed goes wholly to the
    /// subject before or after). Entries given to the user get new event ids; when the held
    /// decision's is among them, the keys' mark follows.
    private func signIn(userId: String, token: String?, provider: ConsentSync.TokenProvider?) throws(ConsentKitError) {
        guard let sync else { throw .sync(.file("sync is off: set ConsentConfiguration.consentd and leave sync enabled")) }
        let failure = exclusive { () -> SyncError? in
            let renamed: [String: String]
            do throws(SyncError) {
                renamed = try sync.identify(userId: userId, token: token, provider: provider)
            } catch {
                return error
            }
            let kept = configuration.store.value(forKey: SyncMark.key)?.string.flatMap(SyncMark.init(stored:))
            if let kept, let new = renamed[kept.eventId] {
                configuration.store.write([SyncMark.key: .string(SyncMark(collectedAt: kept.collectedAt, eventId: new, method: kept.method).stored)])
            }
            return nil
        }
        sync.trigger(merge: true)
        if let failure { throw .sync(failure) }
    }

    /// Signs the user out (on logout): decisions from now on are this installation's again. The
    /// user's events not yet sent keep their credential until they are. The decision on the
    /// device stays; ``clearDecision()`` forgets it too.
    public func forgetUser() {
        exclusive {
            do throws(SyncError) { try sync?.forgetUser() } catch { hub.enqueue(.error(.sync(error))) }
        }
    }

    /// Syncs now: reads the subject's state and merges it, then sends every pending event
    /// (ignoring the backoff, not a `Retry-After`); returns the status afterwards. Nil when sync
    /// is off.
    @discardableResult
    public func syncNow() async -> SyncStatus? {
        guard let sync else { return nil }
        await sync.trigger(merge: true, force: true).value
        return sync.status
    }

    /// Where the sync stands: pending and dead-lettered events, last success and error. Nil
    /// when sync is off.
    public var syncStatus: SyncStatus? { sync?.status }

    /// The events consentd refused as contract errors (kept in the dead-letter file), with its
    /// answer: for the app's support tooling.
    public var deadLetteredEvents: [(eventId: String, status: Int, error: ConsentdErrorBody.Detail)] {
        sync?.deadLetters() ?? []
    }

    // MARK: The manager's side

    /// The consent event for `decision`: its strings, lists and proof.
    func outboxEntry(for decision: ConsentState, method: ConsentProof.Method, subject: String, eventId: UUID = UUID())
        throws(ConsentKitError) -> OutboxEntry {
        let cmp = self.cmp
        let tcString: String
        let v1: String?
        let record: String
        do {
            tcString = try decision.tcString(cmp: cmp).encoded()
            v1 = configuration.generations.contains(.version1) ? try decision.consentStringV1(cmp: cmp).encoded() : nil
            record = ConsentStorage.record(decision, tcString: tcString)
        } catch {
            throw .encoding(error)
        }
        let google: GoogleAdsChoice? = switch (decision.prefersAdFree, GoogleConsentStatus.of(decision, config: appConfig, gdprApplies: gdprApplies)) {
        case (true, _): .adFree
        case (false, .personalized): .personalized
        case (false, .nonPersonalized): .nonPersonalized
        case (false, .unknown): nil
        }
        let providers = decision.disclosedAdTechProviders.isEmpty ? nil
            : AdditionalConsent.string(consented: decision.adTechProviderConsents, disclosed: decision.disclosedAdTechProviders)
        let settings = configuration.sync
        let proof = ConsentProof(
            noticeId: settings.noticeId, noticeVersion: String(decision.noticeVersion), language: decision.consentLanguage.lowercased(),
            sdkVersion: ConsentKitSDK.version, platform: settings.platform, method: method)
        let event = ConsentEventRequest(eventId: eventId.uuidString.lowercased(), collectedAt: Self.collectedAt(decision.updated), consent: ConsentRecord(
            tcString: tcString, consentStringV1: v1, googleAdsChoice: google, additionalConsent: providers,
            purposeConsents: decision.purposeConsents.sorted, purposeLegitimateInterests: decision.purposeLegitimateInterests.sorted,
            specialFeatureOptins: decision.specialFeatureOptIns.sorted, vendorConsents: decision.vendorConsents.sorted,
            vendorLegitimateInterests: decision.vendorLegitimateInterests.sorted, proof: proof))
        return OutboxEntry(subject: subject, event: event, record: record)
    }

    /// `date`, a decision's time (kept to the millisecond, rounded), as an event's `collectedAt`:
    /// ISO 8601 in UTC with that millisecond. Written from the whole milliseconds: such a date
    /// is often a hair under its millisecond as a `Double`, and a formatter that truncates (as
    /// `ISO8601FormatStyle` does) would write it one millisecond early.
    static func collectedAt(_ date: Date) -> String {
        let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded())
        let (seconds, fraction) = (milliseconds.quotientAndRemainder(dividingBy: 1000))
        let (whole, rest) = fraction < 0 ? (seconds - 1, fraction + 1000) : (seconds, fraction)
        let text = Date(timeIntervalSince1970: TimeInterval(whole)).formatted(Date.ISO8601FormatStyle())
        return text.dropLast() + "." + String(rest + 1000).dropFirst() + "Z"
    }

    /// The mark a removal writes: nothing older than now may come back from the outbox. It
    /// comes after the decision removed even when the clock did not move past it (the same
    /// millisecond, or a clock set back): an empty event id sorts before every other one, so a
    /// removal at the decision's own millisecond would let the decision come back at the next
    /// start. The caller holds the write lock and calls this before forgetting the decision.
    func removalMark() -> SyncMark {
        let now = SyncMark(date: configuration.now(), eventId: "", method: "")
        let kept = configuration.store.value(forKey: SyncMark.key)?.string.flatMap(SyncMark.init(stored:))
        let held = [kept, consent.map { SyncMark(date: $0.updated, eventId: "", method: "") }].compactMap { $0 }.max()
        guard let held, !(held < now) else { return now }
        return SyncMark(collectedAt: held.collectedAt + 1, eventId: "", method: "")
    }

    /// The outbox's newest decision when it is newer than what the keys hold (a crash between
    /// the two), with its mark; nil otherwise. Reads only the end of the outbox file.
    func rollForward(restored: ConsentState?) -> (state: ConsentState, mark: SyncMark)? {
        guard let sync, let newest = Outbox.newestEntry(in: sync.settings.directory),
              let collected = RemoteDecision.parseTimestamp(newest.event.collectedAt) else { return nil }
        let entryMark = SyncMark(date: collected, eventId: newest.eventId, method: newest.event.consent.proof.method.rawValue)
        let kept = configuration.store.value(forKey: SyncMark.key)?.string.flatMap(SyncMark.init(stored:))
        let held = kept ?? restored.map { SyncMark(date: $0.updated, eventId: "", method: "") }
        if let held, !(held < entryMark) { return nil }
        guard let state = try? ConsentStorage.state(fromRecord: newest.record) else { return nil }
        configuration.log(.info, "the outbox's decision \(newest.eventId) was newer than the stored keys (a crash between the two); its keys are written now")
        return (state, entryMark)
    }
}

extension ConsentManager: SyncHost {
    func syncMark() -> SyncMark? {
        guard let consent else { return nil }
        let kept = configuration.store.value(forKey: SyncMark.key)?.string.flatMap(SyncMark.init(stored:))
        return kept.flatMap { $0.eventId.isEmpty ? nil : $0 } ?? SyncMark(date: consent.updated, eventId: "", method: "")
    }

    func queueHeldDecision(subject: String) -> SyncError? {
        guard let sync else { return nil }
        return exclusive { () -> SyncError? in
            guard let consent, let mark = syncMark() else { return nil }
            let method = ConsentProof.Method(rawValue: mark.method) ?? .programmatic
            guard var entry = try? outboxEntry(for: consent, method: method, subject: subject) else { return nil }
            entry.copyOf = mark.eventId
            do throws(SyncError) {
                try sync.enqueue(entry)
            } catch {
                return error
            }
            configuration.store.write([SyncMark.key: .string(SyncMark(date: consent.updated, eventId: entry.eventId, method: method.rawValue).stored)])
            sync.committed(entry.eventId, triggering: false)
            return nil
        }
    }

    func applyRemote(_ remote: SubjectState) -> Bool {
        guard let remoteMark = SyncMark(remote) else { return false }
        let applied = exclusive { () -> ConsentState? in
            let kept = configuration.store.value(forKey: SyncMark.key)?.string.flatMap(SyncMark.init(stored:))
            let held = kept ?? consent.map { SyncMark(date: $0.updated, eventId: "", method: "") }
            if let held, !(held < remoteMark) { return nil }
            let scope = try? self.scope()
            guard var decision = RemoteDecision.state(of: remote, scope: scope) else { return nil }
            if isTaggedForUnderAgeOfConsent { decision = decision.underAgeOfConsent(at: configuration.now()) }
            let gdpr = state.withLock { $0.gdprApplies }
            do throws(TCFEncodingError) {
                try storage.write(decision, gdprApplies: gdpr, also: [SyncMark.key: .string(remoteMark.stored)])
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

    func report(_ error: SyncError) {
        configuration.log(.warning, "\(error)")
        exclusive { hub.enqueue(.error(.sync(error))) }
    }

    func synced(_ status: SyncStatus) {
        exclusive { hub.enqueue(.synced(status)) }
    }
}
