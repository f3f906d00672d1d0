import Foundation
@testable import ConsentKit

/// A clock a test moves by hand, and a ``Sleeper`` on it: a sleep ends once the clock has been
/// moved to its end (at once for none), or throws when its task is cancelled. Nothing waits in
/// real time, so a test of a 10-minute backoff runs in milliseconds.
final class TestClock: Sleeper {
    private struct Sleeping {
        let until: Date
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now: Date
        var sleeping: [UUID: Sleeping] = [:]
        /// Sleeps cancelled before they were registered.
        var cancelled: Set<UUID> = []
    }

    private let state: Locked<State>

    /// A clock at `start`: by default one with a fraction of a millisecond, as the system clock has.
    init(_ start: Date = Date(timeIntervalSince1970: 1_760_000_000.123_456_789)) {
        state = Locked(State(now: start))
    }

    /// The time now.
    @Sendable func now() -> Date { state.withLock { $0.now } }

    /// How many sleeps are waiting for the clock.
    var sleepers: Int { state.withLock { $0.sleeping.count } }

    /// Moves the clock `seconds` on (back when negative), ending every sleep that ends by then.
    func advance(_ seconds: TimeInterval) {
        let woken = state.withLock { state -> [CheckedContinuation<Void, any Error>] in
            state.now += seconds
            let due = state.sleeping.filter { $0.value.until <= state.now }
            for id in due.keys { state.sleeping[id] = nil }
            return due.values.map(\.continuation)
        }
        for continuation in woken { continuation.resume() }
    }

    func sleep(seconds: TimeInterval) async throws {
        try Task.checkCancellation()
        guard seconds > 0 else { return }
        let id = UUID()
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let cancelled = state.withLock { state -> Bool in
                    if state.cancelled.remove(id) != nil { return true }
                    state.sleeping[id] = Sleeping(until: state.now.addingTimeInterval(seconds), continuation: continuation)
                    return false
                }
                if cancelled { continuation.resume(throwing: CancellationError()) }
            }
        } onCancel: {
            let sleeping = state.withLock { state -> Sleeping? in
                if let sleeping = state.sleeping.removeValue(forKey: id) { return sleeping }
                state.cancelled.insert(id)
                return nil
            }
            sleeping?.continuation.resume(throwing: CancellationError())
        }
    }
}
