import ConsentdAPI
import Foundation
import TCF
import Testing
@testable import ConsentKit

/// One device for the sync client's tests: a manager on consentd whose every sync request a
/// ``ScriptedTransport`` answers as consentd would (``ConsentdAnswers``), with the vendor list
/// held and the region decided without the network, and time on a ``TestClock`` (nothing waits
/// in real time).
private struct Device {
    let manager: ConsentManager
    let transport: ScriptedTransport
    let clock: TestClock
    let store: InMemoryKeyValueStore
    let folder: TestFolder
    let events: Locked<[ConsentEvent]>
    private let token: ObservationToken

    /// Settings of the tests: a 2-second first backoff, 10 minutes at most.
    static let settings = ConsentSyncSettings(directory: URL(fileURLWithPath: "/dev/null"), initialBackoff: 2, maximumBackoff: 600)

    /// Settings whose backoff holds every pass but a forced one back while a test runs.
    static var patient: ConsentSyncSettings {
        var settings = Device.settings
        settings.initialBackoff = 600
        return settings
    }

    init(_ steps: [ScriptedTransport.Step], otherwise: ScriptedTransport.Step? = nil, settings: ConsentSyncSettings = Device.settings) throws {
        let (folder, clock, store, events) = (try TestFolder(), TestClock(), InMemoryKeyValueStore(), Locked<[ConsentEvent]>([]))
        (self.folder, self.clock, self.store, self.events) = (folder, clock, store, events)
        transport = ScriptedTransport(steps, otherwise: otherwise)
        var sync = settings
        sync.directory = folder.url.appendingPathComponent("sync", isDirectory: true)
        sync.credentialStore = InMemoryCredentialStore()
        var configuration = ConsentConfiguration(
            consentd: endpoint, cmp: testCMP, store: store, transport: transport, gdprOverride: .applies,
            publisher: PublisherSettings(vendorIds: [8, 755, 793]),
            vendorLists: FixedVendorLists(local: try VendorList(jsonData: GVLFixtures.v3v45())), log: .silent, now: clock.now, sync: sync)
        configuration.sleeper = clock
        manager = ConsentManager(configuration: configuration)
        token = manager.addListener { event in events.withLock { $0.append(event) } }
    }

    /// The device started, its region decided, its vendor list held, and the refresh's sync
    /// pass over.
    func started() async -> Device {
        manager.start(refreshing: false)
        await manager.refresh()
        await manager.sync?.trigger(merge: false).value
        return self
    }

    /// Sends what is pending now, ignoring the backoff (not a `Retry-After`) and merging nothing;
    /// the status afterwards. (Passes run one after another: this one runs after every pass
    /// begun before it.)
    @discardableResult
    func drain() async -> SyncStatus {
        await manager.sync?.trigger(merge: false, force: true).value
        return status
    }

    /// Waits for the passes begun so far, without forcing one.
    func settle() async {
        await manager.sync?.trigger(merge: false).value
    }

    var status: SyncStatus { manager.syncStatus ?? SyncStatus() }

    /// Seconds from now to the next attempt the status announces.
    var wait: TimeInterval? { status.nextAttempt.map { $0.timeIntervalSince(clock.now()) } }

    /// The requests consentd received, as `METHOD path`.
    var requests: [String] { transport.requests.map { "\($0.method) \($0.url.path)" } }

    /// The events a request sent (one for `POST /v1/consents`, the batch's for the batch).
    func sentEvents(_ index: Int) throws -> [ConsentEventRequest] {
        let request = transport.requests[index]
        let body = try #require(request.body)
        if request.url.path.hasSuffix("/batch") { return try JSONDecoder().decode(ConsentBatchRequest.self, from: body).events }
        return [try JSONDecoder().decode(ConsentEventRequest.self, from: body)]
    }

    /// The outbox's pending entries, read from its file by a second reader.
    func pending() throws -> [OutboxEntry] {
        let outbox = try Outbox(directory: folder.url.appendingPathComponent("sync", isDirectory: true), capacity: 1_000)
        _ = try outbox.load(now: clock.now())
        return outbox.pending
    }

    /// The consent event consentd would hold for `decision`, made by another device.
    func remoteEvent(_ decision: ConsentState, method: ConsentProof.Method) throws -> SubjectState {
        let entry = try manager.outboxEntry(for: decision, method: method, subject: OutboxEntry.installation)
        return ConsentdAnswers.state(of: entry.event)
    }
}

/// The subject's first event, sent and acknowledged: the device then has consentd's subject and
/// its token, and the next events go by batch.
private func withSubject(_ device: Device) async throws {
    try device.manager.agreeToAll()
    let status = await device.drain()
    try #require(status.pending == 0 && status.subjectId == ConsentdAnswers.subjectId, "\(status)")
}

/// Makes `count` decisions, a second apart, while consentd fails the first one's pass (one
/// request, answered by the script): the backoff holds the others' passes back, so they wait
/// in the outbox for the next forced pass.
private func decideWhileDown(_ device: Device, count: Int) async throws {
    for index in 0..<count {
        device.clock.advance(1)
        if index.isMultiple(of: 2) { try device.manager.disagreeToAll() } else { try device.manager.agreeToAll() }
        if index == 0 { await device.settle() }
    }
}

@Suite("Sync client: sending, batching, backoff, Retry-After, dead letters, overflow and merge, against a scripted consentd")
struct SyncClientTests {
    @Test("a decision is sent as one event with the publishable key, and the subject consentd creates is kept with its token")
    func sendsOneEvent() async throws {
        let device = try await Device([ConsentdAnswers.appended()]).started()
        try device.manager.agreeToAll()
        let eventId = try #require(SyncMark.kept(in: device.store)?.eventId)
        let status = await device.drain()

        #expect(device.requests == ["POST /v1/consents"])
        let sent = try device.sentEvents(0)
        #expect(sent.map(\.eventId) == [eventId])
        #expect(sent.first?.subjectId == nil)
        #expect(device.transport.requests.first?.headers["Authorization"] == "Bearer \(endpoint.publishableKey)")
        #expect(status.pending == 0 && status.lastError == nil)
        #expect(status.subjectId == ConsentdAnswers.subjectId)
        #expect(status.lastSuccess == device.clock.now())
        #expect(try device.pending().isEmpty)
        #expect(device.events.withLock { $0 }.contains { if case .synced = $0 { true } else { false } })
    }

    @Test("pending decisions of a known subject go in one batch request, in the order made, with the subject's token")
    func batchesInOrder() async throws {
        let device = try await Device([ConsentdAnswers.appended(), ConsentdAnswers.refusal(500), ConsentdAnswers.batch()],
                                      settings: Device.patient).started()
        try await withSubject(device)
        try await decideWhileDown(device, count: 6)
        let made = try device.pending().map(\.eventId)
        #expect(made.count == 6)
        let status = await device.drain()

        #expect(device.requests == ["POST /v1/consents", "POST /v1/consents", "POST /v1/consents/batch"])
        let batch = try device.sentEvents(2)
        #expect(batch.map(\.eventId) == made)
        #expect(batch.allSatisfy { $0.subjectId == ConsentdAnswers.subjectId })
        #expect(device.transport.requests[2].headers["Authorization"] == "Bearer \(ConsentdAnswers.installationToken)")
        #expect(status.pending == 0)
    }

    @Test("a batch carries at most batchSize events: the rest go in the next request, still in order")
    func batchSizeBounds() async throws {
        var settings = Device.patient
        settings.batchSize = 2
        let device = try await Device([ConsentdAnswers.appended(), ConsentdAnswers.refusal(500), ConsentdAnswers.batch(),
                                       ConsentdAnswers.appended()], settings: settings).started()
        try await withSubject(device)
        try await decideWhileDown(device, count: 3)
        let made = try device.pending().map(\.eventId)
        let status = await device.drain()

        #expect(device.requests == ["POST /v1/consents", "POST /v1/consents", "POST /v1/consents/batch", "POST /v1/consents"])
        #expect(try device.sentEvents(2).map(\.eventId) == Array(made.prefix(2)))
        #expect(try device.sentEvents(3).map(\.eventId) == [made[2]])
        #expect(status.pending == 0)
    }

    @Test("each failure in a row doubles the wait, with jitter of 50 to 100 %, up to the longest backoff")
    func exponentialBackoff() async throws {
        var settings = Device.settings
        settings.initialBackoff = 2
        settings.maximumBackoff = 20
        let device = try await Device([], otherwise: ConsentdAnswers.refusal(500), settings: settings).started()
        try device.manager.agreeToAll()
        // Each failed request is one failure more; syncNow ignores the backoff.
        for _ in 0..<6 {
            await device.manager.syncNow()
            let failures = device.transport.requests.count
            let full = min(20, 2 * pow(2, Double(failures - 1)))
            let wait = try #require(device.wait)
            #expect(wait >= full / 2 - 1e-6 && wait <= full + 1e-6, "after \(failures) failures: waits \(wait) s, not within \(full / 2)...\(full)")
            if case .unavailable? = device.status.lastError {} else { Issue.record("expected unavailable, got \(String(describing: device.status.lastError))") }
        }
        #expect(device.transport.requests.count >= 6)
        #expect(device.status.pending == 1)
    }

    @Test("a failed pass is tried again by itself once its backoff has passed, and not before")
    func retriesAfterBackoff() async throws {
        let device = try await Device([ConsentdAnswers.refusal(500), ConsentdAnswers.appended(), ConsentdAnswers.appended()]).started()
        try device.manager.agreeToAll()
        await device.settle()
        #expect(device.requests == ["POST /v1/consents"])
        let wait = try #require(device.wait)
        #expect(wait >= 1 && wait <= 2)
        try await waitUntil("the backoff's timer waits on the clock") { device.clock.sleepers == 1 }
        // A decision's pass inside the backoff sends nothing.
        device.clock.advance(wait / 2)
        try device.manager.disagreeToAll()
        await device.settle()
        #expect(device.requests.count == 1)
        #expect(device.status.pending == 2)

        // Past its end (the halves' sum may fall a hair short of it in floating point).
        device.clock.advance(wait / 2 + 0.001)
        try await waitUntil("the backoff's pass sent the events") { device.status.pending == 0 }
        #expect(device.requests == ["POST /v1/consents", "POST /v1/consents", "POST /v1/consents"])
    }

    @Test("a Retry-After is honoured, by syncNow too; once it has passed the event goes, once")
    func honoursRetryAfter() async throws {
        let device = try await Device([ConsentdAnswers.refusal(503, retryAfter: "120"), ConsentdAnswers.appended()]).started()
        try device.manager.agreeToAll()
        let throttled = try #require(await device.manager.syncNow())
        #expect(throttled.lastError == .throttled(status: 503, retryAfter: 120))
        let wait = try #require(device.wait)
        #expect(abs(wait - 120) < 0.001)

        device.clock.advance(119)
        let inside = try #require(await device.manager.syncNow())
        #expect(device.requests.count == 1)
        #expect(inside.pending == 1)

        device.clock.advance(1)
        let after = await device.drain()
        #expect(after.pending == 0 && after.lastError == nil)
        #expect(device.requests == ["POST /v1/consents", "POST /v1/consents"])
    }

    @Test("a Retry-After given as a date is read against the device's clock, not the wall clock")
    func retryAfterDateOnTheDevicesClock() async throws {
        // The test clock starts in October 2025, long before the wall clock: read against the
        // wall clock, this date would already have passed and nothing would be waited for.
        let start = TestClock().now()
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        let date = formatter.string(from: start.addingTimeInterval(90))
        let device = try await Device([ConsentdAnswers.refusal(503, retryAfter: date)]).started()
        try device.manager.agreeToAll()
        _ = await device.manager.syncNow()
        let wait = try #require(device.wait)
        #expect(wait > 89 && wait <= 90, "waits \(wait) s for \(date)")
    }

    @Test("a Retry-After of three thousand years, or a date in the year 9999, is held to the longest backoff",
          arguments: ["99999999999", "Fri, 31 Dec 9999 23:59:59 GMT"])
    func capsAbsurdRetryAfter(retryAfter: String) async throws {
        let device = try await Device([ConsentdAnswers.refusal(429, retryAfter: retryAfter)]).started()
        try device.manager.agreeToAll()
        let status = try #require(await device.manager.syncNow())
        #expect(status.lastError == .throttled(status: 429, retryAfter: 600))
        let wait = try #require(device.wait)
        #expect(wait >= 600 - 0.001 && wait <= 600 + 0.001, "waits \(wait) s")
        #expect(status.pending == 1)
    }

    @Test("a contract error in a batch moves that event to the dead-letter file and reports it; the events around it are sent")
    func deadLettersInBatch() async throws {
        let device = try await Device([ConsentdAnswers.appended(), ConsentdAnswers.refusal(500), ConsentdAnswers.batch([201, 422, 201])],
                                      settings: Device.patient).started()
        try await withSubject(device)
        try await decideWhileDown(device, count: 3)
        let refused = try device.pending()[1].eventId
        let status = await device.drain()

        #expect(status.pending == 0 && status.deadLettered == 1)
        #expect(device.requests.count == 3)
        let dead = try #require(device.manager.deadLetteredEvents.first)
        #expect(dead.eventId == refused && dead.status == 422 && dead.error.field == "tcString")
        #expect(device.events.withLock { $0 }.contains(
            .error(.sync(.eventRejected(eventId: refused, status: 422, code: "invalid_tc_string", message: "refused by the test", field: "tcString")))))
        // The decision on the device stands.
        #expect(device.manager.consent != nil)
    }

    @Test("an event refused as a contract error (a clock ahead of consentd's) is dead-lettered, not sent again")
    func deadLettersSingleEvent() async throws {
        let device = try await Device([ConsentdAnswers.refusal(400, code: "invalid_collected_at", field: "collectedAt")]).started()
        try device.manager.agreeToAll()
        let status = await device.drain()
        #expect(status.pending == 0 && status.deadLettered == 1)
        #expect(status.nextAttempt == nil)
        // Nothing is sent again: the script has no further answer, and none is asked for.
        await device.drain()
        #expect(device.requests.count == 1)
        #expect(device.manager.deadLetteredEvents.first?.error.field == "collectedAt")
    }

    @Test("an outbox at its bound lets the oldest events go, keeps the newest, and reports how many it let go")
    func outboxOverflow() async throws {
        var settings = Device.patient
        settings.capacity = 2
        let device = try await Device([], otherwise: .fail(URLError(.notConnectedToInternet)), settings: settings).started()
        for _ in 0..<3 {
            device.clock.advance(1)
            try device.manager.agreeToAll()
        }
        let status = device.status
        #expect(status.pending == 2 && status.dropped == 1)
        #expect(device.events.withLock { $0 }.contains(.error(.sync(.outboxOverflow(dropped: 1)))))
        #expect(try device.pending().last?.eventId == SyncMark.kept(in: device.store)?.eventId)
    }

    @Test("a newer decision on consentd is applied to the device; an older one is refused and the device's decision stands")
    func mergesNewerRefusesOlder() async throws {
        let device = try await Device([ConsentdAnswers.appended()]).started()
        try await withSubject(device)
        let ownMark = try #require(SyncMark.kept(in: device.store))
        let scope = try device.manager.scope()

        let newer = try device.remoteEvent(.disagreeToAll(scope: scope, at: device.clock.now().addingTimeInterval(30)), method: .rejectAll)
        device.transport.append([ConsentdAnswers.subject(newer)])
        device.clock.advance(60)
        let merged = try #require(await device.manager.syncNow())
        let applied = try #require(device.manager.consent)
        #expect(applied.purposeConsents.isEmpty && applied.vendorConsents.isEmpty)
        #expect(SyncMark.kept(in: device.store)?.eventId == newer.eventId)
        #expect(device.events.withLock { $0 }.contains(.remoteConsentApplied(applied)))
        #expect(merged.pending == 0)

        let older = try device.remoteEvent(.agreeToAll(scope: scope, at: device.clock.now().addingTimeInterval(-45)), method: .acceptAll)
        device.transport.append([ConsentdAnswers.subject(older)])
        let events = device.events.withLock { $0.count }
        await device.manager.syncNow()
        #expect(device.manager.consent == applied)
        #expect(SyncMark.kept(in: device.store)?.eventId == newer.eventId)
        #expect(!device.events.withLock { $0.dropFirst(events) }.contains { if case .consentChanged = $0 { true } else { false } })
        // Nothing was sent back: consentd's newest is the device's.
        #expect(device.requests == ["POST /v1/consents", "GET /v1/subjects/\(ConsentdAnswers.subjectId)", "GET /v1/subjects/\(ConsentdAnswers.subjectId)"])
        #expect(ownMark.eventId != newer.eventId)
    }

    @Test("a token from the provider that consentd refuses is minted again, once, and the next one is used")
    func renewsProviderToken() async throws {
        let user = "user-1"
        let device = try await Device([ConsentdAnswers.refusal(401, code: "unauthorized"), ConsentdAnswers.refusal(404, code: "not_found"),
                                       ConsentdAnswers.appended(subjectId: user)]).started()
        let minted = Locked(0)
        try device.manager.identify(userId: user, tokens: {
            "ckt_\(minted.withLock { count -> Int in count += 1; return count })"
        })
        await device.settle()
        try device.manager.agreeToAll()
        let status = await device.drain()

        #expect(minted.withLock { $0 } == 2)
        #expect(Array(device.requests.prefix(3)) == ["GET /v1/subjects/\(user)", "GET /v1/subjects/\(user)", "POST /v1/consents"])
        #expect(device.transport.requests.prefix(3).map { $0.headers["Authorization"] } == ["Bearer ckt_1", "Bearer ckt_2", "Bearer ckt_2"])
        #expect(status.pending == 0)
    }
}
