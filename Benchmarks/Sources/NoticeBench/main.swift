// The notice bridge's Swift side (issue 15, §5): how long building the notice's document takes
// for GVL v3 #45 with every vendor (813 shown), and how long applying a result takes (checked
// against the document, decided, recorded through the manager into UserDefaults). Budgets: 5 ms
// and 2 ms. Run with scripts/bench-notice, which then times the page in Chromium with the
// document this writes.
import ConsentKit
import ConsentKitUI
import Foundation
import TCF

/// The notice path must not use the network.
struct NoNetwork: HTTPTransport {
    func send(_ request: TransportRequest) async throws -> TransportResponse {
        fatalError("the notice used the network: \(request.url)")
    }
}

func milliseconds(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
}

nonisolated(unsafe) var overBudget = false

func summary(_ samples: [Double], budget: Double) -> String {
    let sorted = samples.sorted()
    if sorted[sorted.count / 2] > budget { overBudget = true }
    func at(_ q: Double) -> Double { sorted[min(sorted.count - 1, Int(Double(sorted.count) * q))] }
    return String(format: "median %.3f ms  p90 %.3f ms  min %.3f ms  (n=%d)  budget %.0f ms: %@",
                  at(0.5), at(0.9), sorted[0], sorted.count, budget, at(0.5) <= budget ? "within" : "OVER")
}

let arguments = CommandLine.arguments
guard arguments.count >= 3 else {
    print("usage: NoticeBench VENDOR-LIST.json DOCUMENT-OUT.json [ITERATIONS]")
    exit(2)
}
let iterations = arguments.count > 3 ? Int(arguments[3]) ?? 200 : 200
let list = try VendorList(jsonData: Data(contentsOf: URL(fileURLWithPath: arguments[1])))
let suite = "consentkit-notice-bench-\(ProcessInfo.processInfo.processIdentifier)"
defer { UserDefaults.standard.removePersistentDomain(forName: suite) }
let manager = ConsentManager(configuration: ConsentConfiguration(
    consentd: ConsentdEndpoint(baseURL: URL(string: "https://consent.invalid")!, publishableKey: "ck_pub_x_y", publisherIds: ["p"]),
    cmp: CMPIdentity(cmpId: 300, cmpVersion: 1), store: UserDefaultsStore(suiteName: suite)!, transport: NoNetwork(),
    gdprOverride: .applies, publisher: PublisherSettings(vendorIds: IDSet(validIds: list.vendors.keys)), noticeVersion: 1,
    sync: .disabled))
manager.start(refreshing: false)
manager.hold(list)
let settings = NoticeSettings(publisherName: "Bench News", privacyPolicyURL: URL(string: "https://bench.example/privacy"))
let request = NoticeRequest(reason: .noDecision, allowsDismissal: false)

// 1. The document: the scope, every vendor's entry, the texts, encoded as the page takes it.
var session = try NoticeSession(manager: manager, settings: settings, request: request)
try Data(session.documentJSON.utf8).write(to: URL(fileURLWithPath: arguments[2]))
print("document: \(session.document.vendors.count) vendors, \(session.documentJSON.utf8.count) bytes of JSON -> \(arguments[2])")
// The peer, interleaved with the builds so that both see the same machine (its speed drifts by
// up to 2x between phases of a run): Foundation's JSONEncoder encoding the same document alone.
var builds: [Double] = []
var peer: [Double] = []
let encoder = JSONEncoder()
for _ in 0..<iterations {
    builds.append(try milliseconds { session = try NoticeSession(manager: manager, settings: settings, request: request) })
    peer.append(try milliseconds { _ = try encoder.encode(session.document) })
}
print("build the document (813 vendors):           " + summary(builds, budget: 5))
print("  peer: JSONEncoder on that document alone: " + summary(peer, budget: .infinity).replacingOccurrences(of: "  budget inf ms: within", with: "")
      + String(format: "  (build / peer: %.2f)", builds.sorted()[builds.count / 2] / peer.sorted()[peer.count / 2]))

// 2. A result applied: decoded, checked against the document, decided, recorded (keys written).
let acceptAll = Data(#"{"protocol":1,"type":"result","action":"acceptAll","layer":1,"language":"en","noticeVersion":1}"#.utf8)
let vendorIds = session.document.vendors.map(\.id)
let chosen = vendorIds.enumerated().filter { $0.offset % 2 == 0 }.map { String($0.element) }.joined(separator: ",")
let save = Data(#"""
    {"protocol":1,"type":"result","action":"save","layer":3,"language":"en","noticeVersion":1,"choices":{"purposeConsents":[1,2,3,4,7,9,10],
     "purposeLegitimateInterests":[2,7],"specialFeatureOptIns":[1],"vendorConsents":[\#(chosen)],"vendorLegitimateInterests":[],"adTechProviderConsents":[]}}
    """#.utf8)
for (name, message) in [("accept all", acceptAll), ("save, 407 vendors chosen", save)] {
    var applies: [Double] = []
    for _ in 0..<iterations {
        applies.append(milliseconds {
            guard case .decided = session.receive(message) else { fatalError("the \(name) result was not recorded") }
        })
    }
    print("apply a result (\(name)):".padding(toLength: 44, withPad: " ", startingAt: 0) + summary(applies, budget: 2))
}
exit(overBudget ? 1 : 0)
