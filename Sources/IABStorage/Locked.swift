import Foundation

/// A value behind a lock: the SDK's one mutual-exclusion primitive for state that threads share
/// (`Synchronization.Mutex` needs iOS 18; the SDK supports iOS 15). Package-wide, so the SDK's
/// opt-in targets (`ConsentKitObservation`) share it.
///
/// Sendable only when its value is, as swift-argument-parser's `Mutex` does: the lock makes the
/// accesses exclusive, but a non-Sendable value handed out of `withLock` could still be shared.
package final class Locked<Value> {
    private var value: Value
    private let lock = NSLock()

    package init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with the value, holding the lock.
    package func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}

extension Locked: @unchecked Sendable where Value: Sendable {}
