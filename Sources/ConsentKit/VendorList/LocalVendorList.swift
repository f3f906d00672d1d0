import Foundation
import TCF

/// The vendor list a ``VendorListLoader`` holds without asking the network, where it came from,
/// and why better sources were passed over.
public struct LocalVendorList: Sendable, Equatable {
    /// Where a held list came from.
    public enum Origin: Sendable, Equatable {
        /// The last good download, read from (or written to) this file.
        case stored(URL)
        /// The snapshot the app bundles, at this file URL.
        case bundledSnapshot(URL)
        /// Downloaded from this URL in this run and held in memory only: the server said
        /// `no-store`, or writing the file failed (see ``LocalVendorList/problems``).
        case downloaded(URL)
    }

    /// The list to use; nil only when nothing is stored, no snapshot is usable and no download
    /// has succeeded yet.
    public let vendorList: VendorList?
    /// Where ``vendorList`` came from; nil when there is none.
    public let origin: Origin?
    /// What went wrong with the sources not used: a stored copy that is cut short, a snapshot
    /// that does not decode, ``VendorListLoadingError/noLocalCopy(cacheFile:snapshot:)``. Empty
    /// when the best source was usable.
    public let problems: [VendorListLoadingError]

    /// A held list and its origin, with the problems met finding it.
    public init(vendorList: VendorList?, origin: Origin?, problems: [VendorListLoadingError]) {
        self.vendorList = vendorList
        self.origin = origin
        self.problems = problems
    }
}
