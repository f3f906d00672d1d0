import Foundation

/// A lock the thread holding it may take again.
final class RecursiveLock: @unchecked Sendable {
    private let lock = NSRecursiveLock()

    /// Runs `body` holding the lock.
    func withLock<R>(_ body: () throws -> R) rethrows -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }
}
