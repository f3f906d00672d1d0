import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TCF
import Testing
@testable import ConsentKit

/// An ``HTTPTransport`` that answers from a script, in order, and records every request. A request
/// past the end of the script fails with ``Unscripted``, so an unexpected request shows up;
/// ``forbidden`` fails the test on any request.
final class ScriptedTransport: HTTPTransport {
    /// One scripted answer.
    enum Step: Sendable {
        /// Answer with this response.
        case respond(TransportResponse)
        /// Throw this error, as a transport failure would.
        case fail(any Error)
        /// Answer with what this makes of the request (as a server answers from what it was sent).
        case answer(@Sendable (TransportRequest) -> TransportResponse)
    }

    /// A request the script has no answer for.
    struct Unscripted: Error {
        let url: URL
    }

    private let script: Locked<(steps: [Step], requests: [TransportRequest])>
    private let otherwise: Step?
    private let gate: Gate?
    private let delay: TimeInterval
    private let isForbidden: Bool

    /// A client answering with `steps`, then with `otherwise` for every further request (or
    /// ``Unscripted`` when nil); when `gate` is given, every answer waits for it to open; with a
    /// `delay`, every answer comes that many seconds later (a cancellable wait).
    init(_ steps: [Step], otherwise: Step? = nil, gate: Gate? = nil, delay: TimeInterval = 0, forbidden: Bool = false) {
        script = Locked((steps, []))
        self.otherwise = otherwise
        self.gate = gate
        self.delay = delay
        isForbidden = forbidden
    }

    /// A client that fails the test when anything calls it.
    static var forbidden: ScriptedTransport {
        ScriptedTransport([], forbidden: true)
    }

    /// A client answering every request with `response`.
    static func always(_ response: TransportResponse, delay: TimeInterval = 0) -> ScriptedTransport {
        ScriptedTransport([], otherwise: .respond(response), delay: delay)
    }

    /// A client whose every request fails as it does without network.
    static func offline() -> ScriptedTransport {
        ScriptedTransport([], otherwise: .fail(URLError(.notConnectedToInternet)))
    }

    /// Scripts `steps` after those not yet used.
    func append(_ steps: [Step]) {
        script.withLock { $0.steps += steps }
    }

    /// The requests received so far, in order.
    var requests: [TransportRequest] { script.withLock { $0.requests } }

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        let step: Step? = script.withLock { script in
            script.requests.append(request)
            return script.steps.isEmpty ? otherwise : script.steps.removeFirst()
        }
        if isForbidden { Issue.record("network used: \(request.method) \(request.url)") }
        if let gate { await gate.wait() }
        if delay > 0 { try await Task.sleep(nanoseconds: UInt64(delay * 1_000_000_000)) }
        switch step {
        case .respond(let response): return response
        case .answer(let make): return make(request)
        case .fail(let error): throw error
        case nil: throw Unscripted(url: request.url)
        }
    }
}

extension ScriptedTransport {
    convenience init(_ steps: Step...) {
        self.init(steps)
    }
}

/// A gate tasks wait at until it opens.
actor Gate {
    private var isOpen = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    /// Returns once the gate is open.
    func wait() async {
        if isOpen { return }
        await withCheckedContinuation { waiting.append($0) }
    }

    /// Opens the gate for everyone waiting and everyone after.
    func open() {
        isOpen = true
        for continuation in waiting { continuation.resume() }
        waiting.removeAll()
    }
}

extension TransportResponse {
    /// A 200 with the body and the validators consentd sends.
    static func list(_ body: Data, etag: String? = "\"v1\"", cacheControl: String? = "public, max-age=3600") -> TransportResponse {
        var headers = ["Content-Type": "application/json; charset=utf-8"]
        if let etag { headers["ETag"] = etag }
        if let cacheControl { headers["Cache-Control"] = cacheControl }
        return TransportResponse(status: 200, headers: headers, body: body)
    }

    /// A 304 with consentd's headers.
    static func notModified(etag: String = "\"v1\"", cacheControl: String = "public, max-age=3600") -> TransportResponse {
        TransportResponse(status: 304, headers: ["ETag": etag, "Cache-Control": cacheControl])
    }
}

/// consentd's `/v1/config` answer as JSON; `providers` are (id, name) pairs.
func configJSON(
    gdprApplies: Bool?, vendorIds: [Int] = [8, 755, 793], providers: [(Int, String)] = [], nonPersonalizedOnly: Bool = false,
    cmp: (id: Int, version: Int, development: Bool)? = nil
) -> Data {
    let identity = cmp.map { #","cmp":{"id":\#($0.id),"version":\#($0.version),"development":\#($0.development)}"# } ?? ""
    let gdpr = gdprApplies.map { $0 ? "true" : "false" } ?? "null"
    let list = providers.map { #"{"id":\#($0.0),"name":"\#($0.1)","privacyPolicyUrl":"https://p\#($0.0).example/privacy"}"# }
        .joined(separator: ",")
    return Data("""
        {"appId":"com.example.app","gdprApplies":\(gdpr),"region":"eea","country":"DE","geoSource":"header",
         "publishers":[{"id":"pub-1","name":"Example","vendorIds":\(vendorIds),"adTechProviders":[\(list)],"nonPersonalizedOnly":\(nonPersonalizedOnly)}],
         "vendorIds":\(vendorIds),"adTechProviders":[\(list)],"vendorListVersion":45,"tcfPolicyVersion":4,"gvlSpecificationVersion":3\(identity)}
        """.utf8)
}

/// A vendor list source that holds fixed lists.
struct FixedVendorLists: VendorListLoading {
    var local: VendorList?
    var remote: VendorList?
    func localVendorList() async -> VendorList? { local }
    func refreshVendorList() async throws -> VendorList? { remote ?? local }
}
