// ConsentKit's start-path benchmark (issue 4, §7): how long `start()` takes to publish the
// CMP-present keys and restore a stored decision covering 800+ vendors from UserDefaults, and
// how long writing every key of such a decision takes. Run with scripts/bench-cmp.
import ConsentKit
import Foundation
import TCF

/// An HTTP client that stops the benchmark if anything calls it: the start path must not.
struct NoNetwork: HTTPTransport {
    func send(_ request: TransportRequest) async throws -> TransportResponse {
        fatalError("the start path used the network: \(request.url)")
    }
}

func milliseconds(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
}

func summary(_ samples: [Double]) -> String {
    let sorted = samples.sorted()
    func at(_ q: Double) -> Double { sorted[min(sorted.count - 1, Int(Double(sorted.count) * q))] }
    return String(format: "median %.3f ms  p90 %.3f ms  min %.3f ms  max %.3f ms  (n=%d)", at(0.5), at(0.9), sorted[0], sorted.last!, sorted.count)
}

let arguments = CommandLine.arguments
let cmp = CMPIdentity(cmpId: 300, cmpVersion: 1)
func configuration(_ store: any KeyValueStore, vendors: IDSet? = nil) -> ConsentConfiguration {
    ConsentConfiguration(
        consentd: ConsentdEndpoint(baseURL: URL(string: "https://consent.invalid")!, publishableKey: "ck_pub_x_y", publisherIds: ["p"]),
        cmp: cmp, store: store, transport: NoNetwork(), gdprOverride: .applies, publisher: PublisherSettings(vendorIds: vendors),
        sync: .disabled)
}

// `--start-once SUITE`: in a fresh process, the time UserDefaults takes to open the suite and
// load it from disk (what any first read pays, ConsentKit or not), then the time of start().
// The main run starts this mode as child processes.
if arguments.count == 3, arguments[1] == "--start-once" {
    var store: UserDefaultsStore?
    let open = milliseconds {
        store = UserDefaultsStore(suiteName: arguments[2])
        _ = store?.defaults.object(forKey: "AnAppsOwnSetting")
    }
    let manager = ConsentManager(configuration: configuration(store!))
    let start = milliseconds { manager.start(refreshing: false) }
    precondition(manager.consent != nil, "start did not restore the decision")
    print(open, start)
    exit(0)
}

guard arguments.count >= 2 else {
    print("usage: ConsentKitBench VENDOR-LIST.json [ITERATIONS]")
    exit(2)
}
let iterations = arguments.count > 2 ? Int(arguments[2]) ?? 200 : 200
let list = try VendorList(jsonData: Data(contentsOf: URL(fileURLWithPath: arguments[1])))
let suite = "consentkit-bench-\(ProcessInfo.processInfo.processIdentifier)"
defer { UserDefaults.standard.removePersistentDomain(forName: suite) }

// A decision covering every vendor of the list, written once through a manager.
let writer = ConsentManager(configuration: configuration(UserDefaultsStore(suiteName: suite)!, vendors: IDSet(validIds: list.vendors.keys)))
writer.start(refreshing: false)
writer.hold(list)
try writer.agreeToAll()
let decision = writer.consent!
print("decision: \(decision.disclosedVendors.count) vendors disclosed, \(decision.vendorConsents.count) with consent, "
      + "\(decision.vendorLegitimateInterests.count) with legitimate interest; TC string \(try decision.tcString(cmp: cmp).encoded().utf8.count) characters")
UserDefaults(suiteName: suite)!.synchronize()

// 1. start(): CMP-present keys written and the stored decision restored.
var starts: [Double] = []
var first = 0.0
for iteration in 0..<iterations {
    let store = UserDefaultsStore(suiteName: suite)!
    let manager = ConsentManager(configuration: configuration(store))
    let time = milliseconds { manager.start(refreshing: false) }
    precondition(manager.consent == decision, "start did not restore the decision")
    if iteration == 0 { first = time } else { starts.append(time) }
}
print(String(format: "start() first in this process: %.3f ms", first))

// 1b. start() in a fresh process each time, after UserDefaults has loaded the suite from disk.
var coldStarts: [Double] = []
var opens: [Double] = []
for _ in 0..<20 {
    let child = Process()
    child.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
    child.arguments = ["--start-once", suite]
    let output = Pipe()
    child.standardOutput = output
    try child.run()
    child.waitUntilExit()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    let times = text.split(separator: " ").compactMap { Double($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    guard child.terminationStatus == 0, times.count == 2 else { fatalError("the --start-once child failed: \(text)") }
    opens.append(times[0])
    coldStarts.append(times[1])
}
print("UserDefaults opening the suite:      " + summary(opens) + "  (fresh process, before start)")
print("start() in a fresh process:          " + summary(coldStarts))
print("both, per fresh process:             " + summary(zip(opens, coldStarts).map(+)))
print("start() restore + CMP-present keys:  " + summary(starts))

// 2. Every key of the decision written (IAB v2 keys; v1 and v2 together below), UserDefaults.
let store = UserDefaultsStore(suiteName: suite)!
for generations in [IABKeyGenerations.version2, .all] {
    var writes: [Double] = []
    for _ in 0..<iterations {
        writes.append(try milliseconds {
            store.write(try IABKeyValues.values(for: decision, gdprApplies: .applies, cmp: cmp, generations: generations))
        })
    }
    print("write all keys (\(generations == .all ? "v1 + v2" : "v2     ")):        " + summary(writes))
}

// 3. A whole decision through the manager: accept all for the scope, encode, write, notify.
var decisions: [Double] = []
for _ in 0..<iterations {
    decisions.append(try milliseconds { try writer.agreeToAll() })
}
print("agreeToAll() end to end:             " + summary(decisions))
