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
    let vendorLists: Result<(any VendorListLoading)?, VendorListLoadingError>
    /// The sync client (docs/sync.md): on when consentd is configured and sync is enabled.
    let sync: ConsentSync?

    struct State {
        var consent: ConsentState?
        /// The user's answer to the US notice.
        var usChoice: USPrivacyChoice?
        /// Global Privacy Control as the app last set it: ``ConsentConfiguration/globalPrivacyControl``
        /// at start, then ``ConsentManager/setGlobalPrivacyControl(_:)``.
        var globalPrivacyControl = false
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
        storage = ConsentStorage(
            store: configuration.store, cmp: configuration.cmp ?? .development, generations: configuration.generations,
            askRules: configuration.askRules)
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
                settings: configuration.sync, client: ConsentdClient(endpoint: endpoint, transport: configuration.transport, now: configuration.now),
                now: configuration.now, sleeper: configuration.sleeper,
                installationId: { InstallationIdentifier.id(in: store).uuidString.lowercased() },
                report: { Self.publish($0, on: hub, log: log) })
        } else {
            sync = nil
        }
        sync?.attach(self)
        state.withLock { $0.globalPrivacyControl = configuration.globalPrivacyControl }
    }

    /// A manager for the app's publishers on consentd, with every other setting at its default:
    /// the vendor list, the region and the CMP identity all come from there.
    public convenience init(consentd: ConsentdEndpoint) {
        self.init(configuration: ConsentConfiguration(consentd: consentd))
    }

    // MARK: What is held

    /// The user's decision; nil when there is none.
    public var consent: ConsentState? { state.withLock { $0.consent } }
    /// Whether GDPR applies, as every output says it: the region as last decided, except that a
    /// decision held while the region is unknown was collected as if GDPR applied
    /// (``AskRules/gdprApplies(region:hasDecision:)``).
    public var gdprApplies: GDPRApplicability {
        state.withLock { configuration.askRules.gdprApplies(region: $0.gdprApplies, hasDecision: $0.consent != nil) }
    }
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
    /// or ad-tech provider consent, no personalised-advertising purposes, no special features,
    /// every legitimate interest objected to), so every output says so. Kept across launches.
    public var isTaggedForUnderAgeOfConsent: Bool {
        configuration.store.value(forKey: ConsentStorage.underAgeKey)?.bool ?? false
    }

    /// How many decisions were committed since the manager was made (for ``ConsentFlow``, which
    /// needs to know whether a notice recorded a choice).
    var commitCount: Int { state.withLock { $0.commits } }
}
