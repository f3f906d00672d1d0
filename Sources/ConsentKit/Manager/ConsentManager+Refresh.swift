import Foundation
import TCF

/// What a refresh does in the background: the region decision (consentd's answer, with a
/// timeout and the last known one as fallback) and the vendor list (held copy, then the network).
extension ConsentManager {
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

    /// Decides the region and loads the vendor list, at once; what came of it.
    func runRefresh() async -> RefreshReport {
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
        let client = ConsentdClient(endpoint: endpoint, transport: configuration.transport, now: configuration.now)
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
    func warnIfDevelopmentCMP() {
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
                do { try await sleeper.sleep(seconds: seconds) } catch { return }
                finish(.timedOut)
            }
            tasks.withLock { $0 = [worker, timer] }
            if resumed.withLock({ $0 }) { worker.cancel(); timer.cancel() }
        }
    }
}
