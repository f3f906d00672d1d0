import ConsentKitFormats
import ConsentdAPI
import Foundation
import GPP
import Testing
import TCF
@testable import ConsentKit

/// consentd for a US visitor in California (usca in force), as the sync sees it: the region
/// decision, the subject's state as the test sets it (404 while it has none), and every event
/// answered with a 500, so that what a device queued stays in its outbox to be read.
private final class USConsentd: Sendable {
    let remote = Locked<SubjectState?>(nil)

    var transport: ScriptedTransport {
        ScriptedTransport([], otherwise: .answer { [remote] request in
            if request.url.path.hasPrefix("/v1/subjects/") {
                guard let state = remote.withLock({ $0 }) else { return TransportResponse(status: 404, body: Data()) }
                return TransportResponse(status: 200, headers: ["Content-Type": "application/json"],
                                         body: (try? JSONEncoder().encode(state)) ?? Data())
            }
            if request.url.path.hasPrefix("/v1/consents") { return TransportResponse(status: 500, body: Data()) }
            return TransportResponse(status: 200, body: USPrivacyManagerTests.usConfig(state: "CA", sections: [8]))
        })
    }
}

/// A device: a manager with sync on, on `consentd`, with its own store and sync folder.
private struct USDevice {
    let manager: ConsentManager
    let store: InMemoryKeyValueStore
    let folder: TestFolder

    /// With `syncing` false, the same app before sync was turned on.
    init(_ consentd: USConsentd, clock: TestClock, store: InMemoryKeyValueStore = InMemoryKeyValueStore(), syncing: Bool = true) throws {
        folder = try TestFolder()
        self.store = store
        manager = ConsentManager(configuration: ConsentConfiguration(
            consentd: endpoint, cmp: testCMP, store: store, transport: consentd.transport, regionTimeout: 120,
            noticeVersion: 2, vendorLists: FixedVendorLists(local: Fixtures.vendorList), cacheDirectory: folder.cacheDirectory,
            log: .silent, now: clock.now,
            sync: ConsentSyncSettings(isEnabled: syncing, directory: folder.url.appendingPathComponent("sync", isDirectory: true),
                                      initialBackoff: 600, maximumBackoff: 600, credentialStore: InMemoryCredentialStore())))
    }

    /// The events in the outbox, oldest first.
    func pending() throws -> [ConsentEventRequest] {
        let outbox = try Outbox(directory: folder.url.appendingPathComponent("sync", isDirectory: true), capacity: 1_000)
        _ = try outbox.load(now: Date())
        return outbox.pending.map(\.event)
    }

    /// The subject state consentd holds after it stored `events` in order, newest per kind.
    static func state(of events: [ConsentEventRequest], subjectId: String) -> SubjectState? {
        var newest: [ConsentRecord.Kind: SubjectState] = [:]
        for event in events {
            let state = SubjectState(subjectId: subjectId, eventId: event.eventId, collectedAt: event.collectedAt,
                                     receivedAt: event.collectedAt, consent: event.consent)
            newest[event.consent.recordKind] = state
        }
        guard var first = newest[.tcf] ?? newest[.us] else { return nil }
        let others = newest.values.filter { $0.eventId != first.eventId }
        first.otherKinds = others.isEmpty ? nil : others
        return first
    }
}

private func choice(sale: Bool = false, sharing: Bool = false, at date: Date) -> USPrivacyChoice {
    USPrivacyChoice(saleOptOut: sale, sharingOptOut: sharing, targetedAdvertisingOptOut: false, sensitiveDataLimited: true,
                    noticeVersion: 2, language: "en", decided: date)
}

@Suite("A US choice synced as a record of kind us (decision record 0035)")
struct USChoiceSyncTests {
    @Test("a US choice makes one sync event of kind us with the GPP string of the sections in force and the choice's values, and its own mark")
    func oneEventOfKindUS() async throws {
        let clock = TestClock(testDate)
        let device = try USDevice(USConsentd(), clock: clock)
        #expect(await device.manager.refreshed().succeeded)
        let made = choice(sale: true, at: clock.now())
        try device.manager.recordUSChoice(made, method: .rejectAll)

        let events = try device.pending()
        #expect(events.count == 1)
        let event = try #require(events.first)
        #expect(event.consent.kind == .us)
        #expect(event.consent.usChoice == USChoiceRecord(saleOptOut: true, sharingOptOut: false, targetedAdvertisingOptOut: false,
                                                         sensitiveDataLimited: true))
        #expect(event.consent.tcString == nil && event.consent.purposeConsents == nil && event.consent.googleAdsChoice == nil)
        #expect(event.consent.proof.method == .rejectAll && event.consent.proof.noticeVersion == "2" && event.consent.proof.language == "en")
        #expect(event.collectedAt == ISO8601.format(made.decided))
        let gpp = try GPPString(decoding: try #require(event.consent.gppString))
        #expect(gpp.sectionIds == [8])
        #expect(gpp.us(.usca)?.saleOptOut == .optedOut)
        #expect(event.consent.gppString == device.store.value(forKey: IABKey.gppString)?.string)
        #expect(SyncMark.kept(in: device.store, of: .us)?.eventId == event.eventId)
        #expect(SyncMark.kept(in: device.store) == nil)
    }

    @Test("pulled on a fresh device in a US region, a US choice is applied: the same IABGPP keys, usPrivacyChoice reads it back")
    func pulledChoiceIsApplied() async throws {
        let clock = TestClock(testDate)
        let consentd = USConsentd()
        let first = try USDevice(consentd, clock: clock)
        #expect(await first.manager.refreshed().succeeded)
        let made = choice(sale: true, sharing: true, at: clock.now())
        try first.manager.recordUSChoice(made)
        consentd.remote.withLock { $0 = USDevice.state(of: try! first.pending(), subjectId: "user-1") }

        clock.advance(60)
        let second = try USDevice(consentd, clock: clock)
        #expect(await second.manager.refreshed().succeeded)
        #expect(second.manager.usPrivacyChoice == nil)
        try second.manager.identify(userId: "user-1", token: "ckt_test")
        await second.manager.syncNow()

        #expect(second.manager.usPrivacyChoice == made)
        for key in [IABKey.gppString, IABKey.gppSections, "IABGPP_8_String", "gad_rdp"] {
            #expect(second.store.value(forKey: key) == first.store.value(forKey: key), "\(key)")
        }
        #expect(second.manager.consent == nil)
        #expect(SyncMark.kept(in: second.store, of: .us)?.eventId == SyncMark.kept(in: first.store, of: .us)?.eventId)
        // Nothing is sent back: consentd's US choice is the device's now.
        #expect(try second.pending().isEmpty)
    }

    @Test("a TCF decision and a US choice in one subject both survive the merge, and a newer US choice leaves the TCF decision as it is")
    func bothKindsSurvive() async throws {
        let clock = TestClock(testDate)
        let consentd = USConsentd()
        let first = try USDevice(consentd, clock: clock)
        #expect(await first.manager.refreshed().succeeded)
        try first.manager.agreeToAll()
        clock.advance(5)
        try first.manager.recordUSChoice(choice(sale: true, at: clock.now()))
        consentd.remote.withLock { $0 = USDevice.state(of: try! first.pending(), subjectId: "user-1") }

        clock.advance(60)
        let second = try USDevice(consentd, clock: clock)
        #expect(await second.manager.refreshed().succeeded)
        try second.manager.identify(userId: "user-1", token: "ckt_test")
        await second.manager.syncNow()
        let decision = try #require(second.manager.consent)
        #expect(decision.purposeConsents == first.manager.consent?.purposeConsents)
        #expect(decision.vendorConsents == first.manager.consent?.vendorConsents && !decision.vendorConsents.isEmpty)
        #expect(second.manager.usPrivacyChoice == first.manager.usPrivacyChoice)

        // The user changes their US choice on the first device, after the TCF decision.
        clock.advance(60)
        let changed = choice(at: clock.now())
        try first.manager.recordUSChoice(changed)
        consentd.remote.withLock { $0 = USDevice.state(of: try! first.pending(), subjectId: "user-1") }
        await second.manager.syncNow()
        #expect(second.manager.usPrivacyChoice == changed)
        #expect(second.manager.consent == decision)
        #expect(second.store.value(forKey: "gad_rdp") == nil)
    }

    @Test("a newer TCF decision on consentd does not take the device's US choice away")
    func tcfDecisionKeepsTheUSChoice() async throws {
        let clock = TestClock(testDate)
        let consentd = USConsentd()
        let first = try USDevice(consentd, clock: clock)
        let second = try USDevice(consentd, clock: clock)
        #expect(await first.manager.refreshed().succeeded)
        #expect(await second.manager.refreshed().succeeded)
        let held = choice(sale: true, at: clock.now())
        try second.manager.recordUSChoice(held)
        try second.manager.identify(userId: "user-1", token: "ckt_test")

        clock.advance(60)
        try first.manager.disagreeToAll()
        consentd.remote.withLock { $0 = USDevice.state(of: try! first.pending(), subjectId: "user-1") }
        await second.manager.syncNow()
        #expect(second.manager.consent != nil)
        #expect(second.manager.usPrivacyChoice == held)
    }

    @Test("clearDecision takes the US choice back on consentd too: a withdrawal of kind us, which another device applies")
    func clearedChoiceIsWithdrawnEverywhere() async throws {
        let clock = TestClock(testDate)
        let consentd = USConsentd()
        let first = try USDevice(consentd, clock: clock)
        let second = try USDevice(consentd, clock: clock)
        #expect(await first.manager.refreshed().succeeded)
        #expect(await second.manager.refreshed().succeeded)
        try first.manager.recordUSChoice(choice(sale: true, at: clock.now()))
        consentd.remote.withLock { $0 = USDevice.state(of: try! first.pending(), subjectId: "user-1") }
        try second.manager.identify(userId: "user-1", token: "ckt_test")
        await second.manager.syncNow()
        #expect(second.manager.usPrivacyChoice != nil)

        clock.advance(60)
        first.manager.clearDecision()
        let withdrawal = try #require(try first.pending().last)
        #expect(withdrawal.consent.kind == .us && withdrawal.consent.proof.method == .withdrawal && withdrawal.consent.usChoice == nil)
        consentd.remote.withLock { $0 = USDevice.state(of: try! first.pending(), subjectId: "user-1") }
        await second.manager.syncNow()
        #expect(second.manager.usPrivacyChoice == nil)
        #expect(second.store.value(forKey: "gad_rdp") == nil)
    }

    @Test("a US choice made before sync is queued for the signed-in user's subject at the merge, with its own time, and its echo is not applied again")
    func choiceBeforeSyncIsPushed() async throws {
        let clock = TestClock(testDate)
        let consentd = USConsentd()
        let store = InMemoryKeyValueStore()
        let before = try USDevice(consentd, clock: clock, store: store, syncing: false)
        #expect(await before.manager.refreshed().succeeded)
        let made = choice(sale: true, at: clock.now())
        try before.manager.recordUSChoice(made, method: .rejectAll)

        clock.advance(60)
        let device = try USDevice(consentd, clock: clock, store: store)
        #expect(await device.manager.refreshed().succeeded)
        try device.manager.identify(userId: "user-1", token: "ckt_test")
        await device.manager.syncNow()
        let events = try device.pending()
        #expect(events.count == 1)
        let event = try #require(events.first)
        #expect(event.consent.kind == .us && event.collectedAt == ISO8601.format(made.decided))
        // How it was made was not kept without sync: programmatic, as for a TCF decision from before sync.
        #expect(event.consent.proof.method == .programmatic)
        #expect(event.consent.usChoice?.saleOptOut == true && event.consent.gppString != nil)
        #expect(SyncMark.kept(in: store, of: .us)?.eventId == event.eventId)

        // consentd got it: its echo is the device's own choice, nothing is queued again.
        consentd.remote.withLock { $0 = USDevice.state(of: events, subjectId: "user-1") }
        await device.manager.syncNow()
        #expect(try device.pending().count == 1)
        #expect(device.manager.usPrivacyChoice == made)
    }
}
