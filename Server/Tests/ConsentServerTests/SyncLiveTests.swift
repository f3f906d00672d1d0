@testable import ConsentServer
// Not Hummingbird: it re-exports HTTPTypes' TransportRequest and TransportResponse, and here those names
// mean the SDK's.
import ConsentKit
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import ServiceLifecycle
import Synchronization
import TCF
import Testing

/// The SDK's sync client against a real consentd on a loopback port: devices of one user
/// converging, the outbox surviving a stopped server, throttling, contract errors, credentials.
@Suite("Sync: the SDK's outbox and merge against a live consentd", .serialized)
struct SyncLiveTests {
    static let vendorList: VendorList = { try! VendorList(jsonData: gvlFixture(gvlV3Name)) }()

    /// A vendor list held from the start, without a network.
    struct HeldList: VendorListLoading {
        func localVendorList() async -> VendorList? { SyncLiveTests.vendorList }
        func refreshVendorList() async throws -> VendorList? { nil }
    }

    /// A clock the test moves.
    final class Clock: Sendable {
        private let time = Guarded(Date(timeIntervalSince1970: 1_790_000_000))
        var now: Date { time.withLock { $0 } }
        func advance(_ seconds: TimeInterval) { time.withLock { $0 += seconds } }
        func set(_ date: Date) { time.withLock { $0 = date } }
    }

    /// `URLSessionHTTPTransport` that counts the requests and, for POSTs, can answer faults
    /// itself before forwarding, or rewrite the body.
    final class FaultyTransport: HTTPTransport {
        struct Fault: Sendable { var status: Int; var retryAfter: String? }
        private let inner = URLSessionHTTPTransport()
        private let faults: Guarded<[Fault]>
        private let rewrite: @Sendable (Data) -> Data
        let posts = Guarded(0)

        init(faults: [Fault] = [], rewrite: @escaping @Sendable (Data) -> Data = { $0 }) {
            self.faults = Guarded(faults)
            self.rewrite = rewrite
        }

        func send(_ request: TransportRequest) async throws -> TransportResponse {
            var request = request
            if request.method == "POST" {
                posts.withLock { $0 += 1 }
                let fault = faults.withLock { $0.isEmpty ? nil : $0.removeFirst() }
                if let fault {
                    let body = Data(#"{"error":{"code":"unavailable","message":"injected by the test"}}"#.utf8)
                    return TransportResponse(status: fault.status, headers: fault.retryAfter.map { ["Retry-After": $0] } ?? [:], body: body)
                }
                request.body = request.body.map(rewrite)
            }
            return try await inner.send(request)
        }
    }

    /// One device: a manager with its own store and sync folder.
    struct Device {
        let manager: ConsentManager
        let store: InMemoryKeyValueStore
        let folder: URL
        let events: Guarded<[ConsentEvent]>
        let token: ObservationToken

        init(port: Int, publishable: String, clock: Clock, transport: any HTTPTransport = URLSessionHTTPTransport(),
             store: InMemoryKeyValueStore = InMemoryKeyValueStore(), folder: URL? = nil, vendorIds: IDSet = [1, 21, 755],
             firstMergeTimeout: TimeInterval = 1.5) {
            let folder = folder ?? FileManager.default.temporaryDirectory.appendingPathComponent("sync-live-\(UUID().uuidString)")
            self.store = store
            self.folder = folder
            manager = ConsentManager(configuration: ConsentConfiguration(
                consentd: ConsentdEndpoint(baseURL: URL(string: "http://127.0.0.1:\(port)")!, publishableKey: publishable, publisherIds: ["pub-news"]),
                cmp: CMPIdentity(cmpId: 300, cmpVersion: 1), store: store, transport: transport, regionTimeout: 10, gdprOverride: .applies,
                publisher: PublisherSettings(vendorIds: vendorIds), noticeVersion: 4, vendorLists: HeldList(), log: .silent,
                now: { clock.now }, sync: ConsentSyncSettings(directory: folder, initialBackoff: 30, firstMergeTimeout: firstMergeTimeout)))
            let events = Guarded<[ConsentEvent]>([])
            self.events = events
            token = manager.addListener { event in events.withLock { $0.append(event) } }
        }

        func started() async -> Device {
            manager.start(refreshing: false)
            await manager.refresh()
            return self
        }
    }

    /// A free loopback port: bound to port 0, read, closed.
    static func freePort() throws -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) } }
        try #require(bound == 0)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        try #require(named == 0)
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// A consentd (SQLite, the test keys) on a free port, listening unless `listening` is false
    /// (``Session/start()`` then starts it); stopped and closed after `body`, whatever happens.
    static func withConsentd(listening: Bool = true, _ body: (Session) async throws -> Void) async throws {
        let port = try freePort()
        let session = Session(server: try await TestServer.make { $0.port = port }, port: port)
        if listening { try await session.start() }
        do {
            try await body(session)
        } catch {
            await session.stop()
            throw error
        }
        await session.stop()
    }

    final class Session: Sendable {
        let server: TestServer
        let port: Int
        private let running = Guarded<Task<Void, any Error>?>(nil)
        init(server: TestServer, port: Int) {
            self.server = server
            self.port = port
        }
        func start() async throws {
            let task = try await SyncLiveTests.run(server, port: port)
            running.withLock { $0 = task }
        }
        func stop() async {
            if let task = running.withLock({ $0 }) {
                task.cancel()
                _ = await task.result
            }
            await server.consentd.close()
        }
    }

    /// Runs consentd on its port until the returned task is cancelled; returns once it listens.
    static func run(_ server: TestServer, port: Int) async throws -> Task<Void, any Error> {
        let listening = AsyncStream<Void>.makeStream()
        let consentd = server.consentd
        let task = Task {
            let app = consentd.application { _ in listening.continuation.yield() }
            try await app.runService(gracefulShutdownSignals: [])
        }
        for await _ in listening.stream { break }
        return task
    }

    /// The secret key's view: GET a path as JSON.
    static func get(_ path: String, port: Int, secret: String) async throws -> (Int, Any?) {
        let response = try await URLSessionHTTPTransport().send(TransportRequest(
            url: URL(string: "http://127.0.0.1:\(port)\(path)")!, headers: ["Authorization": "Bearer \(secret)"]))
        return (response.status, try? JSONSerialization.jsonObject(with: response.body))
    }

    /// A session token for `subjectId`, minted with the secret key as the app's backend does.
    /// A fresh signed-in user id and the backend's token provider for it (mints through
    /// `POST /v1/subjects/{id}/tokens` with the secret key).
    static func newUser(port: Int, secret: String) -> (String, @Sendable () async throws -> String) {
        let user = "user-\(UUID().uuidString.prefix(8))"
        return (user, { try await mintToken(user, port: port, secret: secret) })
    }

    static func mintToken(_ subjectId: String, port: Int, secret: String, ttl: Int = 900) async throws -> String {
        let response = try await URLSessionHTTPTransport().send(TransportRequest(
            url: URL(string: "http://127.0.0.1:\(port)/v1/subjects/\(subjectId)/tokens")!, method: "POST",
            headers: ["Authorization": "Bearer \(secret)", "Content-Type": "application/json"], body: Data(#"{"ttlSeconds": \#(ttl)}"#.utf8)))
        let object = try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any])
        return try #require(object["token"] as? String)
    }

    /// Every event id consentd holds for `subjectId`, oldest first (following the cursor).
    static func eventIds(_ subjectId: String, port: Int, secret: String) async throws -> [String] {
        var ids: [String] = []
        var cursor: String?
        repeat {
            let query = "limit=100" + (cursor.map { "&cursor=\($0)" } ?? "")
            let (status, body) = try await get("/v1/subjects/\(subjectId)/events?\(query)", port: port, secret: secret)
            try #require(status == 200)
            let page = try #require(body as? [String: Any])
            let events = try #require(page["events"] as? [[String: Any]])
            ids += events.compactMap { $0["eventId"] as? String }
            cursor = page["nextCursor"] as? String
        } while cursor != nil
        return ids
    }

    @Test("one user on two devices: A's choice reaches B at its next start; a reinstall gets it back without asking")
    func twoDevicesAndReinstall() async throws {
        try await Self.withConsentd { session in
            let (server, port) = (session.server, session.port)
            let clock = Clock()
            let user = "user-\(UUID().uuidString.prefix(8))"

            let a = await Device(port: port, publishable: server.publishable, clock: clock).started()
            try a.manager.identify(userId: user, token: try await Self.mintToken(user, port: port, secret: server.secret))
            _ = await a.manager.syncNow()
            try a.manager.agreeToAll()
            let afterA = try #require(await a.manager.syncNow())
            #expect(afterA.pending == 0 && afterA.lastError == nil)

            clock.advance(60)
            let b = await Device(port: port, publishable: server.publishable, clock: clock).started()
            #expect(b.manager.shouldAsk)
            try b.manager.identify(userId: user, token: try await Self.mintToken(user, port: port, secret: server.secret))
            _ = await b.manager.syncNow()
            #expect(b.manager.consent?.purposeConsents == a.manager.consent?.purposeConsents)
            #expect(b.manager.consent?.vendorConsents == [1, 21, 755])
            #expect(!b.manager.shouldAsk)
            #expect(b.events.withLock { $0 }.contains { if case .remoteConsentApplied = $0 { true } else { false } })
            #expect(b.store.value(forKey: "IABTCF_TCString") == a.store.value(forKey: "IABTCF_TCString"))
            // B applied a remote state: it sends nothing back.
            #expect(b.manager.syncStatus?.pending == 0)
            #expect(try await Self.eventIds(user, port: port, secret: server.secret).count == 1)

            // A reinstall: new store, new folder, same user.
            let reinstalled = await Device(port: port, publishable: server.publishable, clock: clock).started()
            try reinstalled.manager.identify(userId: user, tokens: { try await Self.mintToken(user, port: port, secret: server.secret) })
            _ = await reinstalled.manager.syncNow()
            #expect(!reinstalled.manager.shouldAsk)
            #expect(reinstalled.manager.consent?.purposeConsents == a.manager.consent?.purposeConsents)
            #expect(try await Self.eventIds(user, port: port, secret: server.secret).count == 1)
        }
    }

    @Test("0035: A's TCF decision and its later US choice both reach B through consentd, each as its own kind; B's newer TCF decision leaves the US choice")
    func usChoiceBesideTheDecision() async throws {
        try await Self.withConsentd { session in
            let (server, port) = (session.server, session.port)
            let clock = Clock()
            let user = "user-\(UUID().uuidString.prefix(8))"
            let a = await Device(port: port, publishable: server.publishable, clock: clock).started()
            try a.manager.identify(userId: user, token: try await Self.mintToken(user, port: port, secret: server.secret))
            _ = await a.manager.syncNow()
            try a.manager.agreeToAll()
            clock.advance(10)
            let choice = USPrivacyChoice(saleOptOut: true, sharingOptOut: false, targetedAdvertisingOptOut: true, sensitiveDataLimited: false,
                                         noticeVersion: 4, language: "en", decided: clock.now)
            try a.manager.recordUSChoice(choice, method: .rejectAll)
            let afterA = try #require(await a.manager.syncNow())
            #expect(afterA.pending == 0 && afterA.deadLettered == 0 && afterA.lastError == nil)

            clock.advance(60)
            let b = await Device(port: port, publishable: server.publishable, clock: clock).started()
            try b.manager.identify(userId: user, token: try await Self.mintToken(user, port: port, secret: server.secret))
            _ = await b.manager.syncNow()
            #expect(b.manager.usPrivacyChoice == choice)
            #expect(b.manager.consent?.purposeConsents == a.manager.consent?.purposeConsents)
            #expect(b.manager.syncStatus?.pending == 0)

            clock.advance(60)
            try b.manager.disagreeToAll()
            _ = await b.manager.syncNow()
            _ = await a.manager.syncNow()
            #expect(a.manager.consent?.purposeConsents.isEmpty == true)
            #expect(a.manager.usPrivacyChoice == choice)
            #expect(try await Self.eventIds(user, port: port, secret: server.secret).count == 3)
        }
    }

    @Test("002-12: device A decides; device B runs exactly the Getting Started launch snippet (start, identify, refreshed) and is not asked")
    func newDeviceFollowingTheSnippetIsNotAsked() async throws {
        try await Self.withConsentd { session in
            let (server, port) = (session.server, session.port)
            let clock = Clock()
            let (user, tokens) = SyncLiveTests.newUser(port: port, secret: server.secret)

            let a = await Device(port: port, publishable: server.publishable, clock: clock).started()
            try a.manager.identify(userId: user, tokens: tokens)
            try a.manager.agreeToAll()
            #expect(await a.manager.syncNow()?.pending == 0)

            clock.advance(60)
            // The bound is raised from 1.5 s so that a loaded test machine cannot make the merge
            // miss it (the bound itself is SyncManagerTests' "002-12: the wait is bounded").
            let b = Device(port: port, publishable: server.publishable, clock: clock, firstMergeTimeout: 20)
            // B's backend takes 300 ms to mint a token: the merge cannot finish within the refresh,
            // so only the wait for it keeps B from asking.
            let consentToken: @Sendable () async throws -> String = {
                try await Task.sleep(nanoseconds: 300_000_000)
                return try await tokens()
            }
            // The launch snippet of GettingStarted.md, line for line (signed in), and nothing else:
            // no syncNow().
            let consent = b.manager
            let signedInUserId: String? = user
            consent.start()
            if let userId = signedInUserId {
                try consent.identify(userId: userId, tokens: consentToken)
            }
            await consent.refreshed()
            #expect(!consent.shouldAsk)
            #expect(consent.consent?.purposeConsents == a.manager.consent?.purposeConsents)
            #expect(b.store.value(forKey: "IABTCF_TCString") == a.store.value(forKey: "IABTCF_TCString"))
        }
    }

    @Test("002-11: A clears its decision; consentd then holds no decision, and B, which held it, forgets it at its next merge")
    func clearedOnOneDeviceIsClearedOnTheOther() async throws {
        try await Self.withConsentd { session in
            let (server, port) = (session.server, session.port)
            let clock = Clock()
            let (user, tokens) = SyncLiveTests.newUser(port: port, secret: server.secret)
            let a = await Device(port: port, publishable: server.publishable, clock: clock).started()
            try a.manager.identify(userId: user, tokens: tokens)
            try a.manager.agreeToAll()
            _ = await a.manager.syncNow()
            let b = await Device(port: port, publishable: server.publishable, clock: clock).started()
            try b.manager.identify(userId: user, tokens: tokens)
            _ = await b.manager.syncNow()
            try #require(b.manager.consent != nil && !b.manager.shouldAsk)

            clock.advance(30)
            a.manager.clearDecision()
            #expect(await a.manager.syncNow()?.pending == 0)
            let (status, body) = try await Self.get("/v1/subjects/\(user)", port: port, secret: server.secret)
            #expect(status == 200)
            let consent = try #require((body as? [String: Any])?["consent"] as? [String: Any])
            #expect(Set(consent.keys) == ["proof"])
            #expect((consent["proof"] as? [String: Any])?["method"] as? String == "withdrawal")

            _ = await b.manager.syncNow()
            #expect(b.manager.consent == nil)
            #expect(b.store.value(forKey: "IABTCF_TCString") == nil)
            #expect(b.manager.shouldAsk)
            #expect(b.events.withLock { $0 }.contains(.remoteConsentApplied(nil)))
            // B forgot a remote state: it sends nothing back, and A's next merge changes nothing.
            #expect(b.manager.syncStatus?.pending == 0)
            _ = await a.manager.syncNow()
            #expect(a.manager.consent == nil)
            #expect(try await Self.eventIds(user, port: port, secret: server.secret).count == 2)
        }
    }

    @Test("002-11: a decision B made before A's withdrawal but sent after it stays history, and B forgets it too")
    func olderDecisionSentAfterTheWithdrawalLoses() async throws {
        try await Self.withConsentd { session in
            let (server, port) = (session.server, session.port)
            let clock = Clock()
            let (user, tokens) = SyncLiveTests.newUser(port: port, secret: server.secret)
            let a = await Device(port: port, publishable: server.publishable, clock: clock).started()
            try a.manager.identify(userId: user, tokens: tokens)
            try a.manager.agreeToAll()
            _ = await a.manager.syncNow()
            // B decides at +10 s, offline: its event waits in the outbox (backoff 30 s).
            let b = await Device(port: port, publishable: server.publishable, clock: clock,
                                 transport: FaultyTransport(faults: [.init(status: 503)])).started()
            try b.manager.identify(userId: user, tokens: tokens)
            clock.advance(10)
            try b.manager.disagreeToAll()
            _ = await b.manager.syncNow()
            try #require(b.manager.syncStatus?.pending == 1)
            // A takes its decision back at +30 s.
            clock.advance(20)
            a.manager.clearDecision()
            #expect(await a.manager.syncNow()?.pending == 0)
            // B's older decision arrives now: history; B follows the withdrawal.
            clock.advance(60)
            let synced = await b.manager.syncNow()
            #expect(synced?.pending == 0)
            #expect(b.manager.consent == nil)
            let (_, body) = try await Self.get("/v1/subjects/\(user)", port: port, secret: server.secret)
            #expect(((body as? [String: Any])?["consent"] as? [String: Any])?["proof"].flatMap { ($0 as? [String: Any])?["method"] as? String } == "withdrawal")
            #expect(try await Self.eventIds(user, port: port, secret: server.secret).count == 3)
        }
    }

    @Test("002-11: A tags the user under age; consentd holds no decision (method underAge), and B's consent goes at its next merge")
    func underAgeOnOneDeviceWithdrawsOnTheOther() async throws {
        try await Self.withConsentd { session in
            let (server, port) = (session.server, session.port)
            let clock = Clock()
            let (user, tokens) = SyncLiveTests.newUser(port: port, secret: server.secret)
            let a = await Device(port: port, publishable: server.publishable, clock: clock).started()
            try a.manager.identify(userId: user, tokens: tokens)
            try a.manager.agreeToAll()
            _ = await a.manager.syncNow()
            let b = await Device(port: port, publishable: server.publishable, clock: clock).started()
            try b.manager.identify(userId: user, tokens: tokens)
            _ = await b.manager.syncNow()
            try #require(b.manager.consent?.vendorConsents == [1, 21, 755])

            clock.advance(30)
            a.manager.setTagForUnderAgeOfConsent(true)
            #expect(await a.manager.syncNow()?.pending == 0)
            let (_, body) = try await Self.get("/v1/subjects/\(user)", port: port, secret: server.secret)
            let consent = try #require((body as? [String: Any])?["consent"] as? [String: Any])
            #expect(Set(consent.keys) == ["proof"])
            #expect((consent["proof"] as? [String: Any])?["method"] as? String == "underAge")
            #expect(a.manager.consent?.vendorConsents.isEmpty == true)

            _ = await b.manager.syncNow()
            #expect(b.manager.consent == nil)
            #expect(b.store.value(forKey: "IABTCF_VendorConsents") == nil)
        }
    }

    @Test("a choice made before signing in goes to the user's subject at identify, with its own time and proof")
    func choiceBeforeSignIn() async throws {
        try await Self.withConsentd { session in
            let (server, port) = (session.server, session.port)
            let device = await Device(port: port, publishable: server.publishable, clock: Clock()).started()
            try device.manager.agreeToAll()
            let anonymous = try #require(await device.manager.syncNow())
            let installationSubject = try #require(anonymous.subjectId)
            #expect(try await Self.eventIds(installationSubject, port: port, secret: server.secret).count == 1)
            let user = "user-\(UUID().uuidString.prefix(8))"
            try device.manager.identify(userId: user, token: try await Self.mintToken(user, port: port, secret: server.secret))
            let identified = try #require(await device.manager.syncNow())
            #expect(identified.pending == 0 && identified.subjectId == user, "\(identified)")
            let (status, body) = try await Self.get("/v1/subjects/\(user)", port: port, secret: server.secret)
            #expect(status == 200)
            let current = try #require(body as? [String: Any])
            let consent = try #require(current["consent"] as? [String: Any])
            #expect((consent["proof"] as? [String: Any])?["method"] as? String == "acceptAll")
            #expect(consent["tcString"] as? String == device.store.value(forKey: "IABTCF_TCString")?.string)
            let (_, installation) = try await Self.get("/v1/subjects/\(installationSubject)", port: port, secret: server.secret)
            #expect((installation as? [String: Any])?["collectedAt"] as? String == current["collectedAt"] as? String)
            // A second sync sends nothing again.
            _ = await device.manager.syncNow()
            #expect(try await Self.eventIds(user, port: port, secret: server.secret).count == 1)
        }
    }

    @Test("both devices decide at the same moment, synced in either order: A, B and consentd end on one winner",
          arguments: [false, true])
    func concurrentDecisionsConverge(bFirst: Bool) async throws {
        try await Self.withConsentd { session in
            let (server, port) = (session.server, session.port)
            let clock = Clock()
            let user = "user-\(UUID().uuidString.prefix(8))"
            let a = await Device(port: port, publishable: server.publishable, clock: clock).started()
            let b = await Device(port: port, publishable: server.publishable, clock: clock).started()
            for device in [a, b] {
                try device.manager.identify(userId: user, token: try await Self.mintToken(user, port: port, secret: server.secret))
                _ = await device.manager.syncNow()
            }
            // The same millisecond on both: consentd breaks the tie by event id.
            try a.manager.agreeToAll()
            try b.manager.disagreeToAll()
            let order = bFirst ? [b, a, b, a] : [a, b, a, b]
            for device in order { _ = await device.manager.syncNow() }
            let (status, body) = try await Self.get("/v1/subjects/\(user)", port: port, secret: server.secret)
            #expect(status == 200)
            let current = try #require(body as? [String: Any])
            let consent = try #require(current["consent"] as? [String: Any])
            let winner = try #require(consent["tcString"] as? String)
            #expect(a.store.value(forKey: "IABTCF_TCString")?.string == winner)
            #expect(b.store.value(forKey: "IABTCF_TCString")?.string == winner)
            #expect(a.manager.consent == b.manager.consent)
            #expect(try await Self.eventIds(user, port: port, secret: server.secret).count == 2)
        }
    }

    @Test("consentd stopped while 200 decisions are made, then started: every event arrives once, in order, and the chain holds")
    func stoppedServerThenStarted() async throws {
        try await Self.withConsentd(listening: false) { session in
            let (server, port) = (session.server, session.port)
            let clock = Clock()
            let transport = FaultyTransport()
            let device = await Device(port: port, publishable: server.publishable, clock: clock, transport: transport).started()
            for index in 0..<200 {
                clock.advance(1)
                if index.isMultiple(of: 2) { try device.manager.agreeToAll() } else { try device.manager.disagreeToAll() }
            }
            let offline = try #require(await device.manager.syncNow())
            #expect(offline.pending == 200)
            if case .unavailable? = offline.lastError {} else { Issue.record("expected unavailable, got \(String(describing: offline.lastError))") }
            // The outbox's order is the order the decisions were made in.
            let local = try Self.outboxEventIds(device.folder)
            #expect(local.count == 200)

            try await session.start()
            let postsOffline = transport.posts.withLock { $0 }
            let online = try #require(await device.manager.syncNow())
            // The first event creates the subject; the other 199 go in batches of 100.
            #expect(transport.posts.withLock { $0 } - postsOffline == 3)
            #expect(online.pending == 0)
            #expect(online.lastError == nil)
            let subject = try #require(online.subjectId)
            #expect(subject.hasPrefix("sub_"))
            let stored = try await Self.eventIds(subject, port: port, secret: server.secret)
            #expect(stored == local)
            #expect(Set(stored).count == 200)
            // A second drain sends nothing again.
            _ = await device.manager.syncNow()
            #expect(try await Self.eventIds(subject, port: port, secret: server.secret).count == 200)
            let (status, body) = try await Self.get("/v1/chain/verify", port: port, secret: server.secret)
            #expect(status == 200)
            #expect((body as? [String: Any])?["valid"] as? Bool == true)
            // consentd's current state is the last decision (a reject).
            let (_, current) = try await Self.get("/v1/subjects/\(subject)", port: port, secret: server.secret)
            #expect((current as? [String: Any])?["eventId"] as? String == local.last)
        }
    }

    @Test("503 and 429 with Retry-After: the event waits that long, then arrives once")
    func throttled() async throws {
        try await Self.withConsentd { session in
            let (server, port) = (session.server, session.port)
            let transport = FaultyTransport(faults: [.init(status: 503, retryAfter: "1"), .init(status: 429, retryAfter: "1")])
            // The sync's time is the device's clock, which only the test moves.
            let clock = Clock()
            let device = await Device(port: port, publishable: server.publishable, clock: clock, transport: transport).started()
            try device.manager.agreeToAll()
            let first = try #require(await device.manager.syncNow())
            #expect(first.pending == 1)
            #expect(first.lastError == .throttled(status: 503, retryAfter: 1))
            let postsBefore = transport.posts.withLock { $0 }
            // Inside the Retry-After, syncNow sends nothing.
            _ = await device.manager.syncNow()
            #expect(transport.posts.withLock { $0 } == postsBefore)
            var status = first
            for _ in 0..<10 where status.pending > 0 {
                clock.advance(1.2)
                status = try #require(await device.manager.syncNow())
            }
            #expect(status.pending == 0)
            #expect(transport.posts.withLock { $0 } == 3)
            let subject = try #require(status.subjectId)
            #expect(try await Self.eventIds(subject, port: port, secret: server.secret).count == 1)
        }
    }

    @Test("a Retry-After of three thousand years is held to the longest backoff, and nothing crashes")
    func absurdRetryAfter() async throws {
        try await Self.withConsentd { session in
            let (server, port) = (session.server, session.port)
            let transport = FaultyTransport(faults: [.init(status: 429, retryAfter: "99999999999")])
            let clock = Clock()
            let device = await Device(port: port, publishable: server.publishable, clock: clock, transport: transport).started()
            try device.manager.agreeToAll()
            let status = try #require(await device.manager.syncNow())
            #expect(status.pending == 1)
            #expect(status.lastError == .throttled(status: 429, retryAfter: 600))
            let due = try #require(status.nextAttempt)
            let wait = due.timeIntervalSince(clock.now)
            #expect(wait >= 600 - 0.001 && wait <= 600 + 0.001, "the next attempt is \(wait) s away")
        }
    }

    @Test("a token provider given after a token replaces it: the provider's tokens are used")
    func providerReplacesToken() async throws {
        try await Self.withConsentd { session in
            let (server, port) = (session.server, session.port)
            let device = await Device(port: port, publishable: server.publishable, clock: Clock()).started()
            let user = "user-\(UUID().uuidString.prefix(8))"
            try device.manager.identify(userId: user, token: try await Self.mintToken("someone-else", port: port, secret: server.secret))
            try device.manager.identify(userId: user, tokens: { try await Self.mintToken(user, port: port, secret: server.secret) })
            try device.manager.agreeToAll()
            let status = try #require(await device.manager.syncNow())
            #expect(status.pending == 0, "\(status)")
            #expect(try await Self.eventIds(user, port: port, secret: server.secret).count == 1)
        }
    }

    @Test("contract errors go to the dead-letter file and are reported: a clock 1 h ahead (400 collectedAt), a string consentd cannot decode (422)")
    func deadLetters() async throws {
        try await Self.withConsentd { session in
            let (server, port) = (session.server, session.port)
            // The device clock is an hour ahead of consentd's.
            let clock = Clock()
            clock.set(Date().addingTimeInterval(3_600))
            let ahead = await Device(port: port, publishable: server.publishable, clock: clock).started()
            try ahead.manager.agreeToAll()
            let status = try #require(await ahead.manager.syncNow())
            #expect(status.pending == 0 && status.deadLettered == 1)
            let dead = try #require(ahead.manager.deadLetteredEvents.first)
            #expect(dead.status == 400 && dead.error.field == "collectedAt")
            #expect(ahead.events.withLock { $0 }.contains {
                if case .error(.sync(.eventRejected(_, 400, _, _, "collectedAt"))) = $0 { true } else { false }
            })

            let breaking = FaultyTransport(rewrite: { body in
                Data(String(decoding: body, as: UTF8.self).replacingOccurrences(of: #""tcString":""#, with: #""tcString":"X"#).utf8)
            })
            let mangled = await Device(port: port, publishable: server.publishable, clock: Clock(), transport: breaking).started()
            try mangled.manager.agreeToAll()
            let after = try #require(await mangled.manager.syncNow())
            #expect(after.pending == 0 && after.deadLettered == 1, "\(after)")
            #expect(mangled.manager.deadLetteredEvents.first?.status == 422)
            // The decision on the device stands.
            #expect(!mangled.manager.shouldAsk)
        }
    }

    @Test("a wrong token is reported and loses nothing; a good one then sends the event")
    func wrongToken() async throws {
        try await Self.withConsentd { session in
            let (server, port) = (session.server, session.port)
            let device = await Device(port: port, publishable: server.publishable, clock: Clock()).started()
            let user = "user-\(UUID().uuidString.prefix(8))"
            try device.manager.identify(userId: user, token: "ckt_not.a-token")
            try device.manager.agreeToAll()
            let refused = try #require(await device.manager.syncNow())
            #expect(refused.pending == 1)
            if case .credentialRejected? = refused.lastError {} else { Issue.record("expected credentialRejected, got \(String(describing: refused.lastError))") }
            try device.manager.identify(userId: user, token: try await Self.mintToken(user, port: port, secret: server.secret))
            let sent = try #require(await device.manager.syncNow())
            #expect(sent.pending == 0)
            #expect(try await Self.eventIds(user, port: port, secret: server.secret).count == 1)
        }
    }

    @Test("a token the provider gave that consentd refuses is minted again, once, and the event arrives")
    func providerTokenRenewed() async throws {
        try await Self.withConsentd { session in
            let (server, port) = (session.server, session.port)
            let device = await Device(port: port, publishable: server.publishable, clock: Clock()).started()
            let user = "user-\(UUID().uuidString.prefix(8))"
            let calls = Guarded(0)
            // The first token is another subject's (as a stale one from a previous login would be).
            let stale = try await Self.mintToken("someone-else", port: port, secret: server.secret)
            try device.manager.identify(userId: user, tokens: {
                let call = calls.withLock { count -> Int in
                    count += 1
                    return count
                }
                return call == 1 ? stale : try await Self.mintToken(user, port: port, secret: server.secret)
            })
            try device.manager.agreeToAll()
            let status = try #require(await device.manager.syncNow())
            #expect(status.pending == 0, "\(status)")
            #expect(calls.withLock { $0 } == 2)
            #expect(try await Self.eventIds(user, port: port, secret: server.secret).count == 1)
        }
    }

    @Test("a remote decision that never showed a vendor this app discloses: its choices apply, and the ask rules ask about that vendor")
    func remoteFromAnotherVendorSet() async throws {
        try await Self.withConsentd { session in
            let (server, port) = (session.server, session.port)
            let clock = Clock()
            let user = "user-\(UUID().uuidString.prefix(8))"
            // Another app of the publisher, which discloses vendors 1 and 21 only.
            let other = await Device(port: port, publishable: server.publishable, clock: clock, vendorIds: [1, 21]).started()
            try other.manager.identify(userId: user, token: try await Self.mintToken(user, port: port, secret: server.secret))
            try other.manager.agreeToAll()
            _ = await other.manager.syncNow()
            clock.advance(10)
            let this = await Device(port: port, publishable: server.publishable, clock: clock).started()
            try this.manager.identify(userId: user, token: try await Self.mintToken(user, port: port, secret: server.secret))
            _ = await this.manager.syncNow()
            let applied = try #require(this.manager.consent)
            #expect(applied.vendorConsents == [1, 21])
            #expect(applied.disclosedVendors == [1, 21])
            #expect(applied.purposeConsents == other.manager.consent?.purposeConsents)
            #expect(this.manager.askVerdict() == .vendorsAdded([755]))
            // The TC string is this app's: its vendor list, vendor 755 not consented.
            let tcString = try TCString(decoding: try #require(this.store.value(forKey: "IABTCF_TCString")?.string))
            #expect(tcString.vendorConsents == [1, 21])
            #expect(tcString.disclosedVendors == [1, 21])
        }
    }

    @Test("a corrupt outbox is reported and set aside; its readable events are still sent")
    func corruptOutbox() async throws {
        try await Self.withConsentd(listening: false) { session in
            let (server, port) = (session.server, session.port)
            let clock = Clock()
            let first = await Device(port: port, publishable: server.publishable, clock: clock).started()
            try first.manager.agreeToAll()
            clock.advance(5)
            try first.manager.disagreeToAll()
            _ = await first.manager.syncNow()
            // Another launch finds a line that is not JSON between the two entries.
            let file = first.folder.appendingPathComponent("outbox.jsonl")
            let content = try Data(contentsOf: file)
            let end = content.firstIndex(of: 0) ?? content.endIndex
            var lines = content[..<end].split(separator: UInt8(ascii: "\n")).map { Data($0) }
            lines.insert(Data("{not json".utf8), at: 1)
            var rewritten = Data(lines.joined(separator: Data([10]))) + Data([10])
            rewritten += Data(count: max(0, content.count - rewritten.count))
            try rewritten.write(to: file)

            try await session.start()
            let again = await Device(port: port, publishable: server.publishable, clock: clock, store: first.store, folder: first.folder).started()
            let status = try #require(await again.manager.syncNow())
            #expect(again.events.withLock { $0 }.contains { if case .error(.sync(.fileCorrupt(_, 2, _, _))) = $0 { true } else { false } })
            #expect(status.pending == 0)
            let aside = try FileManager.default.contentsOfDirectory(atPath: first.folder.path).filter { $0.hasPrefix("outbox.jsonl.corrupt-") }
            #expect(aside.count == 1)
            let subject = try #require(status.subjectId)
            #expect(try await Self.eventIds(subject, port: port, secret: server.secret).count == 2)
        }
    }

    /// The event ids of the outbox's pending entries, in file order.
    static func outboxEventIds(_ folder: URL) throws -> [String] {
        let content = try Data(contentsOf: folder.appendingPathComponent("outbox.jsonl"))
        let end = content.firstIndex(of: 0) ?? content.endIndex
        var added: [String] = []
        var sent = Set<String>()
        for line in content[..<end].split(separator: UInt8(ascii: "\n")) {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line)) as? [String: Any])
            if let add = object["add"] as? [String: Any], let event = add["event"] as? [String: Any], let id = event["eventId"] as? String { added.append(id) }
            if let ids = object["sent"] as? [String] { sent.formUnion(ids) }
        }
        return added.filter { !sent.contains($0) }
    }
}

/// A value behind a lock, shareable (the SDK's own lock is not visible to this package).
final class Guarded<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>
    init(_ value: Value) { mutex = Mutex(value) }
    func withLock<R: Sendable>(_ body: (inout Value) -> R) -> R { mutex.withLock { body(&$0) } }
}
