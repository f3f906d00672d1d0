import Foundation
import TCF
import Testing
@testable import ConsentKit

/// An ``HTTPClient`` for tests: answers with `respond` (after `delay` seconds, cancellable) and
/// records every request. With `forbidden`, any request records a test failure.
final class ScriptedHTTPClient: HTTPClient, @unchecked Sendable {
    private let requests = Locked<[HTTPRequest]>([])
    private let respond: @Sendable (HTTPRequest) throws -> HTTPResponse
    private let delay: TimeInterval
    private let forbidden: Bool

    init(delay: TimeInterval = 0, forbidden: Bool = false, respond: @escaping @Sendable (HTTPRequest) throws -> HTTPResponse) {
        self.delay = delay
        self.forbidden = forbidden
        self.respond = respond
    }

    /// A client that fails the test when anything calls it.
    static var forbidden: ScriptedHTTPClient {
        ScriptedHTTPClient(forbidden: true) { _ in HTTPResponse(status: 599) }
    }

    var sent: [HTTPRequest] { requests.withLock { $0 } }

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        requests.withLock { $0.append(request) }
        if forbidden { Issue.record("network used: \(request.method) \(request.url)") }
        if delay > 0 { try await Task.sleep(nanoseconds: UInt64(delay * 1_000_000_000)) }
        return try respond(request)
    }
}

/// consentd's `/v1/config` answer as JSON.
func configJSON(gdprApplies: Bool?, vendorIds: [Int] = [8, 755, 793]) -> Data {
    let gdpr = gdprApplies.map { $0 ? "true" : "false" } ?? "null"
    return Data("""
        {"appId":"com.example.app","gdprApplies":\(gdpr),"region":"eea","country":"DE","geoSource":"header",
         "publishers":[{"id":"pub-1","name":"Example","vendorIds":\(vendorIds),"adTechProviders":[],"nonPersonalizedOnly":false}],
         "vendorIds":\(vendorIds),"adTechProviders":[],"vendorListVersion":45,"tcfPolicyVersion":4,"gvlSpecificationVersion":3}
        """.utf8)
}

/// A vendor list source that holds fixed lists.
struct FixedVendorLists: VendorListLoading {
    var local: VendorList?
    var remote: VendorList?
    func localVendorList() async -> VendorList? { local }
    func refreshVendorList() async throws -> VendorList? { remote ?? local }
}
