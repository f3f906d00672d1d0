import TCF

/// A decoded GPP string (IAB Global Privacy Platform): its sections in string order.
///
/// The header is not stored: it is the list of the sections' ids, written in order when the
/// value is encoded.
///
/// ```swift
/// let gpp = try GPPString(decoding: "DBACNY~CPXxRfAPXxRfAAfKABENB-CgAAAAAAAAAAYgAAAAAAAA~1YNN")
/// gpp.sectionIds           // [2, 6]
/// gpp.tcfeuv2?.cmpId       // 31
/// gpp.uspv1?.optOutSale    // .no
/// ```
public struct GPPString: Sendable, Equatable {
    /// The sections, in string order (which is id order: the header lists them sorted).
    public var sections: [GPPSection]

    /// A GPP string of `sections`; encoding writes them in id order.
    public init(sections: [GPPSection] = []) { self.sections = sections }

    /// The ids of the sections, in order: the header's `Sections`.
    public var sectionIds: [Int] { sections.map(\.id) }

    /// The section with `id`, if present.
    public func section(_ id: Int) -> GPPSection? { sections.first { $0.id == id } }

    /// The section whose API prefix is `prefix` (`"usnat"`), if present.
    public subscript(prefix prefix: String) -> GPPSection? {
        GPPSectionID(prefix: prefix).flatMap { section($0.rawValue) }
    }

    /// The `tcfeuv2` section's TC string, if present.
    public var tcfeuv2: TCString? {
        if case .tcfeuv2(let value) = section(GPPSectionID.tcfeuv2.rawValue) { return value }
        return nil
    }

    /// The `tcfcav1` section, if present.
    public var tcfcav1: TCFCanadaSection? {
        if case .tcfcav1(let value) = section(GPPSectionID.tcfcav1.rawValue) { return value }
        return nil
    }

    /// The `uspv1` section, if present.
    public var uspv1: USPrivacyV1? {
        if case .uspv1(let value) = section(GPPSectionID.uspv1.rawValue) { return value }
        return nil
    }

    /// The US section `id` (usnat or a state), if present.
    public func us(_ id: GPPSectionID) -> USSection? {
        if case .us(let value) = section(id.rawValue) { return value }
        return nil
    }

    /// The `usnat` section, if present.
    public var usnat: USSection? { us(.usnat) }

    /// Puts `section` in place of the section with its id, or adds it.
    public mutating func set(_ section: GPPSection) {
        if let index = sections.firstIndex(where: { $0.id == section.id }) {
            sections[index] = section
        } else {
            sections.append(section)
            sections.sort { $0.id < $1.id }
        }
    }
}
