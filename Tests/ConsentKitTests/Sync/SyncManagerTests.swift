import ConsentdAPI
import Foundation
import Testing
import TCF
@testable import ConsentKit

/// A manager on consentd (FakeConsentd: config and vendor list answered, every consent request
/// refused with a 404, so events stay pending) with sync in `folder`'s `sync` folder; a failed
/// pass waits 10 minutes, so nothing is retried while a test runs.
private func syncManager(store: InMemoryKeyValueStore, folder: TestFolder, now: @escaping @Sendable () -> Date) -> ConsentManager {
    ConsentManager(configuration: ConsentConfiguration(
        consentd: endpoint, cmp: testCMP, store: store, transport: FakeConsentd(gdprApplies: true), regionTimeout: 120,
        cacheDirectory: folder.cacheDirectory, log: .silent, now: now,
        sync: ConsentSyncSettings(directory: syncDirectory(folder), initialBackoff: 600, maximumBackoff: 600)))
}

private func syncDirectory(_ folder: TestFolder) -> URL {
    folder.url.appendingPathComponent("sync", isDirectory: true)
}

/// The outbox's pending entries, read from its file by a second reader.
private func pendingEntries(_ folder: TestFolder) throws -> [OutboxEntry] {
    let outbox = try Outbox(directory: syncDirectory(folder), capacity: 1_000)
    #expect(try outbox.load(now: Date()) == nil)
    return outbox.pending
}

private func storedMark(_ store: InMemoryKeyValueStore) -> SyncMark? {
    store.value(forKey: SyncMark.key)?.string.flatMap(SyncMark.init(stored:))
}

/// `date` as ISO 8601 in UTC with milliseconds, written without the product's formatter.
private func isoMilliseconds(_ date: Date) -> String {
    let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded())
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "UTC")
    formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ss"
    let whole = Date(timeIntervalSince1970: TimeInterval(milliseconds / 1000))
    return formatter.string(from: whole) + String(format: ".%03dZ", Int(milliseconds % 1000))
}

/// Clock starts: one with a fraction of a millisecond (as the system clock has), and one on a
/// whole millisecond (testDate, as tests' fixed clocks are).
private let clockStarts = [Date(timeIntervalSince1970: 1_760_000_000.123_456_789), testDate]

@Suite("Manager with sync: outbox first, keys next, roll-forward")
struct SyncManagerTests {
    @Test("a decision goes to the outbox and its mark to the keys; a start after a crash between the two finishes the keys",
          arguments: clockStarts)
    func rollForward(start: Date) async throws {
        let folder = try TestFolder()
        let clock = TestClock(start)
        let store = InMemoryKeyValueStore()
        let manager = syncManager(store: store, folder: folder, now: clock.now)
        #expect(await manager.refreshed().succeeded)
        try manager.agreeToAll()
        await manager.syncNow()
        let first = try #require(manager.consent)

        let pending = try pendingEntries(folder)
        #expect(pending.count == 1)
        let entry = try #require(pending.first)
        #expect(try ConsentStorage.state(fromRecord: entry.record) == first)
        #expect(storedMark(store)?.eventId == entry.eventId)
        #expect(manager.syncStatus?.pending == 1)

        // The keys as they were before the second decision: what a crash after the outbox's
        // write and before the keys' leaves.
        let before = store.allValues
        clock.advance(60)
        try manager.disagreeToAll()
        await manager.syncNow()
        let second = try #require(manager.consent)
        #expect(second != first)
        let secondEntry = try #require(try pendingEntries(folder).last)
        #expect(try pendingEntries(folder).count == 2)
        #expect(storedMark(store)?.eventId == secondEntry.eventId)

        let crashed = InMemoryKeyValueStore(before)
        #expect(storedMark(crashed)?.eventId == entry.eventId)
        let restarted = syncManager(store: crashed, folder: folder, now: clock.now)
        restarted.start(refreshing: false)
        #expect(restarted.consent == second)
        #expect(storedMark(crashed)?.eventId == secondEntry.eventId)
        #expect(crashed.value(forKey: IABKey.tcString) == store.value(forKey: IABKey.tcString))
        #expect(crashed.value(forKey: ConsentStorage.decisionKey) == store.value(forKey: ConsentStorage.decisionKey))

        // Without a crash nothing is rolled: the keys already hold the outbox's newest.
        let untouched = InMemoryKeyValueStore(store.allValues)
        let normal = syncManager(store: untouched, folder: folder, now: clock.now)
        normal.start(refreshing: false)
        #expect(normal.consent == second)
        #expect(untouched.allValues == store.allValues)
    }

    @Test("a cleared decision does not come back from the outbox at the next start", arguments: clockStarts, [1.0, 0.0])
    func clearedStaysCleared(start: Date, secondsBeforeClearing: Double) async throws {
        let folder = try TestFolder()
        let clock = TestClock(start)
        let store = InMemoryKeyValueStore()
        let manager = syncManager(store: store, folder: folder, now: clock.now)
        #expect(await manager.refreshed().succeeded)
        try manager.agreeToAll()
        await manager.syncNow()
        #expect(try pendingEntries(folder).count == 1)
        // A second later, or in the same instant (a clock that did not move: a test's, a
        // programmatic reset right after a decision, a clock set back).
        clock.advance(secondsBeforeClearing)
        manager.clearDecision()
        #expect(manager.consent == nil)
        #expect(store.value(forKey: IABKey.tcString) == nil)

        let restarted = syncManager(store: store, folder: folder, now: clock.now)
        restarted.start(refreshing: false)
        #expect(restarted.consent == nil)
        #expect(store.value(forKey: IABKey.tcString) == nil)
        // The decision made is still sent: it was made; its withdrawal follows it (002-11).
        #expect(try pendingEntries(folder).map(\.event.consent.proof.method) == [.acceptAll, .withdrawal])
    }

    @Test("removeAll: the decision does not come back from the outbox at the next start", arguments: clockStarts, [1.0, 0.0])
    func removedStaysRemoved(start: Date, secondsBeforeRemoving: Double) async throws {
        let folder = try TestFolder()
        let clock = TestClock(start)
        let store = InMemoryKeyValueStore()
        let manager = syncManager(store: store, folder: folder, now: clock.now)
        #expect(await manager.refreshed().succeeded)
        try manager.agreeToAll()
        await manager.syncNow()
        clock.advance(secondsBeforeRemoving)
        manager.removeAll()

        let restarted = syncManager(store: store, folder: folder, now: clock.now)
        restarted.start(refreshing: false)
        #expect(restarted.consent == nil)
        #expect(store.value(forKey: IABKey.tcString) == nil)
    }

    @Test("each decision's event carries its method, the TC string of the keys, and its time to the millisecond",
          arguments: clockStarts)
    func eventsCarryProof(start: Date) async throws {
        let folder = try TestFolder()
        let clock = TestClock(start)
        let store = InMemoryKeyValueStore()
        let manager = syncManager(store: store, folder: folder, now: clock.now)
        #expect(await manager.refreshed().succeeded)

        var expected: [(method: ConsentProof.Method, tcString: String?, updated: Date)] = []
        func made(_ method: ConsentProof.Method) throws {
            let consent = try #require(manager.consent)
            expected.append((method, store.value(forKey: IABKey.tcString)?.string, consent.updated))
        }
        try manager.agreeToAll()
        try made(.acceptAll)
        clock.advance(1.001)
        try manager.disagreeToAll()
        try made(.rejectAll)
        clock.advance(0.337)
        try manager.update { try $0.setPurpose(1, consent: true) }
        try made(.programmatic)
        clock.advance(2.5)
        try manager.agreeToAll()
        try made(.acceptAll)
        await manager.syncNow()

        let pending = try pendingEntries(folder)
        try #require(pending.count == expected.count)
        for (entry, want) in zip(pending, expected) {
            #expect(entry.event.consent.proof.method == want.method)
            #expect(want.tcString != nil)
            #expect(entry.event.consent.tcString == want.tcString)
            #expect(entry.event.collectedAt == isoMilliseconds(want.updated))
            #expect(entry.subject == OutboxEntry.installation)
        }
        #expect(storedMark(store)?.eventId == pending.last?.eventId)
        let lastUpdated = try #require(expected.last?.updated)
        #expect(storedMark(store)?.collectedAt == Int64((lastUpdated.timeIntervalSince1970 * 1000).rounded()))
        #expect(Set(pending.map(\.eventId)).count == pending.count)
    }

    @Test("Retry-After: delta-seconds, an HTTP date, garbage")
    func retryAfter() throws {
        let now = Date(timeIntervalSince1970: 1_760_000_000)
        #expect(ConsentdClient.retryAfter("120", now: now) == 120)
        #expect(ConsentdClient.retryAfter(" 0 ", now: now) == 0)
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        let date = formatter.string(from: now.addingTimeInterval(30))
        let seconds = try #require(ConsentdClient.retryAfter(date, now: now))
        #expect(abs(seconds - 30) < 1)
        // A date in the past is "now".
        #expect(ConsentdClient.retryAfter(formatter.string(from: now.addingTimeInterval(-30)), now: now) == 0)
        #expect(ConsentdClient.retryAfter("soon", now: now) == nil)
        #expect(ConsentdClient.retryAfter("-5", now: now) == nil)
        #expect(ConsentdClient.retryAfter("", now: now) == nil)
    }
}

/// 002-11: taking a decision back is a consent event too, so consentd and the user's other
/// devices do not keep consent the user took back.
extension SyncManagerTests {
    /// A started manager on FakeConsentd with "accept all" recorded (its event pending).
    private func acceptedAll(store: InMemoryKeyValueStore, folder: TestFolder, clock: TestClock) async throws -> ConsentManager {
        let manager = syncManager(store: store, folder: folder, now: clock.now)
        #expect(await manager.refreshed().succeeded)
        try manager.agreeToAll()
        await manager.syncNow()
        return manager
    }

    @Test("002-11: clearDecision queues a withdrawal event: method withdrawal, no consent, after the decision; the keys' mark is its")
    func clearDecisionQueuesWithdrawal() async throws {
        let (folder, clock, store) = (try TestFolder(), TestClock(testDate), InMemoryKeyValueStore())
        let manager = try await acceptedAll(store: store, folder: folder, clock: clock)
        let decided = try #require(manager.consent)
        clock.advance(5)
        manager.clearDecision()
        let withdrawal = try #require(try pendingEntries(folder).last)
        #expect(withdrawal.event.consent.proof.method == .withdrawal)
        #expect(withdrawal.event.consent == ConsentRecord(proof: withdrawal.event.consent.proof))
        #expect(withdrawal.event.collectedAt == isoMilliseconds(testDate.addingTimeInterval(5)))
        #expect(withdrawal.event.consent.proof.noticeVersion == String(decided.noticeVersion))
        #expect(storedMark(store) == SyncMark(date: testDate.addingTimeInterval(5), eventId: withdrawal.eventId, method: "withdrawal"))
    }

    @Test("002-11: removeAll queues a withdrawal event and keeps only its mark")
    func removeAllQueuesWithdrawal() async throws {
        let (folder, clock, store) = (try TestFolder(), TestClock(testDate), InMemoryKeyValueStore())
        let manager = try await acceptedAll(store: store, folder: folder, clock: clock)
        manager.removeAll()
        let entries = try pendingEntries(folder)
        #expect(entries.map(\.event.consent.proof.method) == [.acceptAll, .withdrawal])
        #expect(entries.last?.event.consent.tcString == nil)
        #expect(storedMark(store)?.eventId == entries.last?.eventId)
        #expect(store.value(forKey: IABKey.tcString) == nil)
    }

    @Test("002-11: tagging under age queues an underAge event with no consent; the device keeps what stands of the decision")
    func underAgeQueuesWithdrawal() async throws {
        let (folder, clock, store) = (try TestFolder(), TestClock(testDate), InMemoryKeyValueStore())
        let manager = try await acceptedAll(store: store, folder: folder, clock: clock)
        clock.advance(1)
        manager.setTagForUnderAgeOfConsent(true)
        let withdrawal = try #require(try pendingEntries(folder).last)
        #expect(withdrawal.event.consent.proof.method == .underAge)
        #expect(withdrawal.event.consent == ConsentRecord(proof: withdrawal.event.consent.proof))
        #expect(manager.consent?.vendorConsents.isEmpty == true && manager.consent?.purposeConsents.isEmpty == false)
        #expect(storedMark(store)?.eventId == withdrawal.eventId)
        // Untagging forgets the decision on this device only: nothing more is sent.
        manager.setTagForUnderAgeOfConsent(false)
        #expect(try pendingEntries(folder).count == 2)
    }

    @Test("002-11: with no decision held and nobody signed in, a removal sends nothing (no subject is made for nothing)")
    func nothingToWithdraw() async throws {
        let (folder, clock, store) = (try TestFolder(), TestClock(testDate), InMemoryKeyValueStore())
        let manager = syncManager(store: store, folder: folder, now: clock.now)
        #expect(await manager.refreshed().succeeded)
        manager.clearDecision()
        manager.setTagForUnderAgeOfConsent(true)
        manager.removeAll()
        #expect(try pendingEntries(folder).isEmpty)
    }

    @Test("002-11: a crash after the withdrawal reached the outbox and before the keys: the next start forgets the decision")
    func withdrawalRollsForward() async throws {
        let (folder, clock, store) = (try TestFolder(), TestClock(testDate), InMemoryKeyValueStore())
        let manager = try await acceptedAll(store: store, folder: folder, clock: clock)
        let before = store.allValues
        clock.advance(1)
        manager.clearDecision()
        let crashed = InMemoryKeyValueStore(before)
        let restarted = syncManager(store: crashed, folder: folder, now: clock.now)
        restarted.start(refreshing: false)
        #expect(restarted.consent == nil)
        #expect(crashed.value(forKey: IABKey.tcString) == nil)
        #expect(storedMark(crashed)?.method == "withdrawal")
    }
}

/// FakeConsentd whose subject reads answer only after `delay` seconds: a consentd too slow for
/// the first merge.
private final class SlowSubjects: HTTPTransport {
    let inner = FakeConsentd(gdprApplies: true)
    let delay: TimeInterval

    init(delay: TimeInterval) { self.delay = delay }

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        if request.url.path.hasPrefix("/v1/subjects/") { try await Task.sleep(nanoseconds: UInt64(delay * 1_000_000_000)) }
        return try await inner.send(request)
    }
}

/// 002-12: a signed-in user's decision is merged before the app asks, within a bound.
extension SyncManagerTests {
    private func slowManager(folder: TestFolder, subjectDelay: TimeInterval, firstMergeTimeout: TimeInterval) -> ConsentManager {
        ConsentManager(configuration: ConsentConfiguration(
            consentd: endpoint, cmp: testCMP, store: InMemoryKeyValueStore(), transport: SlowSubjects(delay: subjectDelay), regionTimeout: 120,
            cacheDirectory: folder.cacheDirectory, log: .silent, now: { testDate },
            sync: ConsentSyncSettings(directory: syncDirectory(folder), initialBackoff: 600, maximumBackoff: 600, firstMergeTimeout: firstMergeTimeout)))
    }

    @Test("002-12: for a signed-in user, refreshed() waits for the first merge with their subject")
    func refreshedWaitsForTheFirstMerge() async throws {
        let manager = slowManager(folder: try TestFolder(), subjectDelay: 0.3, firstMergeTimeout: 20)
        manager.start()
        try manager.identify(userId: "user-1", token: "ckt_test")
        let started = Date()
        await manager.refreshed()
        #expect(Date().timeIntervalSince(started) >= 0.29)
        #expect(manager.syncStatus?.lastSuccess != nil)
        // Once merged, later calls do not wait again.
        let again = Date()
        await manager.refreshed()
        #expect(Date().timeIntervalSince(again) < 0.25)
    }

    @Test("002-12: the wait is bounded by firstMergeTimeout: with consentd too slow, refreshed() returns at the bound")
    func firstMergeWaitIsBounded() async throws {
        let manager = slowManager(folder: try TestFolder(), subjectDelay: 30, firstMergeTimeout: 0.5)
        manager.start()
        await manager.refreshed()
        try manager.identify(userId: "user-1", token: "ckt_test")
        let started = Date()
        await manager.refreshed()
        let waited = Date().timeIntervalSince(started)
        #expect(waited >= 0.45 && waited < 10, "\(waited) s")
        #expect(manager.shouldAsk)
    }
}
