import Foundation
import Testing

/// A condition a test waited for that did not come true in time.
struct ConditionTimedOut: Error, CustomStringConvertible {
    let description: String
}

/// Waits until `condition` holds, checking it every 5 ms, for at most `seconds`; past that it
/// records an issue naming `what` and throws ``ConditionTimedOut``.
///
/// For a test that must wait for something another task does: it waits exactly as long as
/// needed, and a condition that never comes true fails the test instead of hanging it.
func waitUntil(
    _ what: String, within seconds: Double = 10, isolation: isolated (any Actor)? = #isolation,
    sourceLocation: SourceLocation = #_sourceLocation, _ condition: () async throws -> Bool
) async throws {
    let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(seconds * 1_000_000_000)
    while try await !condition() {
        guard DispatchTime.now().uptimeNanoseconds < deadline else {
            let failure = ConditionTimedOut(description: "still waiting after \(seconds) s until \(what)")
            Issue.record(failure, sourceLocation: sourceLocation)
            throw failure
        }
        try await Task.sleep(nanoseconds: 5_000_000)
    }
}
