// The sync client's benchmark and crash driver (scripts/bench-sync, Server/Tests/e2e/sync_crash_test.py).
//
//   SyncBench enqueue FOLDER URL KEY N   makes N decisions (accept and reject, alternately) with sync
//                                        on, the outbox in FOLDER, consentd at URL unreachable or
//                                        not: prints the median and p99 time of one decision with
//                                        its outbox write, and of one without sync, and the start
//                                        time with those events pending.
//   SyncBench drain FOLDER URL KEY       sends the outbox in FOLDER to consentd at URL (publishable
//                                        key KEY) and prints events/s; `--quiet` prints only the
//                                        subject id and the count sent. Exit 1 when events remain.
//
// The store is a UserDefaults suite named after FOLDER, so a second process (after a kill -9)
// finds the same decision and installation id.
import ConsentKit
import Foundation
import TCF

struct NoNetwork: HTTPTransport {
    func send(_ request: TransportRequest) async throws -> TransportResponse { throw URLError(.notConnectedToInternet) }
}

/// A vendor list that is there from the start.
struct HeldList: VendorListLoading {
    let list: VendorList
    func localVendorList() async -> VendorList? { list }
    func refreshVendorList() async throws -> VendorList? { nil }
}

func milliseconds(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000
}

func percentile(_ values: [Double], _ p: Double) -> Double {
    let sorted = values.sorted()
    return sorted[min(sorted.count - 1, Int(Double(sorted.count - 1) * p))]
}

let arguments = CommandLine.arguments
guard arguments.count >= 5 else {
    FileHandle.standardError.write(Data("usage: SyncBench enqueue FOLDER URL KEY N | drain FOLDER URL KEY [--quiet]\n".utf8))
    exit(2)
}
let folder = URL(fileURLWithPath: arguments[2])
let endpoint = ConsentdEndpoint(baseURL: URL(string: arguments[3])!, publishableKey: arguments[4], publisherIds: ["pub-news"])
// GVL v3 #45 from the repository's Fixtures/.
let list = try VendorList(jsonData: Data(contentsOf: URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fixtures/gvl/gvl-v3_vendor-list-v45_2024-03-21.json")))
let suite = "consentkit-sync-bench-" + folder.path.replacingOccurrences(of: "/", with: "_")

func manager(sync: Bool, transport: any HTTPTransport, store: any KeyValueStore) -> ConsentManager {
    ConsentManager(configuration: ConsentConfiguration(
        consentd: endpoint, cmp: CMPIdentity(cmpId: 300, cmpVersion: 1), store: store, transport: transport, gdprOverride: .applies,
        publisher: PublisherSettings(vendorIds: [1, 21, 755]), noticeVersion: 1, vendorLists: HeldList(list: list), log: .silent,
        sync: sync ? ConsentSyncSettings(directory: folder, initialBackoff: 600) : .disabled))
}

switch arguments[1] {
case "enqueue":
    let count = Int(arguments[5]) ?? 1000
    // Both managers write their keys to memory, so the difference is the outbox's.
    let store = InMemoryKeyValueStore()
    let synced = manager(sync: true, transport: NoNetwork(), store: store)
    synced.start(refreshing: false)
    await synced.refresh()
    let plain = manager(sync: false, transport: NoNetwork(), store: InMemoryKeyValueStore())
    plain.start(refreshing: false)
    await plain.refresh()
    var withOutbox: [Double] = []
    var without: [Double] = []
    var starts: [Int: (synced: Double, plain: Double)] = [:]
    for index in 0..<count {
        withOutbox.append(try milliseconds { index.isMultiple(of: 2) ? try synced.agreeToAll() : try synced.disagreeToAll() })
        without.append(try milliseconds { index.isMultiple(of: 2) ? try plain.agreeToAll() : try plain.disagreeToAll() })
        // start() of a new manager over the same store and outbox with 100 (and, at the end, all)
        // events pending, beside start() without sync over the same store.
        if index + 1 == min(100, count) || index + 1 == count {
            var synced: [Double] = []
            var plain: [Double] = []
            for _ in 0..<50 {
                let fresh = manager(sync: true, transport: NoNetwork(), store: store)
                synced.append(milliseconds { fresh.start(refreshing: false) })
                let unsynced = manager(sync: false, transport: NoNetwork(), store: store)
                plain.append(milliseconds { unsynced.start(refreshing: false) })
            }
            starts[index + 1] = (percentile(synced, 0.5), percentile(plain, 0.5))
        }
    }
    print(String(format: "decision with its outbox write (fdatasync): median %.3f ms, p99 %.3f ms (%d decisions; budget 1 ms median)",
                 percentile(withOutbox, 0.5), percentile(withOutbox, 0.99), count))
    print(String(format: "decision without sync (peer, same run):     median %.3f ms, p99 %.3f ms",
                 percentile(without, 0.5), percentile(without, 0.99)))
    for pending in starts.keys.sorted() {
        print(String(format: "start() with %4d events pending:           median %.3f ms (budget 2 ms with 100); without sync %.3f ms",
                     pending, starts[pending]!.synced, starts[pending]!.plain))
    }
case "drain":
    let quiet = arguments.contains("--quiet")
    let store = UserDefaultsStore(suiteName: suite)!
    let draining = manager(sync: true, transport: URLSessionHTTPTransport(), store: store)
    draining.start(refreshing: false)
    let before = draining.syncStatus?.pending ?? 0
    var status: SyncStatus?
    let elapsed = await {
        let start = DispatchTime.now().uptimeNanoseconds
        // One pass sends everything unless a failure stops it; a few more passes are allowed.
        for _ in 0..<5 {
            status = await draining.syncNow()
            if status?.pending == 0 { break }
        }
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000_000
    }()
    let pending = status?.pending ?? -1
    let sent = before - pending
    if quiet {
        print("\(status?.subjectId ?? "") \(sent)")
    } else {
        print(String(format: "drained %d events in %.2f s: %.0f events/s (%d left, last error: %@)",
                     sent, elapsed, Double(sent) / elapsed, pending, status?.lastError.map { "\($0)" } ?? "none"))
    }
    if arguments.contains("--forget") { UserDefaults.standard.removePersistentDomain(forName: suite) }
    exit(pending == 0 ? 0 : 1)
default:
    FileHandle.standardError.write(Data("unknown mode \(arguments[1])\n".utf8))
    exit(2)
}
