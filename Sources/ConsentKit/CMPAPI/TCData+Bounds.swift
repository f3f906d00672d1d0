import TCF

extension TCData {
    /// What a ``TCData`` may name: the vendors and purposes of the vendor list in use. Every
    /// `TCData` built from a TC string is cut to one, so that its size follows the vendor list,
    /// never the string (issue 24, H1: a 637-character string naming vendors 1–65,535 under
    /// restrictions of purpose ids 0–63 made a 43.7 MB object).
    ///
    /// - Vendor id maps (`vendor.consents`, `vendor.legitimateInterests`,
    ///   `vendor.disclosedVendors`) hold only the vendors in ``vendorIds``: a map runs from 1 to
    ///   its largest listed vendor the string names, `false` for every other id.
    /// - `publisher.restrictions` holds only purposes in ``purposeIds`` and vendors in
    ///   ``vendorIds``.
    ///
    /// The other maps need no bound: the string's format caps them (purposes and publisher
    /// purposes 24 bits, special features 12, custom purposes 63).
    ///
    /// ```swift
    /// let bounds = TCData.Bounds(vendorList: list)   // the list the CMP shows and checks with
    /// let data = TCData(tcString: text, decoded: try TCString(decoding: text), addtlConsent: nil, cmp: cmp, bounds: bounds)
    /// ```
    public struct Bounds: Sendable, Equatable {
        /// The vendors a `TCData` may name: the vendor list's, deleted ones included (a string
        /// made before a deletion still names them).
        public let vendorIds: IDSet
        /// The purposes a restriction may name: the vendor list's.
        public let purposeIds: IDSet

        /// The bounds of `vendorList`: its vendors (deleted ones included) and its purposes.
        public init(vendorList: VendorList) {
            self.init(
                vendorIds: IDSet(validIds: vendorList.vendors.keys),
                purposeIds: IDSet(validIds: vendorList.purposes.keys))
        }

        /// Bounds of the given vendors and purposes (a list's, or a subset of them).
        public init(vendorIds: IDSet, purposeIds: IDSet) {
            self.vendorIds = vendorIds
            self.purposeIds = purposeIds
        }

        /// The largest vendor id a vendor map can reach; 0 for no vendor.
        public var maxVendorId: Int { vendorIds.max }
    }

    /// The most bytes ``json()`` writes: 1 MiB. A `TCData` cut to the largest published vendor
    /// list (about 1,000 vendors, ids up to about 1,400, 11 purposes) writes under 200 KB; this
    /// ceiling is a last defence against a vendor list that is itself hostile.
    public static let maximumJSONSize = 1 << 20
}

/// ``TCData/json(idMaps:)`` stopped: the object would be larger than ``TCData/maximumJSONSize``.
public struct TCDataTooLarge: Error, Sendable, Equatable, CustomStringConvertible {
    /// The ceiling passed.
    public let limit: Int
    /// The field being written when the ceiling was passed (`vendor.consents`, `publisher.restrictions`, …).
    public let field: String

    /// A ceiling passed at `field`.
    public init(limit: Int, field: String) {
        self.limit = limit
        self.field = field
    }

    /// What happened, where, and what bounds it.
    public var description: String {
        "the TCData JSON passed \(limit) bytes at \(field): the vendor list it is bounded by (TCData.Bounds) is too large"
    }
}
