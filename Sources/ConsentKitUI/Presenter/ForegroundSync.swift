#if canImport(UIKit)
import ConsentKit
import UIKit

/// Each time the app returns to the foreground, syncs the manager with consentd (docs/sync.md)
/// and, when the held vendor list's `max-age` has passed, refreshes it
/// (``ConsentManager/refreshIfVendorListStale()``): keep one for the app's lifetime.
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
            Task.detached(priority: .utility) {
                await manager.refreshIfVendorListStale()
                await manager.syncNow()
            }
        }
    }

    deinit {
        if let observer { NotificationCenter.default.removeObserver(observer) }
    }
}
#endif
