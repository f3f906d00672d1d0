import Foundation

/// A translation of a vendor list's texts (`purposes-xx.json`): names, descriptions and
/// illustrations by id, without vendors.
///
/// Apply it with ``VendorList/translated(by:language:)``. The file does not say its language;
/// the caller knows it from the file name.
public struct VendorListTranslation: Sendable, Equatable {
    /// The vendor-list version the translation was made for.
    public let vendorListVersion: Int?
    /// Translated purposes by id.
    public let purposes: [Int: Declaration]
    /// Translated special purposes by id.
    public let specialPurposes: [Int: Declaration]
    /// Translated features by id.
    public let features: [Int: Declaration]
    /// Translated special features by id.
    public let specialFeatures: [Int: Declaration]
    /// Translated stacks by id.
    public let stacks: [Int: Stack]
    /// Translated data categories by id (GVL v3 translations).
    public let dataCategories: [Int: Declaration]
    /// Translated standard texts by section (``VendorList/standardTexts``).
    public let standardTexts: [String: String]

    /// A translation with the given texts.
    public init(
        vendorListVersion: Int?, purposes: [Int: Declaration], specialPurposes: [Int: Declaration] = [:],
        features: [Int: Declaration] = [:], specialFeatures: [Int: Declaration] = [:],
        stacks: [Int: Stack] = [:], dataCategories: [Int: Declaration] = [:], standardTexts: [String: String] = [:]
    ) {
        self.vendorListVersion = vendorListVersion
        self.purposes = purposes
        self.specialPurposes = specialPurposes
        self.features = features
        self.specialFeatures = specialFeatures
        self.stacks = stacks
        self.dataCategories = dataCategories
        self.standardTexts = standardTexts
    }
}

extension VendorList {
    /// The list with its texts replaced by `translation`'s, and ``language`` set to `language`.
    ///
    /// Only texts change: names, descriptions, legal descriptions and illustrations of the
    /// declarations and stacks the translation has, and the standard texts the list has. Ids, stack compositions, `consentable` and
    /// `rightToObject` stay as the list has them; a declaration the list lacks is ignored. A
    /// stack the translation lacks is left out, so no stack is shown in another language; a
    /// declaration it lacks keeps the list's text, so check ``untranslated(by:)`` first when
    /// the list must be in one language throughout.
    public func translated(by translation: VendorListTranslation, language: String) -> VendorList {
        var list = self
        list.language = language.uppercased()
        list.stacks = list.stacks.filter { translation.stacks[$0.key] != nil }
        Self.merge(translation.purposes, into: &list.purposes)
        Self.merge(translation.specialPurposes, into: &list.specialPurposes)
        Self.merge(translation.features, into: &list.features)
        Self.merge(translation.specialFeatures, into: &list.specialFeatures)
        Self.merge(translation.dataCategories, into: &list.dataCategories)
        list.standardTexts.merge(translation.standardTexts.filter { list.standardTexts[$0.key] != nil }) { $1 }
        for (id, text) in translation.stacks where list.stacks[id] != nil {
            list.stacks[id]!.name = text.name
            list.stacks[id]!.description = text.description
        }
        return list
    }

    /// What `translation` lacks to give this list in one language: the purposes, special
    /// purposes, features, special features, data categories and standard texts of the list it
    /// has no text for (`"purpose 11"`, `"standard text features"`), by section and id; empty
    /// when it covers them all.
    ///
    /// A GVL v2 translation lacks the v3 lists' purpose 11 and data categories, so it never
    /// covers a v3 list. Stacks are not counted: a list can be shown without one, so a notice
    /// drops the stacks a translation lacks rather than showing them in another language.
    public func untranslated(by translation: VendorListTranslation) -> [String] {
        func missing<T>(_ name: String, _ list: [Int: T], _ texts: [Int: Declaration]) -> [String] {
            list.keys.sorted().filter { texts[$0] == nil }.map { "\(name) \($0)" }
        }
        return missing("purpose", purposes, translation.purposes)
            + missing("special purpose", specialPurposes, translation.specialPurposes)
            + missing("feature", features, translation.features)
            + missing("special feature", specialFeatures, translation.specialFeatures)
            + missing("data category", dataCategories, translation.dataCategories)
            + standardTexts.keys.sorted().filter { translation.standardTexts[$0] == nil }.map { "standard text \($0)" }
    }

    private static func merge(_ texts: [Int: Declaration], into declarations: inout [Int: Declaration]) {
        for (id, text) in texts where declarations[id] != nil {
            declarations[id]!.name = text.name
            declarations[id]!.description = text.description
            if text.descriptionLegal != nil { declarations[id]!.descriptionLegal = text.descriptionLegal }
            if !text.illustrations.isEmpty { declarations[id]!.illustrations = text.illustrations }
        }
    }
}
