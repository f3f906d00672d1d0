import ConsentKit
import ConsentKitUI
import Foundation
import TCF
import Testing

/// A notice closed without a choice is counted by consentd (`POST /v1/analytics/closed`,
/// docs/decisions/0044) when the sync is on: in the background, with the app's publishable key,
/// naming the notice and never the user; a failure is logged and never reaches the app.
@Suite("A notice closed without a choice is counted by consentd")
struct NoticeClosedCountTests {
    /// consentd's configuration as ``ConfigTransport`` answers it; every other request is kept and
    /// answered `closedStatus`.
    final class Recorder: HTTPTransport, @unchecked Sendable {
        let config = ConfigTransport(vendorIds: Array(Fixtures.twentyVendors))
        let closedStatus: Int
        private let lock = NSLock()
        private var kept: [TransportRequest] = []

        init(closedStatus: Int) { self.closedStatus = closedStatus }

        var requests: [TransportRequest] { lock.withLock { kept } }

        func send(_ request: TransportRequest) async throws -> TransportResponse {
            if request.url.path.hasSuffix("/v1/config") { return try await config.send(request) }
            lock.withLock { kept.append(request) }
            return TransportResponse(status: closedStatus, body: closedStatus == 204 ? Data() : Data(#"{"error":{"code":"server_busy","message":"busy"}}"#.utf8))
        }
    }

    /// Messages a manager logged.
    final class Lines: @unchecked Sendable {
        private let lock = NSLock()
        private var kept: [(ConsentLog.Level, String)] = []
        var log: ConsentLog { ConsentLog { level, message in self.lock.withLock { self.kept.append((level, message)) } } }
        var warnings: [String] { lock.withLock { kept.filter { $0.0 == .warning }.map(\.1) } }
    }

    /// A started manager whose sync is on (its folder under a fresh temporary directory).
    static func manager(_ transport: Recorder, log: ConsentLog = .silent) async -> ConsentManager {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("closed-count-\(UUID().uuidString)")
        let manager = ConsentManager(configuration: ConsentConfiguration(
            consentd: ConsentdEndpoint(baseURL: URL(string: "https://consent.example.com")!, publishableKey: "ck_pub_k_s", publisherIds: ["pub-1"]),
            cmp: noticeCMP, store: InMemoryKeyValueStore(), transport: transport, noticeVersion: 3, consentLanguage: "EN",
            vendorLists: FixedList(list: Fixtures.v3v45), log: log, now: { noticeDate },
            sync: ConsentSyncSettings(directory: folder.appendingPathComponent("sync"), platform: .android)))
        manager.start(refreshing: false)
        await manager.refresh()
        return manager
    }

    /// The requests to `/v1/analytics/closed` once one came (or none after 10 s).
    static func closes(_ transport: Recorder) async throws -> [TransportRequest] {
        for _ in 0..<200 {
            let found = transport.requests.filter { $0.url.path == "/v1/analytics/closed" }
            if !found.isEmpty { return found }
            try await Task.sleep(nanoseconds: 50_000_000)
        }
        return []
    }

    @Test("dismissed: one POST /v1/analytics/closed with the publishable key, the notice's version, language and platform, and nothing recorded")
    func dismissedIsCounted() async throws {
        let transport = Recorder(closedStatus: 204)
        let manager = await Self.manager(transport)
        let session = try NoticeSession(manager: manager, settings: publisherSettings,
                                        request: NoticeRequest(reason: .noDecision, allowsDismissal: true))
        #expect(session.receive(resultJSON("dismissed")) == .dismissed)
        let closes = try await Self.closes(transport)
        #expect(closes.count == 1)
        let request = try #require(closes.first)
        #expect(request.method == "POST" && request.headers["Authorization"] == "Bearer ck_pub_k_s")
        let body = try #require(try JSONSerialization.jsonObject(with: request.body ?? Data()) as? [String: String])
        // The manager's clock's time, to the millisecond; no subject.
        #expect(body == ["noticeVersion": "3", "language": "en", "platform": "android", "closedAt": "2026-03-04T05:06:07.890Z"])
        #expect(manager.consent == nil)
    }

    @Test("sync off: nothing is sent")
    func syncOffSendsNothing() async throws {
        let manager = await noticeManager()
        #expect(manager.noticeClosedWithoutChoice(noticeVersion: 3, language: "en") == nil)
    }

    @Test("a refusal is logged as a warning, never thrown to the app")
    func refusalIsLogged() async throws {
        let transport = Recorder(closedStatus: 503)
        let lines = Lines()
        let manager = await Self.manager(transport, log: lines.log)
        let task = try #require(manager.noticeClosedWithoutChoice(noticeVersion: 3, language: "de"))
        await task.value
        #expect(lines.warnings.contains { $0.contains("v1/analytics/closed") && $0.contains("503") && $0.contains("not counted") },
                "\(lines.warnings)")
    }
}
