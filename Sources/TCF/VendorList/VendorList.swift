import Foundation

/// The Global Vendor List: the purposes, features and vendors a TCF consent string refers to by id.
///
/// One model holds all three published formats: the TCF v1.1 `vendorlist.json`
/// (``gvlSpecificationVersion`` 1) and the TCF v2 lists of specification versions 2 and 3.
/// Decode one with ``init(jsonData:)``; show it in another language with
/// ``translated(by:language:)``. Lookups by id are dictionary lookups.
public struct VendorList: Sendable, Equatable {
    /// The format: 1 for a TCF v1.1 list (which has no such field), else the list's
    /// `gvlSpecificationVersion` (2 or 3).
    public let gvlSpecificationVersion: Int
    /// The list's version, incremented with each published change; consent strings record it.
    public let vendorListVersion: Int
    /// The TCF policy version the list belongs to; nil for v1 lists. When it differs from a TC
    /// string's `TcfPolicyVersion`, consent must be collected again.
    public let tcfPolicyVersion: Int?
    /// When the list was published.
    public let lastUpdated: Date?
    /// The language of the texts: `EN` as published, or the one given to ``translated(by:language:)``.
    public internal(set) var language: String
    /// Purposes by id.
    public internal(set) var purposes: [Int: Declaration]
    /// Special purposes by id (v2 and v3).
    public internal(set) var specialPurposes: [Int: Declaration]
    /// Features by id.
    public internal(set) var features: [Int: Declaration]
    /// Special features by id (v2 and v3).
    public internal(set) var specialFeatures: [Int: Declaration]
    /// Stacks by id (v2 and v3).
    public internal(set) var stacks: [Int: Stack]
    /// Data categories by id (v3).
    public internal(set) var dataCategories: [Int: Declaration]
    /// The standard texts a notice shows around the declarations, by the section they belong to
    /// (`"features"`: what features are and how they are used), as lists of policy version 5 carry
    /// them (`standardTexts`, May 2026); empty for older lists. Kept whatever their keys, so a
    /// later addition reaches the notice without a change here.
    public internal(set) var standardTexts: [String: String]
    /// Vendors by id, deleted ones included (see ``Vendor/deletedDate``).
    public let vendors: [Int: Vendor]

    /// A vendor list with the given fields.
    public init(
        gvlSpecificationVersion: Int, vendorListVersion: Int, tcfPolicyVersion: Int?, lastUpdated: Date?,
        language: String = "EN",
        purposes: [Int: Declaration], specialPurposes: [Int: Declaration] = [:], features: [Int: Declaration] = [:],
        specialFeatures: [Int: Declaration] = [:], stacks: [Int: Stack] = [:], dataCategories: [Int: Declaration] = [:],
        standardTexts: [String: String] = [:], vendors: [Int: Vendor]
    ) {
        self.gvlSpecificationVersion = gvlSpecificationVersion
        self.vendorListVersion = vendorListVersion
        self.tcfPolicyVersion = tcfPolicyVersion
        self.lastUpdated = lastUpdated
        self.language = language
        self.purposes = purposes
        self.specialPurposes = specialPurposes
        self.features = features
        self.specialFeatures = specialFeatures
        self.stacks = stacks
        self.dataCategories = dataCategories
        self.standardTexts = standardTexts
        self.vendors = vendors
    }

    /// The vendors not deleted at `date`, by increasing id.
    public func activeVendors(at date: Date = Date()) -> [Vendor] {
        vendors.values.filter { !$0.isDeleted(at: date) }.sorted { $0.id < $1.id }
    }

    /// The ids of the vendors not deleted at `date`, found by position in ``vendors`` rather than
    /// through an array of vendor copies (a notice asks for this on every showing).
    public func activeVendorIds(at date: Date = Date()) -> IDSet {
        var ids: [Int] = []
        ids.reserveCapacity(vendors.count)
        for index in vendors.indices where !vendors[index].value.isDeleted(at: date) {
            ids.append(vendors[index].key)
        }
        return IDSet(validIds: ids)
    }
}
