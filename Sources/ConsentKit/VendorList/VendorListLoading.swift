import TCF

/// Where the manager gets its vendor list: a copy held locally (disk or bundle, no network)
/// and a refresh from the network.
public protocol VendorListLoading: Sendable {
    /// The list held locally, without touching the network; nil when there is none.
    func localVendorList() async -> VendorList?
    /// Refreshes from the network and returns the list held afterwards (the previous one
    /// when nothing newer came); throws when the refresh failed, the held list staying.
    func refreshVendorList() async throws -> VendorList?
    /// Whether the list held is due for a refresh: its `max-age` has passed, or it carries
    /// none (the bundled snapshot, or nothing held yet).
    func vendorListIsStale() async -> Bool
}

extension VendorListLoading {
    /// A loader that cannot tell its list's age: always due, so each chance to refresh is taken.
    public func vendorListIsStale() async -> Bool { true }
}
