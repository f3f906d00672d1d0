import Foundation

/// A lock the thread holding it may take again, that says which call took it first: the
/// manager's write lock (``EventHub/exclusive(_:)``), which a store observer called during a
/// store write may take again to make a change, and whose outermost holder delivers the events.
///
/// The SDK's one recursive lock; everything else is a `Locked` value. `@unchecked Sendable`:
/// `NSRecursiveLock` is thread-safe, and `depth` is read and written only while holding it.
final class RecursiveLock: @unchecked Sendable {
    private let lock = NSRecursiveLock()
    private var depth = 0

    /// Runs `body` holding the lock; `outermost` is true for the call that took it first.
    func withLock<R>(_ body: () throws -> R) rethrows -> (result: R, outermost: Bool) {
        lock.lock()
        defer { lock.unlock() }
        depth += 1
        defer { depth -= 1 }
        return (try body(), depth == 1)
    }
}
