import Foundation

/// Everything a ``ConsentManager`` needs: who the CMP is, where it stores, whom it asks.
public struct ConsentConfiguration: Sendable {
    /// The CMP's registered id and version.
    public var cmp: CMPIdentity
    /// The key generations written: v2 by default.
    public var generations: IABKeyGenerations
    /// Where keys are written: `UserDefaults.standard` by default.
    public var store: any KeyValueStore
    /// consentd, for the region decision and the publishers' vendors; nil: none.
    public var consentd: ConsentdEndpoint?
    /// The HTTP stack (the app may route the SDK through its own).
    public var transport: any HTTPTransport
    /// Seconds to wait for the region decision before using the last known one.
    public var regionTimeout: TimeInterval
    /// Forces the region decision (`.applies` or `.doesNotApply`); nil: ask consentd.
    public var gdprOverride: GDPRApplicability?
    /// Debug geography and the debug devices.
    public var debug: RegionDebugSettings
    /// The device the SDK runs on.
    public var device: DeviceInfo
    /// When to ask the user again.
    public var askRules: AskRules
    /// The publisher's purposes, vendors and notice settings.
    public var publisher: PublisherSettings
    /// The notice's version (compare ``AskRules/materialNoticeVersion``), screen and language.
    public var noticeVersion: Int
    /// The notice screen recorded in decisions made through the manager.
    public var consentScreen: Int
    /// The notice language recorded in decisions (ISO 639-1).
    public var consentLanguage: String
    /// The vendor list source; nil: the manager holds no list until one is given.
    public var vendorLists: (any VendorListLoading)?
    /// The clock.
    public var now: @Sendable () -> Date

    /// A configuration with the defaults: v2 keys in `UserDefaults.standard`, a 3-second region
    /// timeout, no consentd, 13-month re-consent.
    public init(
        cmp: CMPIdentity, generations: IABKeyGenerations = .version2, store: any KeyValueStore = UserDefaultsStore(),
        consentd: ConsentdEndpoint? = nil, transport: any HTTPTransport = URLSessionHTTPTransport(), regionTimeout: TimeInterval = 3,
        gdprOverride: GDPRApplicability? = nil, debug: RegionDebugSettings = RegionDebugSettings(), device: DeviceInfo = .current,
        askRules: AskRules = AskRules(), publisher: PublisherSettings = PublisherSettings(), noticeVersion: Int = 0,
        consentScreen: Int = 0, consentLanguage: String = "EN", vendorLists: (any VendorListLoading)? = nil,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.cmp = cmp
        self.generations = generations
        self.store = store
        self.consentd = consentd
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
        self.now = now
    }
}
