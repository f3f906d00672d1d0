import TCF

/// What a vendor registered in the Global Vendor List: the purposes it performs on each legal
/// basis, the purposes where it accepts either, and the special features it uses.
///
/// A vendor SDK knows its own declaration and can write it down; a CMP or mediation layer makes
/// one from the GVL with ``init(_:)``. Field names are the GVL's.
///
/// ```swift
/// let me = VendorDeclaration(id: 755, purposes: [1, 3, 4], legIntPurposes: [2, 7],
///                            flexiblePurposes: [2], specialFeatures: [1])
/// if reader.snapshot().mayProcess(vendor: me, purpose: 4) { ... }
/// ```
public struct VendorDeclaration: Sendable, Hashable {
    /// The vendor's GVL id (1-65535).
    public let id: Int
    /// Purposes performed on the legal basis of consent (the default basis for these).
    public let purposes: IDSet
    /// Purposes performed on the legal basis of legitimate interest (the default for these).
    public let legIntPurposes: IDSet
    /// Purposes, each also in ``purposes`` or ``legIntPurposes``, where the vendor accepts the
    /// other legal basis when a publisher restriction requires it.
    public let flexiblePurposes: IDSet
    /// Special features the vendor uses, each needing the user's opt-in.
    public let specialFeatures: IDSet

    /// A declaration with the given fields. A purpose listed in both ``purposes`` and
    /// ``legIntPurposes`` (the GVL forbids it) is treated as a consent purpose; a flexible
    /// purpose listed in neither is treated as undeclared.
    public init(id: Int, purposes: IDSet = [], legIntPurposes: IDSet = [], flexiblePurposes: IDSet = [], specialFeatures: IDSet = []) {
        self.id = id
        self.purposes = purposes
        self.legIntPurposes = legIntPurposes
        self.flexiblePurposes = flexiblePurposes
        self.specialFeatures = specialFeatures
    }

    /// The declaration of a vendor of a Global Vendor List.
    public init(_ vendor: Vendor) {
        self.init(
            id: vendor.id, purposes: vendor.purposes, legIntPurposes: vendor.legIntPurposes,
            flexiblePurposes: vendor.flexiblePurposes, specialFeatures: vendor.specialFeatures)
    }

    /// The legal basis the vendor registered for `purpose`, absent any restriction; nil when it
    /// did not declare the purpose.
    func defaultBasis(for purpose: Int) -> LegalBasis? {
        if purposes.contains(purpose) { return .consent }
        if legIntPurposes.contains(purpose) { return .legitimateInterest }
        return nil
    }
}
