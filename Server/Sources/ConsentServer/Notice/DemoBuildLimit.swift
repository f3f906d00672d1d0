import Synchronization

/// How many demo notices (`POST /demo/document`, `POST /demo/result`) are built at once: each
/// costs up to a vendor list's worth of CPU for a request of a few bytes (all vendors: 463 KB of
/// document), so more than ``limit`` at once are refused with `429 demo_busy` rather than queued
/// behind the API's requests. The per-address rate limit bounds each client on top of it.
final class DemoBuildLimit: Sendable {
    /// Builds at once.
    let limit: Int
    private let running = Mutex(0)

    init(limit: Int = 2) {
        self.limit = limit
    }

    /// Takes a slot, false when all are taken.
    func acquire() -> Bool {
        running.withLock { count in
            guard count < limit else { return false }
            count += 1
            return true
        }
    }

    /// Gives a slot back.
    func release() {
        running.withLock { $0 -= 1 }
    }

    /// Runs `body` in a slot; `429 demo_busy` when none is free.
    func run<T>(_ body: () async throws -> T) async throws -> T {
        guard acquire() else {
            throw APIError(.tooManyRequests, "demo_busy", "the demo is building \(limit) notices already; retry in a second", retryAfter: 1)
        }
        defer { release() }
        return try await body()
    }
}
