/// What a ``VendorListLoader/refresh()`` did.
public enum VendorListRefresh: Sendable, Equatable {
    /// The held copy is within its `Cache-Control: max-age`: no request was made.
    case fresh(VendorListVersion)
    /// The server confirmed the held copy (304 to `If-None-Match`); it is fresh again.
    case notModified(VendorListVersion)
    /// A new list was downloaded, checked and is now held (and stored unless the server said
    /// `no-store`). A list of the same version replaces the held one: a trimmed list changes with
    /// the publishers' vendors and language, not only with the Global Vendor List.
    case updated(VendorListVersion)
    /// Nothing usable came back; the held copy, if any, stays and is used. The error says what
    /// and where.
    case failed(VendorListLoadingError)
}
