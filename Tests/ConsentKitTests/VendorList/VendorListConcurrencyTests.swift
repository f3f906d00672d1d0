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
        let calls = Locked(0)

        let results = try await withThrowingTaskGroup(of: VendorListRefresh.self) { group in
            for _ in 0..<20 { group.addTask { await loader.refresh(counting: calls) } }
            // The answer is held until every call is inside refresh(), waiting for the one under way.
            try await waitUntil("all 20 calls are inside refresh()") { await loader.count(calls) == 20 }
            await gate.open()
            return try await group.reduce(into: []) { $0.append($1) }
        }

        #expect(client.requests.count == 1)
        #expect(results.count == 20)
        #expect(results.allSatisfy { $0 == .updated(v3(45)) })
    }
}

extension VendorListLoader {
    /// `refresh()`, counted in `calls` on the actor. The count and the start of `refresh()` run in
    /// one step (no suspension between them), so once ``count(_:)`` says n, n calls have either
    /// started the refresh or joined the one under way.
    fileprivate func refresh(counting calls: Locked<Int>) async -> VendorListRefresh {
        calls.withLock { $0 += 1 }
        return await refresh()
    }

    /// The count of `calls`, read on the actor, so never between a call's count and its start.
    fileprivate func count(_ calls: Locked<Int>) -> Int {
        calls.withLock { $0 }
    }
}
