import Foundation
import TCF

/// The in-app CMP: holds the user's decision, writes the IAB keys, decides the region, keeps
/// a vendor list, and says whether to ask the user.
///
/// ```swift
/// let manager = ConsentManager(configuration: ConsentConfiguration(cmp: CMPIdentity(cmpId: 300, cmpVersion: 1), consentd: endpoint))
/// manager.start()                     // synchronous, no network: keys published, state restored
/// for await event in manager.events() { … }
/// if manager.askVerdict().shouldAsk { /* show the notice */ }
/// try manager.agreeToAll()
/// ```
///
/// `start()` does only local work; the region decision and the vendor list follow in the
/// background (``refresh()``), each with a fallback, and report through events. Every change
/// writes all its keys in one store write, then emits one ``ConsentEvent/consentChanged(_:)``.
///
/// Threading: changes (decisions, region, removal) run one at a time under a write lock that
/// also orders their events; listeners may read the manager, and even make another change, from
/// an event. Reads never wait for a store write.
public final class ConsentManager: Sendable {
    /// The configuration the manager was made with.
    public let configuration: ConsentConfiguration
    private let storage: ConsentStorage
    private let hub = EventHub()
    private let state = Locked(State())
    /// Serialises changes and their events; recursive, so a listener may make a change.
    private let writing = RecursiveLock()

    private struct State {
        var consent: ConsentState?
        var gdprApplies: GDPRApplicability = .undetermined
        var lastKnownGDPR: GDPRApplicability = .undetermined
        /// consentd's last answer: this launch's, or the one kept from an earlier launch.
        var appConfig: AppConfig?
        /// The kept answer, not yet decoded.
        var appConfigJSON: String?
        var vendorList: VendorList?
    }

    /// A manager; nothing happens until ``start()``.
    public init(configuration: ConsentConfiguration) {
        self.configuration = configuration
        storage = ConsentStorage(store: configuration.store, cmp: configuration.cmp, generations: configuration.generations)
    }

    // MARK: Lifecycle

    /// Publishes the CMP-present keys and restores the stored decision, synchronously and
    /// without network (a publisher override of the region applies at once); then, unless
    /// `refreshing` is false, starts ``refresh()`` in the background and returns its task.
    @discardableResult
    public func start(refreshing: Bool = true) -> Task<Void, Never>? {
        writing.withLock {
            storage.publishPresence()
            let restored = storage.restore()
            let forced = configuration.gdprOverride.flatMap { $0 == .undetermined ? nil : $0 }
            let gdpr = forced ?? restored.gdprApplies
            state.withLock { state in
                state.consent = restored.state
                state.gdprApplies = gdpr
                state.lastKnownGDPR = restored.gdprApplies
                state.appConfigJSON = restored.appConfigJSON
            }
            if let problem = restored.problem { hub.emit(.error(.storedDecisionUnreadable(problem))) }
            if gdpr != restored.gdprApplies { writeKeys() }
            hub.emit(.ready(restored.state, gdpr))
        }
        guard refreshing else { return nil }
        return Task.detached(priority: .utility) { [self] in await refresh() }
    }

    /// Decides the region and loads the vendor list (held copy first, then the network), both
    /// at once; each reports through events and falls back on failure. The keys are written
    /// once afterwards, so keys of an earlier configuration or launch that no longer apply go.
    public func refresh() async {
        async let region: Void = decideRegion()
        async let lists: Void = loadVendorLists()
        _ = await (region, lists)
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

    /// Whether the user is tagged as under the age of consent: the notice is not shown
    /// (``AskRules`` answers ``AskRules/Verdict/underAgeOfConsent``) and Google ads are
    /// non-personalized. Kept across launches.
    public var isTaggedForUnderAgeOfConsent: Bool {
        configuration.store.value(forKey: ConsentStorage.underAgeKey)?.bool ?? false
    }

    /// Tags (or untags) the user as under the age of consent.
    public func setTagForUnderAgeOfConsent(_ tagged: Bool) {
        configuration.store.write([ConsentStorage.underAgeKey: tagged ? .bool(true) : nil])
    }

    /// Forgets consentd's configuration answer, kept or fresh (as a reset does).
    public func forgetAppConfig() {
        state.withLock { state in
            state.appConfig = nil
            state.appConfigJSON = nil
        }
        configuration.store.write([ConsentStorage.appConfigKey: nil])
    }

    /// Whether to ask the user, and the rule that decided (see ``AskRules``). While the
    /// publisher's vendors are not known, vendor additions are not judged.
    public func askVerdict() -> AskRules.Verdict {
        let config = appConfig
        let (consent, gdpr, list) = state.withLock { ($0.consent, $0.gdprApplies, $0.vendorList) }
        return configuration.askRules.evaluate(AskRules.Situation(
            gdprApplies: gdpr, decision: consent, tcfPolicyVersion: list?.tcfPolicyVersion,
            publisherVendorIds: try? scope().vendorIds, adTechProviderIds: config.map(\.adTechProviderIds),
            nonPersonalizedOnly: config.map(\.nonPersonalizedOnly), underAgeOfConsent: isTaggedForUnderAgeOfConsent,
            now: configuration.now()))
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
        try change { .agreeToAll(scope: try scope(), at: configuration.now()) }
    }

    /// Records "reject all".
    public func disagreeToAll() throws(ConsentKitError) {
        try change { .disagreeToAll(scope: try scope(), at: configuration.now()) }
    }

    /// Applies the changes made in `body` to the current decision, taken under what the notice
    /// covers now (``ConsentState/rescoped(to:)``; with no decision yet, "reject all"), and
    /// commits them at once; nothing is written when anything throws.
    ///
    /// - Throws: ``ConsentKitError/change(_:)`` for a change a setter refused, another
    ///   ``ConsentKitError`` from the commit, or what `body` itself throws.
    public func update(_ body: (inout ConsentChanges) throws -> Void) throws {
        try writing.withLock {
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
            try commit(next)
        }
    }

    /// Takes the decision a TC string records (consent received from another device or the web).
    public func setConsent(tcString: String) throws(ConsentKitError) {
        let decoded: TCString
        do {
            decoded = try TCString(decoding: tcString)
        } catch {
            throw .invalidTCString(error)
        }
        try change { ConsentState(tcString: decoded) }
    }

    /// Forgets the decision: its keys are removed (the CMP-present keys and the region decision
    /// stay), and the user will be asked again.
    public func clearDecision() {
        writing.withLock {
            state.withLock { $0.consent = nil }
            writeKeys()
            hub.emit(.consentChanged(nil))
        }
    }

    /// Makes `decision` the user's decision as it is (for callers that build one themselves,
    /// such as ``GoogleAdsConsent/setStatus(_:prefersAdFree:)``).
    public func record(_ decision: ConsentState) throws(ConsentKitError) {
        try change { decision }
    }

    /// Removes every key the CMP owns (both generations and its own records) and forgets the
    /// decision: what a publisher removing the CMP, or a user's reset, needs.
    public func removeAll() {
        writing.withLock {
            storage.removeAll()
            state.withLock { $0.consent = nil }
            hub.emit(.consentChanged(nil))
        }
    }

    /// Makes the decision `make` returns, under the write lock, and commits it. `make` throws
    /// only ``ConsentKitError``s.
    private func change(_ make: () throws -> ConsentState) throws(ConsentKitError) {
        let failure = writing.withLock { () -> ConsentKitError? in
            do {
                try commit(make())
                return nil
            } catch let error as ConsentKitError {
                return error
            } catch {
                preconditionFailure("a decision threw \(error), not a ConsentKitError")
            }
        }
        if let failure { throw failure }
    }

    /// Writes `decision`'s keys, holds it, and tells listeners; the caller holds the write lock.
    private func commit(_ decision: ConsentState) throws(ConsentKitError) {
        let gdpr = state.withLock { $0.gdprApplies }
        do {
            try storage.write(decision, gdprApplies: gdpr)
        } catch {
            throw .encoding(error)
        }
        state.withLock { $0.consent = decision }
        hub.emit(.consentChanged(decision))
    }

    /// Writes every key for what is held; the caller holds the write lock.
    private func writeKeys() {
        let (consent, gdpr) = state.withLock { ($0.consent, $0.gdprApplies) }
        do {
            try storage.write(consent, gdprApplies: gdpr)
        } catch {
            hub.emit(.error(.encoding(error)))
        }
    }

    // MARK: Events

    /// The events from now on, in order; the stream ends when the caller stops iterating.
    public func events() -> AsyncStream<ConsentEvent> {
        hub.stream()
    }

    /// Calls `listener` with every event from now on, in order, on the thread that made the
    /// change; keep the token.
    public func addListener(_ listener: @escaping @Sendable (ConsentEvent) -> Void) -> ObservationToken {
        hub.addListener(listener)
    }

    // MARK: Background work

    private func decideRegion() async {
        if let forced = configuration.gdprOverride, forced != .undetermined {
            return setRegion(forced, source: .publisher)
        }
        let debugGeography = configuration.debug.geography(on: configuration.device)
        guard let endpoint = configuration.consentd else {
            let decided = debugGeography.map { $0 == .eea ? GDPRApplicability.applies : .doesNotApply }
            return setRegion(decided ?? state.withLock { $0.gdprApplies }, source: decided == nil ? .lastKnown : .publisher)
        }
        let client = ConsentdClient(endpoint: endpoint, transport: configuration.transport)
        let timeout = configuration.regionTimeout.isFinite ? min(max(configuration.regionTimeout, 0), 600) : 600
        let outcome = await Self.withTimeout(seconds: timeout) { () async throws -> AppConfig in
            try await client.config(debugGeography: debugGeography, timeout: timeout)
        }
        let fallback = state.withLock { $0.lastKnownGDPR }
        switch outcome {
        case .value(let config):
            state.withLock { state in
                state.appConfig = config
                state.appConfigJSON = nil
            }
            storage.keep(config)
            let answer = GDPRApplicability(config.gdprApplies)
            setRegion(answer == .undetermined ? fallback : answer, source: answer == .undetermined ? .lastKnown : .server)
        case .failed(let error):
            let reason = (error as? ConsentdError) ?? .transport(url: endpoint.baseURL.absoluteString, message: String(describing: error))
            hub.emit(.error(.server(reason)))
            setRegion(fallback, source: .lastKnown)
        case .timedOut:
            hub.emit(.error(.regionTimeout(seconds: timeout)))
            setRegion(fallback, source: .lastKnown)
        }
    }

    /// Takes the region decision and writes every key once (also when the answer did not
    /// change: keys an earlier launch or configuration left that no longer apply go).
    private func setRegion(_ gdpr: GDPRApplicability, source: RegionSource) {
        writing.withLock {
            state.withLock { state in
                state.gdprApplies = gdpr
                if gdpr != .undetermined { state.lastKnownGDPR = gdpr }
            }
            writeKeys()
            hub.emit(.regionDecided(gdpr, source: source))
        }
    }

    private func loadVendorLists() async {
        guard let loader = configuration.vendorLists else { return }
        if let local = await loader.localVendorList() { hold(local) }
        do {
            if let fresh = try await loader.refreshVendorList() { hold(fresh) }
        } catch {
            hub.emit(.error(.vendorList(String(describing: error))))
            // A download that arrived but could not be stored is still held by the loader.
            if let held = await loader.localVendorList() { hold(held) }
        }
    }

    /// Holds `list` unless it is the one held already.
    public func hold(_ list: VendorList) {
        writing.withLock {
            let changed = state.withLock { state -> Bool in
                guard state.vendorList != list else { return false }
                state.vendorList = list
                return true
            }
            if changed { hub.emit(.vendorListUpdated(version: list.vendorListVersion)) }
        }
    }

    enum TimedOutcome<Value: Sendable>: Sendable {
        case value(Value)
        case failed(any Error)
        case timedOut
    }

    /// Runs `work`, giving up after `seconds`: the answer comes then even if the work ignores
    /// its cancellation.
    static func withTimeout<Value: Sendable>(
        seconds: TimeInterval, _ work: @escaping @Sendable () async throws -> Value
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
                try? await Task.sleep(nanoseconds: UInt64(seconds * 1_000_000_000))
                finish(.timedOut)
            }
            tasks.withLock { $0 = [worker, timer] }
            if resumed.withLock({ $0 }) { worker.cancel(); timer.cancel() }
        }
    }
}
