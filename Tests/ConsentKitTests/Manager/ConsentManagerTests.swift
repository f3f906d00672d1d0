import Foundation
import Testing
import TCF
@testable import ConsentKit

let endpoint = ConsentdEndpoint(baseURL: URL(string: "https://consent.example.com")!, publishableKey: "ck_pub_k_s", publisherIds: ["pub-1"])

func makeManager(
    store: any KeyValueStore = InMemoryKeyValueStore(), http: any HTTPTransport = ScriptedTransport.forbidden,
    consentd: ConsentdEndpoint? = endpoint, timeout: TimeInterval = 3, override: GDPRApplicability? = nil,
    debug: RegionDebugSettings = RegionDebugSettings(), device: DeviceInfo = DeviceInfo(debugIdentifier: "device-A", isSimulator: false),
    vendorLists: (any VendorListLoading)? = FixedVendorLists(local: Fixtures.vendorList), publisher: PublisherSettings = PublisherSettings(),
    askRules: AskRules = AskRules(), log: ConsentLog = .silent, generations: IABKeyGenerations = .version2, now: Date = testDate
) -> ConsentManager {
    ConsentManager(configuration: ConsentConfiguration(
        consentd: consentd, cmp: testCMP, generations: generations, store: store, transport: http, regionTimeout: timeout, gdprOverride: override, debug: debug,
        device: device, askRules: askRules, publisher: publisher, noticeVersion: 2, vendorLists: vendorLists, log: log, now: { now },
        sync: .disabled))
}

/// Collects a manager's events.
final class EventLog: Sendable {
    private let events = Locked<[ConsentEvent]>([])
    let token: ObservationToken

    init(_ manager: ConsentManager) {
        let events = self.events
        token = manager.addListener { event in events.withLock { $0.append(event) } }
    }

    var all: [ConsentEvent] { events.withLock { $0 } }
}

@Suite("Consent manager")
struct ConsentManagerTests {
    @Test("start publishes the CMP-present keys and restores the stored decision, without network")
    func startIsLocal() throws {
        let store = InMemoryKeyValueStore()
        let stored = ConsentState.agreeToAll(scope: testScope(count: 850), at: testDate)
        try ConsentStorage(store: store, cmp: testCMP, generations: .version2).write(stored, gdprApplies: .applies)
        store.write([IABKey.cmpSdkID: nil])
        let manager = makeManager(store: store, http: ScriptedTransport.forbidden)
        let log = EventLog(manager)
        #expect(manager.start(refreshing: false) == nil)
        #expect(store.value(forKey: IABKey.cmpSdkID) == .integer(300))
        #expect(manager.consent == stored)
        #expect(manager.gdprApplies == .applies)
        #expect(log.all == [.ready(stored, .applies)])
    }

    @Test("consentd's region answer is taken and written to the keys")
    func regionFromServer() async throws {
        let store = InMemoryKeyValueStore()
        let http = ScriptedTransport.always(TransportResponse(status: 200, body: configJSON(gdprApplies: true)))
        let manager = makeManager(store: store, http: http)
        let log = EventLog(manager)
        await manager.refreshed()
        #expect(manager.gdprApplies == .applies)
        #expect(store.value(forKey: IABKey.gdprApplies) == .integer(1))
        #expect(log.all.contains(.regionDecided(.applies, source: .server)))
        let request = try #require(http.requests.first)
        #expect(request.url.absoluteString == "https://consent.example.com/v1/config?publisherIds=pub-1")
        #expect(request.headers["Authorization"] == "Bearer ck_pub_k_s")
        #expect(manager.appConfig?.vendorIds == [8, 755, 793])
    }

    @Test("when consentd does not answer in time, the last known answer stands and the timeout is reported")
    func regionTimeoutFallsBack() async throws {
        let store = InMemoryKeyValueStore()
        try ConsentStorage(store: store, cmp: testCMP, generations: .version2).write(nil, gdprApplies: .doesNotApply)
        let http = ScriptedTransport.always(TransportResponse(status: 200, body: configJSON(gdprApplies: true)), delay: 5)
        let manager = makeManager(store: store, http: http, timeout: 0.2)
        let log = EventLog(manager)
        await manager.refreshed()
        #expect(manager.gdprApplies == .doesNotApply)
        #expect(log.all.contains(.error(.regionTimeout(seconds: 0.2))))
        #expect(store.value(forKey: IABKey.gdprApplies) == .integer(0))
    }

    @Test("a consentd error is reported with its status and code, and the last known answer stands")
    func regionErrorFallsBack() async throws {
        let http = ScriptedTransport.always(
            TransportResponse(status: 400, body: Data(#"{"error":{"code":"unknown_publisher","message":"no publisher pub-1"}}"#.utf8)))
        let manager = makeManager(http: http)
        let log = EventLog(manager)
        await manager.refreshed()
        #expect(manager.gdprApplies == .undetermined)
        #expect(log.all.contains(.error(.server(.status(
            url: "https://consent.example.com/v1/config?publisherIds=pub-1", status: 400, code: "unknown_publisher",
            message: "no publisher pub-1")))))
    }

    @Test("the publisher's override decides without asking consentd")
    func overrideNeedsNoNetwork() async {
        let store = InMemoryKeyValueStore()
        let manager = makeManager(store: store, http: ScriptedTransport.forbidden, override: .applies)
        let log = EventLog(manager)
        await manager.refreshed()
        #expect(manager.gdprApplies == .applies)
        #expect(log.all.contains(.regionDecided(.applies, source: .publisher)))
        #expect(store.value(forKey: IABKey.gdprApplies) == .integer(1))
    }

    @Test("debug geography is sent only from a listed debug device or the simulator")
    func debugGeographyOnlyOnDebugDevices() async throws {
        for (device, expected) in [
            (DeviceInfo(debugIdentifier: "device-A", isSimulator: false), true),
            (DeviceInfo(debugIdentifier: "device-B", isSimulator: false), false),
            (DeviceInfo(debugIdentifier: nil, isSimulator: true), true),
        ] {
            let http = ScriptedTransport.always(TransportResponse(status: 200, body: configJSON(gdprApplies: true)))
            let manager = makeManager(http: http, debug: RegionDebugSettings(geography: .eea, deviceIdentifiers: ["device-A"]), device: device)
            await manager.refreshed()
            let url = try #require(http.requests.first?.url.absoluteString)
            #expect(url.contains("debug_geo=eea") == expected, "\(device)")
        }
    }

    @Test("accept all writes every key in one change and tells listeners once")
    func agreeToAllWritesOnce() async throws {
        let store = InMemoryKeyValueStore()
        let manager = makeManager(store: store, http: ScriptedTransport.always(TransportResponse(status: 200, body: configJSON(gdprApplies: true))))
        await manager.refreshed()
        let writes = Locked(0)
        let observation = store.observe { writes.withLock { $0 += 1 } }
        let log = EventLog(manager)
        try manager.agreeToAll()
        #expect(writes.withLock { $0 } == 1)
        let consent = try #require(manager.consent)
        #expect(log.all == [.consentChanged(consent)])
        #expect(consent.disclosedVendors == [8, 755, 793])
        #expect(store.value(forKey: IABKey.tcString)?.string.map { try? TCString(decoding: $0).vendorConsents } == consent.vendorConsents)
        _ = observation
    }

    @Test("without a vendor list, decisions that need one are refused and nothing is written")
    func noVendorListNoDecision() {
        let store = InMemoryKeyValueStore()
        let manager = makeManager(store: store, consentd: nil, vendorLists: nil)
        manager.start(refreshing: false)
        #expect(throws: ConsentKitError.noVendorList) { try manager.agreeToAll() }
        #expect(store.value(forKey: IABKey.tcString) == nil)
    }

    @Test("a transaction commits once; a refused change writes nothing")
    func updateCommitsOnce() async throws {
        let store = InMemoryKeyValueStore()
        let manager = makeManager(store: store, consentd: nil, publisher: PublisherSettings(vendorIds: [8, 755]))
        await manager.refreshed()
        let log = EventLog(manager)
        try manager.update { changes in
            try changes.setPurpose(1, consent: true)
            try changes.setVendor(755, consent: true)
        }
        #expect(manager.consent?.purposeConsents == [1])
        #expect(manager.consent?.vendorConsents == [755])
        #expect(log.all.count == 1)
        #expect(throws: ConsentKitError.change(.consentOnlyPurpose(3))) {
            try manager.update { try $0.setPurposeLegitimateInterest(3, allowed: true) }
        }
        #expect(log.all.count == 1)
    }

    @Test("a TC string from elsewhere becomes the decision; one that does not decode is refused")
    func setFromTCString() throws {
        let store = InMemoryKeyValueStore()
        let manager = makeManager(store: store, consentd: nil)
        manager.start(refreshing: false)
        let other = ConsentState.agreeToAll(scope: testScope(count: 30), at: testDate)
        let string = try other.tcString(cmp: CMPIdentity(cmpId: 10, cmpVersion: 1)).encoded()
        try manager.setConsent(tcString: string)
        #expect(manager.consent?.vendorConsents == other.vendorConsents)
        #expect(throws: ConsentKitError.self) { try manager.setConsent(tcString: "not a tc string") }
        #expect(manager.consent?.vendorConsents == other.vendorConsents)
    }

    @Test("a TC string's choice keeps the collection time given, to the millisecond: 09:41:12.345 sorts after midnight's")
    func collectionTimeKeepsMilliseconds() throws {
        let midnight = Date(timeIntervalSince1970: 1_772_582_400)  // 2026-03-04T00:00:00Z, testDate's day
        let morning = midnight.addingTimeInterval(9 * 3600 + 41 * 60 + 12.345)
        let remote = try ConsentState.agreeToAll(scope: testScope(count: 30), at: morning).tcString(cmp: CMPIdentity(cmpId: 10, cmpVersion: 1)).encoded()
        let early = makeManager(consentd: nil)
        early.start(refreshing: false)
        try early.setConsent(tcString: remote, collectedAt: midnight)
        let store = InMemoryKeyValueStore()
        let later = makeManager(store: store, consentd: nil)
        later.start(refreshing: false)
        try later.setConsent(tcString: remote, collectedAt: morning)

        let first = try #require(early.consent)
        let second = try #require(later.consent)
        #expect(second.updated == morning)
        #expect(second.created == morning)
        #expect(second.updated > first.updated)
        // Kept to the millisecond across a relaunch.
        let relaunched = makeManager(store: store, consentd: nil)
        relaunched.start(refreshing: false)
        #expect(relaunched.consent?.updated.timeIntervalSince1970 == 1_772_617_272.345)
    }

    @Test("without a collection time the choice is dated now; one before the string's LastUpdated day is refused")
    func collectionTimeDefaultAndRefusal() throws {
        let remote = try ConsentState.agreeToAll(scope: testScope(count: 30), at: testDate).tcString(cmp: CMPIdentity(cmpId: 10, cmpVersion: 1)).encoded()
        let manager = makeManager(consentd: nil)
        manager.start(refreshing: false)
        try manager.setConsent(tcString: remote)
        #expect(manager.consent?.updated == testDate)
        let dayBefore = testDate.addingTimeInterval(-86_400)
        #expect(throws: ConsentKitError.collectedBeforeLastUpdated(collectedAt: dayBefore, lastUpdated: Date(timeIntervalSince1970: 1_772_582_400))) {
            try manager.setConsent(tcString: remote, collectedAt: dayBefore)
        }
        #expect(manager.consent?.updated == testDate)
    }

    @Test("a TC string recording an earlier first decision keeps that day as created")
    func collectionTimeKeepsEarlierCreated() throws {
        let firstDay = Date(timeIntervalSince1970: 1_769_126_400)  // 2026-01-23, 40 days before testDate's day
        let tcString = TCString(
            created: TCFTimestamp(firstDay), lastUpdated: TCFTimestamp(Date(timeIntervalSince1970: 1_772_582_400)), cmpId: 10,
            cmpVersion: 1, consentScreen: 0, consentLanguage: "EN", vendorListVersion: 45, tcfPolicyVersion: 4,
            purposesConsent: [1], vendorConsents: [8])
        let state = ConsentState(tcString: tcString, collectedAt: testDate)
        #expect(state.created == firstDay)
        #expect(state.updated == testDate)
    }

    @Test("the 2019 rename: a vendor renamed in a newer list does not re-prompt; one added does")
    func renamedVendorDoesNotReprompt() async throws {
        let renamed = try renamedVendorList(id: 755, to: "Google Advertising Products (renamed)")
        let store = InMemoryKeyValueStore()
        let first = makeManager(store: store, override: .applies, publisher: PublisherSettings(vendorIds: [8, 755]))
        await first.refreshed()
        try first.agreeToAll()
        let second = makeManager(store: store, override: .applies, vendorLists: FixedVendorLists(local: renamed),
                                 publisher: PublisherSettings(vendorIds: [8, 755]))
        await second.refreshed()
        #expect(second.vendorList?.vendors[755]?.name == "Google Advertising Products (renamed)")
        #expect(second.askVerdict() == .decisionHolds)
        let third = makeManager(store: store, override: .applies, vendorLists: FixedVendorLists(local: renamed),
                                publisher: PublisherSettings(vendorIds: [8, 755, 793]))
        await third.refreshed()
        #expect(third.askVerdict() == .vendorsAdded([793]))
    }

    @Test("offline on a first launch, the bundled snapshot gives the notice its vendor list and the failure is reported")
    func offlineFirstLaunchUsesSnapshot() async throws {
        let folder = try TestFolder()
        let offline = ScriptedTransport.offline()
        let loader = VendorListLoader(source: folder.source(), transport: offline)
        let manager = makeManager(http: offline, override: .applies, vendorLists: loader, publisher: PublisherSettings(vendorIds: [8, 755]))
        let log = EventLog(manager)
        await manager.refreshed()
        #expect(manager.vendorList?.vendorListVersion == 45)
        #expect(log.all.contains(.vendorListUpdated(version: 45)))
        #expect(log.all.contains { if case .error(.vendorList) = $0 { true } else { false } })
        try manager.agreeToAll()
        #expect(manager.consent?.disclosedVendors == [8, 755])
        #expect(offline.requests.count == 1)
    }

    @Test("with consentd configured, a decision waits for the publisher's vendors, which the next launch knows offline")
    func publisherVendorsComeFromConsentd() async throws {
        let store = InMemoryKeyValueStore()
        let offline = makeManager(store: store, http: ScriptedTransport.offline())
        await offline.refreshed()
        #expect(throws: ConsentKitError.publisherVendorsUnknown) { try offline.agreeToAll() }
        #expect(offline.askVerdict() == .noDecision)

        let online = makeManager(store: store, http: ScriptedTransport.always(TransportResponse(status: 200, body: configJSON(gdprApplies: true))))
        await online.refreshed()
        try online.agreeToAll()
        #expect(online.consent?.disclosedVendors == [8, 755, 793])

        let later = makeManager(store: store, http: ScriptedTransport.offline())
        await later.refreshed()
        #expect(try later.scope().vendorIds == [8, 755, 793])
        #expect(later.askVerdict() == .decisionHolds)
    }

    @Test("the publisher's override applies in start(), before any network")
    func overrideAppliesAtStart() {
        let store = InMemoryKeyValueStore()
        let manager = makeManager(store: store, http: ScriptedTransport.forbidden, override: .doesNotApply)
        manager.start(refreshing: false)
        #expect(manager.gdprApplies == .doesNotApply)
        #expect(store.value(forKey: IABKey.gdprApplies) == .integer(0))
    }

    @Test("keys an earlier configuration left, which no longer apply, are removed once the region is decided")
    func staleKeysGoAfterRefresh() async throws {
        let store = InMemoryKeyValueStore()
        let stored = ConsentState.agreeToAll(scope: testScope(count: 20), at: testDate)
        try ConsentStorage(store: store, cmp: testCMP, generations: .all).write(stored, gdprApplies: .applies)
        #expect(store.value(forKey: IABKey.consentString) != nil)
        let manager = makeManager(store: store, consentd: nil, override: .applies)
        await manager.refreshed()
        #expect(store.value(forKey: IABKey.consentString) == nil)
        #expect(store.value(forKey: IABKey.cmpPresent) == .bool(true))  // never removed (IABKey.cmpPresent)
        #expect(store.value(forKey: IABKey.tcString) != nil)
    }

    @Test("a listener may read the manager and make a change from an event without deadlock, and events keep their order")
    func listenersMayReenter() async throws {
        let store = InMemoryKeyValueStore()
        let manager = makeManager(store: store, consentd: nil, override: .applies, publisher: PublisherSettings(vendorIds: [8]))
        await manager.refreshed()
        let seen = Locked<[ConsentEvent]>([])
        let storeToken = store.observe { _ = manager.consent; _ = manager.askVerdict() }
        let token = manager.addListener { event in
            seen.withLock { $0.append(event) }
            if case .consentChanged(let state?) = event, state.vendorConsents.isEmpty { try? manager.agreeToAll() }
        }
        try manager.disagreeToAll()
        let events = seen.withLock { $0 }
        #expect(events.count == 2)
        #expect(events.first.map { if case .consentChanged(let state?) = $0 { state.vendorConsents.isEmpty } else { false } } == true)
        #expect(events.last == .consentChanged(manager.consent))
        #expect(manager.consent?.vendorConsents == [8])
        _ = (storeToken, token)
    }

    @Test("removeAll clears the keys and forgets the decision")
    func removeAllForgets() async throws {
        let store = InMemoryKeyValueStore()
        let manager = makeManager(store: store, consentd: nil, override: .applies)
        await manager.refreshed()
        try manager.agreeToAll()
        manager.removeAll()
        #expect(manager.consent == nil)
        #expect(store.allValues.isEmpty)
    }

    @Test("the event stream delivers events in order")
    func eventStream() async throws {
        let manager = makeManager(consentd: nil, override: .doesNotApply)
        let stream = manager.events()
        await manager.refreshed()
        try manager.disagreeToAll()
        var seen: [ConsentEvent] = []
        for await event in stream {
            seen.append(event)
            if case .consentChanged = event { break }
        }
        #expect(seen.first == .ready(nil, .doesNotApply))
        #expect(seen.contains(.regionDecided(.doesNotApply, source: .publisher)))
        #expect(seen.contains(.vendorListUpdated(version: 45)))
        #expect(seen.last == .consentChanged(manager.consent))
    }
}

/// The real GVL with one vendor's name changed, as happened to providers in 2019.
func renamedVendorList(id: Int, to name: String) throws -> VendorList {
    let url = Fixtures.root.appendingPathComponent("gvl/gvl-v3_vendor-list-v45_2024-03-21.json")
    var json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
    var vendors = try #require(json["vendors"] as? [String: Any])
    var vendor = try #require(vendors[String(id)] as? [String: Any])
    vendor["name"] = name
    vendors[String(id)] = vendor
    json["vendors"] = vendors
    return try VendorList(jsonData: JSONSerialization.data(withJSONObject: json))
}
