import Foundation
import TCF

/// The in-app CMP: holds the user's decision, writes the IAB keys, decides the region, keeps
/// a vendor list, and says whether to ask the user and whether ads may be requested.
///
/// ```swift
/// let consent = ConsentManager(consentd: ConsentdEndpoint(
///     baseURL: URL(string: "https://consent.example.com")!, publishableKey: "ck_pub_…", publisherIds: ["pub-1"]))
/// consent.start()                        // synchronous, no network: keys published, decision restored
/// await consent.refreshed()              // region and vendor list, from the refresh start() began
/// if consent.shouldAsk { /* show the notice; it records the choice with agreeToAll() … */ }
/// if consent.canRequestAds { /* start the ads SDK */ }
/// ```
///
/// `start()` does only local work, then begins the one refresh (region decision and vendor
/// list, each with a fallback); whatever needs the region awaits that refresh through
/// ``refreshed()`` instead of starting another. Every change writes all its keys in one store
/// write, then emits one ``ConsentEvent/consentChanged(_:)``.
///
/// Threading: changes (decisions, region, removal, the under-age tag, consentd's answer) run
/// one at a time under a write lock. Their events are queued in that order and delivered after
/// the lock is released, by one thread at a time, so listeners see every event in order and
/// may read the manager, or make another change, without deadlocking it. Reads never wait for
/// a store write. UI-facing types built on the manager (`ConsentModel`) run on the main actor.
public final class ConsentManager: Sendable {
    /// The configuration the manager was made with.
    public let configuration: ConsentConfiguration
    let storage: ConsentStorage
    /// The write lock every change holds, and the events the changes emit.
    let hub: EventHub
    let state = Locked(State())
    /// The vendor list source: the configuration's, or consentd's trimmed list; the reason when
    /// the endpoint cannot name that list (reported by every refresh).
    private let vendorLists: Result<(any VendorListLoading)?, VendorListLoadingError>
    /// The sync client (docs/sync.md): on when consentd is configured and sync is enabled.
    let sync: ConsentSync?

    struct State {
        var consent: ConsentState?
        var gdprApplies: GDPRApplicability = .undetermined
        var lastKnownGDPR: GDPRApplicability = .undetermined
        /// consentd's last answer: this launch's, or the one kept from an earlier launch.
        var appConfig: AppConfig?
        /// The kept answer, not yet decoded.
        var appConfigJSON: String?
        var vendorList: VendorList?
        /// The refresh running or last run, and whether start() ran.
        var refresh: Task<RefreshReport, Never>?
        var refreshRunning = false
        var started = false
        /// Decisions committed so far (a presenter's choice is seen by the count moving).
        var commits = 0
        /// Whether the development identity was reported already.
        var warnedDevelopmentCMP = false
    }

    /// A manager; nothing happens until ``start()``.
    public init(configuration: ConsentConfiguration) {
        self.configuration = configuration
        storage = ConsentStorage(store: configuration.store, cmp: configuration.cmp ?? .development, generations: configuration.generations)
        if let given = configuration.vendorLists {
            vendorLists = .success(given)
        } else if let endpoint = configuration.consentd {
            vendorLists = Result { () throws(VendorListLoadingError) -> (any VendorListLoading)? in
                VendorListLoader(source: try endpoint.vendorListSource(
                    language: configuration.consentLanguage, bundledSnapshot: configuration.vendorListSnapshot,
                    cacheDirectory: configuration.cacheDirectory), transport: configuration.transport)
            }
        } else {
            vendorLists = .success(nil)
        }
        let hub = EventHub()
        self.hub = hub
        if let endpoint = configuration.consentd, configuration.sync.isEnabled {
            let (store, log) = (configuration.store, configuration.log)
            sync = ConsentSync(
                settings: configuration.sync, client: ConsentdClient(endpoint: endpoint, transport: configuration.transport),
                now: configuration.now, sleeper: configuration.sleeper,
                installationId: { InstallationIdentifier.id(in: store).uuidString.lowercased() },
                report: { Self.publish($0, on: hub, log: log) })
        } else {
            sync = nil
        }
        sync?.attach(self)
    }

    /// A manager for the app's publishers on consentd, with every other setting at its default:
    /// the vendor list, the region and the CMP identity all come from there.
    public convenience init(consentd: ConsentdEndpoint) {
        self.init(configuration: ConsentConfiguration(consentd: consentd))
    }

    // MARK: Lifecycle

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
        if first { warnIfDevelopmentCMP() }
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
    @discardableResult
    public func refreshed() async -> RefreshReport {
        if let running = state.withLock({ $0.refresh }) { return await running.value }
        return await (start() ?? beginRefresh()).value
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

    // MARK: What is held

    /// The user's decision; nil when there is none.
    public var consent: ConsentState? { state.withLock { $0.consent } }
    /// Whether GDPR applies, as last decided.
    public var gdprApplies: GDPRApplicability { state.withLock { $0.gdprApplies } }
    /// consentd's last configuration answer: this launch's, or the one kept from an earlier
    /// launch until it comes.
    public var appConfig: AppConfig? {
        state.withLock { state in
            if state.appConfig == nil, let json = state.appConfigJSON {
                state.appConfig = try? JSONDecoder().decode(AppConfig.self, from: Data(json.utf8))
                state.appConfigJSON = nil
            }
            return state.appConfig
        }
    }
    /// The vendor list held.
    public var vendorList: VendorList? { state.withLock { $0.vendorList } }

    /// The CMP identity written into strings and `IABTCF_CmpSdkID` now: the configuration's,
    /// else the operator's from consentd (kept across launches), else
    /// ``CMPIdentity/development``.
    public var cmp: CMPIdentity { storage.cmp }

    /// Whether the user is tagged as under the age of consent: the notice is not shown
    /// (``AskRules`` answers ``AskRules/Verdict/underAgeOfConsent``), and no consent stands:
    /// every decision held while tagged is ``ConsentState/underAgeOfConsent(at:)`` (no vendor
    /// or ad-tech provider consent, no personalised-advertising purposes, no special features),
    /// so every output says so. Kept across launches.
    public var isTaggedForUnderAgeOfConsent: Bool {
        configuration.store.value(forKey: ConsentStorage.underAgeKey)?.bool ?? false
    }

    /// Tags (or untags) the user as under the age of consent, writing the tag and every key of
    /// what then stands in one store write; emits ``ConsentEvent/consentChanged(_:)`` when the
    /// decision changed, then ``ConsentEvent/underAgeOfConsentChanged(_:)``, when anything
    /// changed.
    ///
    /// Tagging withdraws what a child cannot give (``ConsentState/underAgeOfConsent(at:)``).
    /// Untagging forgets the decision altogether, so the user is asked afresh: consent given
    /// before the tag is not restored, and the withdrawn decision does not stand as if chosen.
    public func setTagForUnderAgeOfConsent(_ tagged: Bool) {
        exclusive {
            guard tagged != isTaggedForUnderAgeOfConsent else { return }
            let (before, gdpr) = state.withLock { ($0.consent, $0.gdprApplies) }
            var after = tagged ? before?.underAgeOfConsent(at: configuration.now()) : nil
            let tag: [String: StoredValue?] = [ConsentStorage.underAgeKey: tagged ? .bool(true) : nil]
            do throws(TCFEncodingError) {
                try storage.write(after, gdprApplies: gdpr, also: tag)
            } catch {
                // Unreachable for a decision written before; should it happen, no decision stands.
                hub.enqueue(.error(.encoding(error)))
                after = nil
                try? storage.write(nil, gdprApplies: gdpr, also: tag)
            }
            state.withLock { $0.consent = after }
            if after != before { hub.enqueue(.consentChanged(after)) }
            hub.enqueue(.underAgeOfConsentChanged(tagged))
        }
    }

    /// Forgets consentd's configuration answer, kept or fresh (as a reset does); emits
    /// ``ConsentEvent/appConfigChanged(_:)`` with nil.
    public func forgetAppConfig() {
        exclusive {
            state.withLock { state in
                state.appConfig = nil
                state.appConfigJSON = nil
            }
            configuration.store.write([ConsentStorage.appConfigKey: nil])
            hub.enqueue(.appConfigChanged(nil))
        }
    }

    // MARK: What to do

    /// Whether to ask the user, and the rule that decided (see ``AskRules``): the one rule the
    /// manager, `GoogleAdsConsent` and `ConsentFlow` share. While the publisher's vendors are not
    /// known, vendor additions are not judged. Before the first refresh has decided the region,
    /// the region counts as unknown: await ``refreshed()`` first.
    public func askVerdict() -> AskRules.Verdict {
        let config = appConfig
        let (consent, gdpr, list) = state.withLock { ($0.consent, $0.gdprApplies, $0.vendorList) }
        return configuration.askRules.evaluate(AskRules.Situation(
            gdprApplies: gdpr, decision: consent, tcfPolicyVersion: list?.tcfPolicyVersion,
            publisherVendorIds: try? scope().vendorIds, adTechProviderIds: config.map(\.adTechProviderIds),
            nonPersonalizedOnly: config.map(\.nonPersonalizedOnly), underAgeOfConsent: isTaggedForUnderAgeOfConsent,
            now: configuration.now()))
    }

    /// Whether the notice should be shown now: ``askVerdict()`` says to ask.
    public var shouldAsk: Bool { askVerdict().shouldAsk }

    /// Whether the app's ad code may request ads now, as Google's UMP answers it: true when no
    /// consent is needed (GDPR does not apply, the user is under the age of consent and gets
    /// non-personalized ads, or the region is unknown under ``AskRules/RegionUnknownPolicy/doNotAsk``)
    /// or the user's decision still holds; false while the user should be asked. The ad SDKs
    /// read what they may do from the IAB keys.
    public var canRequestAds: Bool { !askVerdict().shouldAsk }

    /// Whether the app must offer the user a way back to their choices (a "Privacy settings"
    /// entry calling ``presentPrivacyOptions(with:)``): required wherever GDPR applies.
    public var privacyOptionsRequirement: PrivacyOptionsRequirement { PrivacyOptionsRequirement(gdprApplies) }

    /// Shows the notice because the user asked for it (the app's "Privacy settings" entry): it
    /// opens with the present choices and may be closed without a change.
    public func presentPrivacyOptions(with presenter: any NoticePresenting) async -> NoticeOutcome {
        await presenter.present(NoticeRequest(reason: askVerdict(), allowsDismissal: true, isUserInitiated: true))
    }

    /// What a notice shown now covers: the held vendor list, the publisher's vendors (the
    /// configuration's, else consentd's last answer, else, with no consentd configured, the
    /// whole list) and the notice settings.
    ///
    /// - Throws: ``ConsentKitError/noVendorList`` before a list is held;
    ///   ``ConsentKitError/publisherVendorsUnknown`` while consentd has not yet said which
    ///   vendors the publisher uses (so no decision covers vendors the publisher never chose).
    public func scope() throws(ConsentKitError) -> ConsentScope {
        let config = appConfig
        let list = state.withLock { $0.vendorList }
        guard let list else { throw .noVendorList }
        let publisher = configuration.publisher
        let vendorIds: IDSet?
        if let chosen = publisher.vendorIds {
            vendorIds = chosen
        } else if let config {
            vendorIds = IDSet(validIds: config.vendorIds)
        } else if configuration.consentd == nil {
            vendorIds = nil
        } else {
            throw .publisherVendorsUnknown
        }
        return ConsentScope(
            vendorList: list, vendorIds: vendorIds, publisherPurposes: publisher.purposes,
            publisherLegitimateInterestPurposes: publisher.legitimateInterestPurposes, numCustomPurposes: publisher.numCustomPurposes,
            customLegitimateInterestPurposes: publisher.customLegitimateInterestPurposes, publisherCC: publisher.countryCode,
            purposeOneTreatment: publisher.purposeOneTreatment, useNonStandardTexts: publisher.useNonStandardTexts,
            publisherRestrictions: publisher.restrictions, consentScreen: configuration.consentScreen,
            consentLanguage: configuration.consentLanguage, noticeVersion: configuration.noticeVersion,
            adTechProviderIds: config?.adTechProviderIds ?? [], nonPersonalizedOnly: config?.nonPersonalizedOnly ?? false)
    }

    // MARK: Decisions

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
    /// (``ConsentState/init(tcString:collectedAt:takenOver:)``).
    ///
    /// - Throws: ``ConsentKitError/invalidTCString(_:)`` when the string does not decode;
    ///   ``ConsentKitError/collectedBeforeLastUpdated(collectedAt:lastUpdated:)`` when
    ///   `collectedAt` is before the day of the string's `LastUpdated`. Nothing is written then.
    public func setConsent(tcString: String, collectedAt: Date? = nil) throws(ConsentKitError) {
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
        try change(method: .sync) { ConsentState(tcString: decoded, collectedAt: collected) }
    }

    /// Forgets the decision: its keys are removed (the CMP-present keys and the region decision
    /// stay), and the user will be asked again.
    public func clearDecision() {
        exclusive {
            let mark = removalMark()
            state.withLock { $0.consent = nil }
            writeKeys(mark: mark)
            hub.enqueue(.consentChanged(nil))
        }
    }

    /// Makes `decision` the user's decision as it is (for callers that build one themselves,
    /// such as ``GoogleAdsConsent/setStatus(_:prefersAdFree:)`` and the notice), recorded in
    /// consentd's proof as made by `method`.
    public func record(_ decision: ConsentState, method: ConsentProof.Method = .programmatic) throws(ConsentKitError) {
        try change(method: method) { decision }
    }

    /// Removes every key the CMP owns (both generations and its own records) and forgets the
    /// decision: what a publisher removing the CMP, or a user's reset, needs.
    public func removeAll() {
        exclusive {
            storage.removeAll(keeping: sync == nil ? [:] : removalMark().keyValue)
            state.withLock { $0.consent = nil }
            hub.enqueue(.consentChanged(nil))
        }
    }

    /// How many decisions were committed since the manager was made (for ``ConsentFlow``, which
    /// needs to know whether a notice recorded a choice).
    var commitCount: Int { state.withLock { $0.commits } }

    /// Makes the decision `make` returns, under the write lock, and commits it. `make` throws
    /// only ``ConsentKitError``s.
    private func change(method: ConsentProof.Method, _ make: () throws -> ConsentState) throws(ConsentKitError) {
        let failure = exclusive { () -> ConsentKitError? in
            do {
                try commit(make(), method: method)
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
    private func commit(_ decision: ConsentState, method: ConsentProof.Method) throws(ConsentKitError) {
        let decision = isTaggedForUnderAgeOfConsent ? decision.underAgeOfConsent(at: configuration.now()) : decision
        let gdpr = state.withLock { $0.gdprApplies }
        var mark: [String: StoredValue?] = [:]
        var queued: String?
        if let sync {
            let entry = try outboxEntry(for: decision, method: method, subject: sync.currentSubject)
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
            try storage.write(decision, gdprApplies: gdpr, also: mark)
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

    /// Writes every key for what is held (and `mark`, when given); the caller holds the write lock.
    func writeKeys(mark: SyncMark? = nil) {
        let (consent, gdpr) = state.withLock { ($0.consent, $0.gdprApplies) }
        do {
            try storage.write(consent, gdprApplies: gdpr, also: mark?.keyValue ?? [:])
        } catch {
            hub.enqueue(.error(.encoding(error)))
        }
    }

    /// Runs `body` holding the write lock; once the outermost holder lets go, delivers the
    /// events `body` queued.
    func exclusive<R>(_ body: () throws -> R) rethrows -> R {
        try hub.exclusive(body)
    }

    // MARK: Events

    /// The events from now on, in order; the stream ends when the caller stops iterating.
    public func events() -> AsyncStream<ConsentEvent> {
        hub.stream()
    }

    /// Calls `listener` with every event from now on, in order, after the change that made it
    /// let go of the manager's lock, on the thread that delivers (usually the one that made the
    /// change); keep the token.
    public func addListener(_ listener: @escaping @Sendable (ConsentEvent) -> Void) -> ObservationToken {
        hub.addListener(listener)
    }

    // MARK: Background work

    private func runRefresh() async -> RefreshReport {
        let before = vendorList
        async let region = decideRegion()
        async let listError = loadVendorLists()
        let (decided, vendorListError) = await (region, listError)
        let held = vendorList
        return RefreshReport(
            gdprApplies: decided.gdpr, regionSource: decided.source, vendorListVersion: held?.vendorListVersion,
            vendorListChanged: held != before, errors: [decided.error, vendorListError].compactMap { $0 })
    }

    private func decideRegion() async -> (gdpr: GDPRApplicability, source: RegionSource, error: ConsentKitError?) {
        if let forced = configuration.gdprOverride, forced != .undetermined {
            return (setRegion(forced, source: .publisher), .publisher, nil)
        }
        let debugRegion = configuration.debug.geography(on: configuration.device)
        guard let endpoint = configuration.consentd else {
            let decided = debugRegion.map { $0 == .eea ? GDPRApplicability.applies : .doesNotApply }
            let source: RegionSource = decided == nil ? .lastKnown : .publisher
            return (setRegion(decided ?? state.withLock { $0.gdprApplies }, source: source), source, nil)
        }
        let client = ConsentdClient(endpoint: endpoint, transport: configuration.transport)
        let timeout = configuration.regionTimeout.isFinite ? min(max(configuration.regionTimeout, 0), 600) : 600
        let outcome = await Self.withTimeout(seconds: timeout, sleeper: configuration.sleeper) { () async throws -> AppConfig in
            try await client.config(debugRegion: debugRegion, timeout: timeout)
        }
        let fallback = state.withLock { $0.lastKnownGDPR }
        let failure: ConsentKitError
        switch outcome {
        case .value(let config):
            take(config)
            let answer = GDPRApplicability(config.gdprApplies)
            let source: RegionSource = answer == .undetermined ? .lastKnown : .server
            return (setRegion(answer == .undetermined ? fallback : answer, source: source), source, nil)
        case .failed(let error):
            failure = .server((error as? ConsentdError) ?? .transport(url: endpoint.baseURL.absoluteString, message: String(describing: error)))
        case .timedOut:
            failure = .regionTimeout(seconds: timeout)
        }
        configuration.log(.warning, "\(failure); the region decision falls back to the last known one (\(fallback))")
        exclusive { hub.enqueue(.error(failure)) }
        return (setRegion(fallback, source: .lastKnown), .lastKnown, failure)
    }

    /// Holds consentd's answer and keeps it, with the operator's CMP identity, for the next
    /// launch; adopts that identity unless the configuration names one.
    private func take(_ config: AppConfig) {
        let identity = Self.operatorIdentity(in: config)
        exclusive {
            state.withLock { state in
                state.appConfig = config
                state.appConfigJSON = nil
            }
            storage.keep(config, cmp: identity)
            if configuration.cmp == nil, let identity { storage.adopt(identity) }
            hub.enqueue(.appConfigChanged(config))
        }
        warnIfDevelopmentCMP()
    }

    /// The CMP identity consentd's operator set (the development one while the operator has set
    /// none), from its answer; nil from a consentd that names none.
    static func operatorIdentity(in config: AppConfig) -> CMPIdentity? {
        config.cmp.map { CMPIdentity(cmpId: $0.id, cmpVersion: $0.version) }
    }

    /// Logs, once per manager, that strings carry the development CMP id.
    private func warnIfDevelopmentCMP() {
        guard cmp.isDevelopment, !state.withLock({ $0.warnedDevelopmentCMP }) else { return }
        state.withLock { $0.warnedDevelopmentCMP = true }
        configuration.log(.warning, """
            consent strings carry CMP id \(cmp.cmpId), ConsentKit's development identity, which the IAB has not \
            registered: vendors will ignore them. Set the registered id on consentd (--cmp-id) before release; \
            `consent doctor --consentd URL --key KEY` checks it.
            """)
    }

    /// Takes the region decision and writes every key once (also when the answer did not
    /// change: keys an earlier launch or configuration left that no longer apply go).
    @discardableResult
    private func setRegion(_ gdpr: GDPRApplicability, source: RegionSource) -> GDPRApplicability {
        exclusive {
            state.withLock { state in
                state.gdprApplies = gdpr
                if gdpr != .undetermined { state.lastKnownGDPR = gdpr }
            }
            writeKeys()
            hub.enqueue(.regionDecided(gdpr, source: source))
        }
        return gdpr
    }

    /// Holds the local list, then the refreshed one; returns the refresh's failure, if any.
    private func loadVendorLists() async -> ConsentKitError? {
        let loader: any VendorListLoading
        switch vendorLists {
        case .success(let given?): loader = given
        case .success(nil): return nil
        case .failure(let problem):
            let failure = ConsentKitError.vendorList("consentd's vendor list cannot be named: \(problem)")
            configuration.log(.error, "\(failure)")
            exclusive { hub.enqueue(.error(failure)) }
            return failure
        }
        if let local = await loader.localVendorList() { hold(local) }
        do {
            if let fresh = try await loader.refreshVendorList() { hold(fresh) }
            return nil
        } catch {
            let failure = ConsentKitError.vendorList(String(describing: error))
            configuration.log(.warning, "\(failure); the held vendor list stays")
            exclusive { hub.enqueue(.error(failure)) }
            // A download that arrived but could not be stored is still held by the loader.
            if let held = await loader.localVendorList() { hold(held) }
            return failure
        }
    }

    /// Holds `list` unless it is the one held already.
    public func hold(_ list: VendorList) {
        exclusive {
            let changed = state.withLock { state -> Bool in
                guard state.vendorList != list else { return false }
                state.vendorList = list
                return true
            }
            if changed { hub.enqueue(.vendorListUpdated(version: list.vendorListVersion)) }
        }
    }

    enum TimedOutcome<Value: Sendable>: Sendable {
        case value(Value)
        case failed(any Error)
        case timedOut
    }

    /// Runs `work`, giving up after `seconds` on `sleeper`: the answer comes then even if the
    /// work ignores its cancellation. The SDK's one timeout.
    static func withTimeout<Value: Sendable>(
        seconds: TimeInterval, sleeper: any Sleeper, _ work: @escaping @Sendable () async throws -> Value
    ) async -> TimedOutcome<Value> {
        let resumed = Locked(false)
        let tasks = Locked<[Task<Void, Never>]>([])
        return await withCheckedContinuation { continuation in
            let finish: @Sendable (TimedOutcome<Value>) -> Void = { outcome in
                let first = resumed.withLock { done -> Bool in
                    defer { done = true }
                    return !done
                }
                guard first else { return }
                continuation.resume(returning: outcome)
                for task in tasks.withLock({ $0 }) { task.cancel() }
            }
            let worker = Task {
                do { finish(.value(try await work())) } catch { finish(.failed(error)) }
            }
            let timer = Task {
                do { try await sleeper.sleep(for: seconds) } catch { return }
                finish(.timedOut)
            }
            tasks.withLock { $0 = [worker, timer] }
            if resumed.withLock({ $0 }) { worker.cancel(); timer.cancel() }
        }
    }
}

