import Foundation

/// A value behind a lock. (`Synchronization.Mutex` needs iOS 18; the SDK supports iOS 15.)
/// Package-wide, so the SDK's opt-in targets (`ConsentKitObservation`) share it.
package final class Locked<Value>: @unchecked Sendable {
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
