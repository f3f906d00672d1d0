import Foundation

/// Waiting for an amount of time: what the SDK's background work (the sync's backoff, the
/// region decision's timeout) sleeps on, so that a test stands in a clock it moves by hand and
/// runs in milliseconds. The time itself comes from ``ConsentConfiguration/now``.
protocol Sleeper: Sendable {
    /// Returns after `seconds` (at once for 0 or less).
    ///
    /// - Throws: `CancellationError` when the task is cancelled first.
    func sleep(seconds: TimeInterval) async throws
}

/// The real sleeper: `Task.sleep`.
struct SystemSleeper: Sleeper {
    func sleep(seconds: TimeInterval) async throws {
        // Bounded (about 31 years): a longer wait would overflow the nanoseconds.
        try await Task.sleep(nanoseconds: UInt64(min(max(seconds, 0), 1e9) * 1_000_000_000))
    }
}
