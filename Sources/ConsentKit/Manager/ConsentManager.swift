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
public final class ConsentManager: Sendable {
    /// The configuration the manager was made with.
    public let configuration: ConsentConfiguration
    private let storage: ConsentStorage
    private let hub = EventHub()
    private let state = Locked(State())

    private struct State {
        var consent: ConsentState?
        var gdprApplies: GDPRApplicability = .undetermined
        var lastKnownGDPR: GDPRApplicability = .undetermined
        var appConfig: AppConfig?
        var vendorList: VendorList?
    }

    /// A manager; nothing happens until ``start()``.
    public init(configuration: ConsentConfiguration) {
        self.configuration = configuration
        storage = ConsentStorage(store: configuration.store, cmp: configuration.cmp, generations: configuration.generations)
    }

    // MARK: Lifecycle

    /// Publishes the CMP-present keys and restores the stored decision, synchronously and
    /// without network; then, unless `refreshing` is false, starts ``refresh()`` in the
    /// background and returns its task.
    @discardableResult
    public func start(refreshing: Bool = true) -> Task<Void, Never>? {
        storage.publishPresence()
        let restored = storage.restore()
        let gdpr = restored.gdprApplies
        state.withLock { state in
            state.consent = restored.state
            state.gdprApplies = gdpr
            state.lastKnownGDPR = gdpr
        }
        if let problem = restored.problem { hub.emit(.error(.storedDecisionUnreadable(problem))) }
        hub.emit(.ready(restored.state, gdpr))
        guard refreshing else { return nil }
        return Task.detached(priority: .utility) { [self] in await refresh() }
    }

    /// Decides the region and loads the vendor list (held copy first, then the network), both
    /// at once; each reports through events and falls back on failure.
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
    /// consentd's last configuration answer.
    public var appConfig: AppConfig? { state.withLock { $0.appConfig } }
    /// The vendor list held.
    public var vendorList: VendorList? { state.withLock { $0.vendorList } }

    /// Whether to ask the user, and the rule that decided (see ``AskRules``).
    public func askVerdict() -> AskRules.Verdict {
        let (consent, gdpr, list) = state.withLock { ($0.consent, $0.gdprApplies, $0.vendorList) }
        let vendors = (try? scope())?.vendorIds ?? []
        return configuration.askRules.evaluate(AskRules.Situation(
            gdprApplies: gdpr, decision: consent, tcfPolicyVersion: list?.tcfPolicyVersion, publisherVendorIds: vendors,
            now: configuration.now()))
    }

    /// What a notice shown now covers: the held vendor list, the publisher's vendors
    /// (configuration, else consentd's answer, else the whole list) and notice settings.
    public func scope() throws(ConsentKitError) -> ConsentScope {
        let (list, config) = state.withLock { ($0.vendorList, $0.appConfig) }
        guard let list else { throw .noVendorList }
        let publisher = configuration.publisher
        let vendorIds = publisher.vendorIds ?? config.map { IDSet($0.vendorIds.filter { (1...IDSet.maxID).contains($0) }) }
        return ConsentScope(
            vendorList: list, vendorIds: vendorIds, publisherPurposes: publisher.purposes,
            publisherLegitimateInterestPurposes: publisher.legitimateInterestPurposes, numCustomPurposes: publisher.numCustomPurposes,
            customLegitimateInterestPurposes: publisher.customLegitimateInterestPurposes, publisherCC: publisher.countryCode,
            purposeOneTreatment: publisher.purposeOneTreatment, useNonStandardTexts: publisher.useNonStandardTexts,
            publisherRestrictions: publisher.restrictions, consentScreen: configuration.consentScreen,
            consentLanguage: configuration.consentLanguage, noticeVersion: configuration.noticeVersion)
    }

    // MARK: Decisions

    /// Records "accept all" for what the notice covers.
    public func agreeToAll() throws(ConsentKitError) {
        try commit(.agreeToAll(scope: scope(), at: configuration.now()))
    }

    /// Records "reject all".
    public func disagreeToAll() throws(ConsentKitError) {
        try commit(.disagreeToAll(scope: scope(), at: configuration.now()))
    }

    /// Applies the changes made in `body` to the current decision (or, with none yet, to
    /// "reject all" for what the notice covers) and commits them at once. Throws what `body`
    /// throws (``ConsentChangeError`` from a refused change), or a ``ConsentKitError``; nothing
    /// is written then.
    public func update(_ body: (inout ConsentChanges) throws -> Void) throws {
        let now = configuration.now()
        let base: ConsentState
        if let consent { base = consent } else { base = .disagreeToAll(scope: try scope(), at: now) }
        try commit(base.changing(at: now, body))
    }

    /// Takes the decision a TC string records (consent received from another device or the web).
    public func setConsent(tcString: String) throws(ConsentKitError) {
        let decoded: TCString
        do {
            decoded = try TCString(decoding: tcString)
        } catch {
            throw .invalidTCString(error)
        }
        try commit(ConsentState(tcString: decoded))
    }

    /// Removes every key the CMP owns (both generations and its own records) and forgets the
    /// decision: what a publisher removing the CMP, or a user's reset, needs.
    public func removeAll() {
        state.withLock { state in
            storage.removeAll()
            state.consent = nil
        }
        hub.emit(.consentChanged(nil))
    }

    private func commit(_ decision: ConsentState) throws(ConsentKitError) {
        let failure = state.withLock { state -> TCFEncodingError? in
            do throws(TCFEncodingError) {
                try storage.write(decision, gdprApplies: state.gdprApplies)
                state.consent = decision
                return nil
            } catch {
                return error
            }
        }
        if let failure { throw .encoding(failure) }
        hub.emit(.consentChanged(decision))
    }

    // MARK: Events

    /// The events from now on, in order; the stream ends when the caller stops iterating.
    public func events() -> AsyncStream<ConsentEvent> {
        hub.stream()
    }

    /// Calls `listener` with every event from now on, on the thread that caused it; keep the
    /// token.
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
            if let debugGeography { setRegion(debugGeography == .eea ? .applies : .doesNotApply, source: .publisher) }
            return
        }
        let client = ConsentdClient(endpoint: endpoint, http: configuration.http)
        let timeout = configuration.regionTimeout
        let outcome = await Self.withTimeout(seconds: timeout) {
            try await client.config(debugGeography: debugGeography, timeout: timeout)
        }
        let fallback = state.withLock { $0.lastKnownGDPR }
        switch outcome {
        case .value(let config):
            state.withLock { $0.appConfig = config }
            let answer = GDPRApplicability(config.gdprApplies)
            setRegion(answer == .undetermined ? fallback : answer, source: answer == .undetermined ? .lastKnown : .server)
        case .failed(let error):
            hub.emit(.error((error as? ConsentdError).map(ConsentKitError.server) ?? .vendorList(String(describing: error))))
            setRegion(fallback, source: .lastKnown)
        case .timedOut:
            hub.emit(.error(.regionTimeout(seconds: timeout)))
            setRegion(fallback, source: .lastKnown)
        }
    }

    private func setRegion(_ gdpr: GDPRApplicability, source: RegionSource) {
        let failure = state.withLock { state -> TCFEncodingError? in
            guard state.gdprApplies != gdpr else { return nil }
            state.gdprApplies = gdpr
            if gdpr != .undetermined { state.lastKnownGDPR = gdpr }
            do throws(TCFEncodingError) {
                try storage.write(state.consent, gdprApplies: gdpr)
                return nil
            } catch {
                return error
            }
        }
        if let failure { hub.emit(.error(.encoding(failure))) }
        hub.emit(.regionDecided(gdpr, source: source))
    }

    private func loadVendorLists() async {
        guard let loader = configuration.vendorLists else { return }
        if let local = await loader.localVendorList() { hold(local) }
        do {
            if let fresh = try await loader.refreshVendorList() { hold(fresh) }
        } catch {
            hub.emit(.error(.vendorList(String(describing: error))))
        }
    }

    /// Holds `list` unless it is the one held already.
    public func hold(_ list: VendorList) {
        let changed = state.withLock { state -> Bool in
            guard state.vendorList != list else { return false }
            state.vendorList = list
            return true
        }
        if changed { hub.emit(.vendorListUpdated(version: list.vendorListVersion)) }
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
                try? await Task.sleep(nanoseconds: UInt64(max(seconds, 0) * 1_000_000_000))
                finish(.timedOut)
            }
            tasks.withLock { $0 = [worker, timer] }
            if resumed.withLock({ $0 }) { worker.cancel(); timer.cancel() }
        }
    }
}
