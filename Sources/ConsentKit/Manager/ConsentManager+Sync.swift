import ConsentKitFormats
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
    /// decision's (or the US choice's) is among them, the keys' mark of its kind follows.
    private func signIn(userId: String, token: String?, provider: ConsentSync.TokenProvider?) throws(ConsentKitError) {
        guard let sync else { throw .sync(.file("sync is off: set ConsentConfiguration.consentd and leave sync enabled")) }
        let failure = exclusive { () -> SyncError? in
            let renamed: [String: String]
            do throws(SyncError) {
                renamed = try sync.identify(userId: userId, token: token, provider: provider)
            } catch {
                return error
            }
            for kind in ConsentRecord.Kind.allCases {
                if let kept = SyncMark.kept(in: configuration.store, of: kind), let new = renamed[kept.eventId] {
                    configuration.store.write(SyncMark(collectedAt: kept.collectedAt, eventId: new, method: kept.method).keyValue(of: kind))
                }
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

    /// This installation's id, kept in the configuration's store (see ``InstallationIdentifier``):
    /// the anonymous subject on consentd belongs to it.
    public var installationId: UUID {
        InstallationIdentifier.id(in: configuration.store)
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

    /// The consent event for `decision`: its strings, lists and proof (with the hash of the
    /// notice document shown, if any); for a withdrawal `method`
    /// (``ConsentdAPI/ConsentProof/Method/isWithdrawal``), the event that takes it back at the
    /// decision's time (``withdrawalEntry(of:method:subject:at:eventId:)``).
    func outboxEntry(for decision: ConsentState, method: ConsentProof.Method, subject: String, eventId: UUID = UUID(),
                     documentHash: String? = nil) throws(ConsentKitError) -> OutboxEntry {
        if method.isWithdrawal { return withdrawalEntry(of: decision, method: method, subject: subject, at: decision.updated, eventId: eventId) }
        var context = eventContext(method: method, documentHash: documentHash)
        do {
            let published = configuration.askRules.gdprApplies(region: state.withLock { $0.gdprApplies }, hasDecision: true)
            let gpp = IABKeyValues.gppString(for: decision, gdprApplies: published, cmp: cmp, us: usPrivacyKeys().sections)
            context.gppString = gpp.sections.isEmpty ? nil : try? gpp.encoded()
            let event = try context.event(for: decision, eventId: eventId)
            let tcString = if let encoded = event.consent.tcString { encoded } else { try decision.tcString(cmp: cmp).encoded() }
            let record = ConsentStorage.record(decision, tcString: tcString)
            return OutboxEntry(subject: subject, event: event, record: record)
        } catch {
            throw .encoding(error)
        }
    }

    /// The event that takes `decision` back at `date` (no consent, only the proof), for
    /// `subject`; its record is empty: no decision stands after it.
    func withdrawalEntry(of decision: ConsentState?, method: ConsentProof.Method, subject: String, at date: Date, eventId: UUID = UUID())
        -> OutboxEntry {
        OutboxEntry(subject: subject, event: eventContext(method: method).withdrawal(of: decision, at: date, eventId: eventId), record: "")
    }

    /// How, where and for whom this manager's events are made.
    func eventContext(method: ConsentProof.Method, documentHash: String? = nil) -> ConsentEventContext {
        let settings = configuration.sync
        return ConsentEventContext(
            // A refusal after an ATT denial names the prompt the user answered, not a notice (N4).
            method: method, noticeId: method == .trackingDenied ? ConsentSyncSettings.trackingPromptNoticeId : settings.noticeId,
            platform: settings.platform, cmp: cmp,
            writesVersion1: configuration.generations.contains(.version1), appConfig: appConfig, gdprApplies: gdprApplies,
            documentHash: documentHash)
    }
}

extension ConsentManager {
    /// Tells consentd that the notice (version `noticeVersion`, shown in `language`) was closed
    /// without a choice, so that its analytics count it as `closed` (docs/decisions/0044): no
    /// consent event, nothing of the user, only the notice and the time. ConsentKitUI calls it
    /// when a notice answers `dismissed`. Only when the sync with consentd is on; in the
    /// background, never waited for: a failure is logged and forgotten (a close is not retried,
    /// since consentd would count a retry again). Returns the task sending it, nil when sync is off.
    @discardableResult
    public func noticeClosedWithoutChoice(noticeVersion: Int, language: String) -> Task<Void, Never>? {
        guard let sync else { return nil }
        let close = NoticeCloseRequest(noticeVersion: String(noticeVersion), language: language.lowercased(),
                                       platform: sync.settings.platform, closedAt: ISO8601.format(configuration.now()))
        let log = configuration.log
        return Task.detached(priority: .utility) {
            do throws(ConsentdError) {
                try await sync.client.countClosed(close, timeout: sync.settings.requestTimeout)
            } catch {
                log(.warning, "\(error); the notice closed without a choice is not counted")
            }
        }
    }
}
