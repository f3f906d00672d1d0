import Foundation

/// Keeping the held vendor list current while the app runs: the TCF requires the latest list
/// whenever the notice may be shown, and the list's `max-age` says when the held one may be
/// outdated.
extension ConsentManager {
    /// Refreshes (``refresh()``: the region and the vendor list) when the held vendor list's
    /// `max-age` has passed, and returns what came of it; nil, without a request, while the list
    /// is fresh or the manager has no vendor-list source. `ForegroundSync` calls it each time
    /// the app returns to the foreground; call it yourself on other platforms or from a timer.
    @discardableResult
    public func refreshIfVendorListStale() async -> RefreshReport? {
        guard case .success(let loader?) = vendorLists, await loader.vendorListIsStale() else { return nil }
        return await refresh()
    }
}
