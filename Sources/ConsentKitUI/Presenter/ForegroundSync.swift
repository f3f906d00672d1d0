#if canImport(UIKit)
import ConsentKit
import UIKit

/// Syncs the manager with consentd each time the app returns to the foreground (docs/sync.md):
/// keep one for the app's lifetime.
///
/// ```swift
/// let foregroundSync = ForegroundSync(manager: consent)
/// ```
@available(iOS 15.0, *)
@MainActor
public final class ForegroundSync {
    /// Written once in `init`, read once in `deinit`.
    nonisolated(unsafe) private var observer: (any NSObjectProtocol)?

    /// Starts observing `UIApplication.willEnterForegroundNotification`.
    public init(manager: ConsentManager) {
        observer = NotificationCenter.default.addObserver(
            forName: UIApplication.willEnterForegroundNotification, object: nil, queue: .main
        ) { _ in
            Task.detached(priority: .utility) { await manager.syncNow() }
        }
    }

    deinit {
        if let observer { NotificationCenter.default.removeObserver(observer) }
    }
}
#endif
