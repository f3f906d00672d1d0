import TCF

/// Which list a ``VendorList`` is: its format, then its number. Lists of a newer format are newer
/// whatever their number (GVL v3 restarted `vendorListVersion` at 1).
public struct VendorListVersion: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The list's `gvlSpecificationVersion` (1 for a TCF v1.1 list).
    public let gvlSpecificationVersion: Int
    /// The list's `vendorListVersion`.
    public let vendorListVersion: Int

    /// The version of `list`.
    public init(of list: VendorList) {
        self.init(gvlSpecificationVersion: list.gvlSpecificationVersion, vendorListVersion: list.vendorListVersion)
    }

    /// A version with the given numbers.
    public init(gvlSpecificationVersion: Int, vendorListVersion: Int) {
        self.gvlSpecificationVersion = gvlSpecificationVersion
        self.vendorListVersion = vendorListVersion
    }

    /// Orders by `gvlSpecificationVersion`, then `vendorListVersion`.
    public static func < (lhs: Self, rhs: Self) -> Bool {
        (lhs.gvlSpecificationVersion, lhs.vendorListVersion) < (rhs.gvlSpecificationVersion, rhs.vendorListVersion)
    }

    /// `GVL v3 #45`.
    public var description: String { "GVL v\(gvlSpecificationVersion) #\(vendorListVersion)" }
}
