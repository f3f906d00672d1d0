import Foundation
import Testing
@testable import ConsentKit

/// Refreshes that overlap.
@Suite("Vendor list: concurrent refreshes")
struct VendorListConcurrencyTests {
    @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
    @Test("concurrent refreshes share one request and its result")
    func concurrentRefreshesShareOneRequest() async throws {
        let folder = try TestFolder()
        let gate = Gate()
        // max-age=0: a refresh that did not join the one under way would ask again.
        let client = ScriptedTransport(
            [.respond(.list(try GVLFixtures.v3v45(), cacheControl: "max-age=0"))], otherwise: .respond(.notModified()), gate: gate)
        let loader = VendorListLoader(source: folder.source(), transport: client)

        let results = try await withThrowingTaskGroup(of: VendorListRefresh.self) { group in
            for _ in 0..<20 { group.addTask { await loader.refresh() } }
            // Hold the answer until the first request is out and the other calls have had time to arrive.
            for _ in 0..<200 where client.requests.isEmpty { try await Task.sleep(for: .milliseconds(10)) }
            try await Task.sleep(for: .milliseconds(200))
            await gate.open()
            return try await group.reduce(into: []) { $0.append($1) }
        }

        #expect(client.requests.count == 1)
        #expect(results.count == 20)
        #expect(results.allSatisfy { $0 == .updated(v3(45)) })
    }
}
