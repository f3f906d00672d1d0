import Foundation

/// Everything a ``ConsentManager`` needs. Most apps give only ``consentd``: the vendor list
/// (consentd's list trimmed to the publishers' vendors), the region decision, the publishers'
/// vendors and ad-tech providers, and the CMP identity all come from there.
public struct ConsentConfiguration: Sendable {
    /// consentd: its URL, the app's publishable key and publisher ids, named once; nil for an
    /// app that decides the region and lists its vendors itself.
    public var consentd: ConsentdEndpoint?
    /// The CMP identity written into strings; nil (the default): the one consentd's operator
    /// registered, else ``CMPIdentity/development`` (logged as a warning). Set it only when the
    /// app's own company is a registered CMP.
    public var cmp: CMPIdentity?
    /// The key generations written: v2 (`IABTCF_*`) and the GPP's (`IABGPP_*`) by default
    /// (``IABKeyGenerations/standard``). Seed 000's v1 keys
    /// (`IABConsent_*`, `IABConsent_CMPPresent` and `IABConsent_SubjectToGDPR` among them) are off
    /// by default; `.version1` or `.all` writes them, `IABConsent_CMPPresent` at `start()`.
    public var generations: IABKeyGenerations
    /// Where keys are written: `UserDefaults.standard` by default.
    public var store: any KeyValueStore
    /// The HTTP stack (the app may route the SDK through its own).
    public var transport: any HTTPTransport
    /// Seconds to wait for the region decision before using the last known one.
    public var regionTimeout: TimeInterval
    /// Forces the region decision (`.applies` or `.doesNotApply`); nil: ask consentd.
    public var gdprOverride: GDPRApplicability?
    /// Debug region and the debug devices.
    public var debug: RegionDebugSettings
    /// The device the SDK runs on.
    public var device: DeviceInfo
    /// When to ask the user (again), including whether to ask where the region is unknown.
    public var askRules: AskRules
    /// The publisher's purposes, vendors and notice settings.
    public var publisher: PublisherSettings
    /// The notice's version (compare ``AskRules/materialNoticeVersion``).
    public var noticeVersion: Int
    /// The notice screen recorded in decisions made through the manager.
    public var consentScreen: Int
    /// The notice language recorded in decisions (ISO 639-1); also the language of the vendor
    /// list's texts asked of consentd.
    public var consentLanguage: String
    /// The vendor list source; nil (the default): consentd's list trimmed to the publishers'
    /// vendors, kept in the caches folder, or no list without consentd.
    public var vendorLists: (any VendorListLoading)?
    /// A vendor list file shipped in the app, used until the first download (and when it is
    /// newer than the copy on disk); only for the default vendor list source. Ship consentd's
    /// list trimmed to your publishers' vendors (`GET /v1/vendor-list/trimmed`): until consentd
    /// first answers, its vendors are taken as the publishers' (a first launch offline), so the
    /// whole Global Vendor List here would let that first decision cover every vendor in it.
    public var vendorListSnapshot: URL?
    /// The folder the default vendor list source keeps its last good copy in (the caches
    /// folder's `ConsentKit/VendorList` by default).
    public var cacheDirectory: URL
    /// Where warnings and carried-on failures are written: the system log by default.
    public var log: ConsentLog
    /// The clock.
    public var now: @Sendable () -> Date
    /// The sync of decisions with consentd's consent database: on by default when ``consentd``
    /// is set (``ConsentSyncSettings``).
    public var sync: ConsentSyncSettings
    /// Global Privacy Control for the app: set it from the app's own "Global Privacy Control" (or
    /// "Do Not Sell or Share") setting, which the user turns on once for the app, as a browser's
    /// GPC setting. While true, every US visitor is opted out of sale, sharing and targeted
    /// advertising whatever they chose, and the GPC sub-section says `Gpc` 1 where the section has
    /// one (honoured in every state, required in CA, CO, CT, TX, MT, NH, NE, NJ, MN, MD, OR, DE;
    /// decision record 0032). No effect outside the US. False by default: an app has no system GPC
    /// signal to read. The value at start; ``ConsentManager/setGlobalPrivacyControl(_:)`` changes
    /// it while the app runs.
    public var globalPrivacyControl: Bool
    /// What background work waits on (the sync's backoff, the region decision's timeout): the
    /// real one; a test gives one that follows a clock it moves by hand, with ``now``.
    var sleeper: any Sleeper = SystemSleeper()

    /// A configuration; everything but `consentd` has a default: v2 keys in
    /// `UserDefaults.standard`, a 3-second region timeout, 13-month re-consent, asking where the
    /// region is unknown, consentd's trimmed vendor list and the operator's CMP identity.
    public init(
        consentd: ConsentdEndpoint?, cmp: CMPIdentity? = nil, generations: IABKeyGenerations = .standard,
        store: any KeyValueStore = UserDefaultsStore(), transport: any HTTPTransport = URLSessionHTTPTransport(),
        regionTimeout: TimeInterval = 3, gdprOverride: GDPRApplicability? = nil, debug: RegionDebugSettings = RegionDebugSettings(),
        device: DeviceInfo = .current, askRules: AskRules = AskRules(), publisher: PublisherSettings = PublisherSettings(),
        noticeVersion: Int = 0, consentScreen: Int = 0, consentLanguage: String = "EN", vendorLists: (any VendorListLoading)? = nil,
        vendorListSnapshot: URL? = nil, cacheDirectory: URL = VendorListSource.defaultCacheDirectory, log: ConsentLog = .system, now: @escaping @Sendable () -> Date = { Date() },
        sync: ConsentSyncSettings = ConsentSyncSettings(), globalPrivacyControl: Bool = false
    ) {
        self.consentd = consentd
        self.cmp = cmp
        self.generations = generations
        self.store = store
        self.transport = transport
        self.regionTimeout = regionTimeout
        self.gdprOverride = gdprOverride
        self.debug = debug
        self.device = device
        self.askRules = askRules
        self.publisher = publisher
        self.noticeVersion = noticeVersion
        self.consentScreen = consentScreen
        self.consentLanguage = consentLanguage
        self.vendorLists = vendorLists
        self.vendorListSnapshot = vendorListSnapshot
        self.cacheDirectory = cacheDirectory
        self.log = log
        self.now = now
        self.sync = sync
        self.globalPrivacyControl = globalPrivacyControl
    }
}
