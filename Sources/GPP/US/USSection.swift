/// A US section of a GPP string — usnat or a state (usca … usri) — with its sub-sections.
///
/// One type for all of them: a ``USSectionLayout`` says which fields the section has, and the
/// values are read through typed properties (`section.saleOptOut == .optedOut`), which are nil
/// where the section has no such field, or generically by spec name (`section[.saleOptOut]`).
///
/// ```swift
/// let gpp = try GPPString(decoding: "DBABLA~BVQqAAAAAg")
/// gpp.usnat?.saleOptOut        // .didNotOptOut
/// gpp.usnat?.layout.name       // "usnat (v1 layout)"
/// ```
public struct USSection: Sendable, Equatable {
    /// The fields this section has and how they are written.
    public let layout: USSectionLayout
    /// One value per field, `count` per list, in layout order (see ``USSectionLayout``).
    private(set) var values: [Int]
    /// Bit `i`: the layout's sub-section `i` is present.
    private(set) var presentSubsections: UInt8
    /// The section header's `Version` when the section was read from (or is to be written in)
    /// the spec's layout with a section header (usmd, usin, usky, usri); nil for the layout
    /// without one, and for sections 7–23, which have no section header.
    public var sectionHeaderVersion: Int?

    /// A section of `id` in its current layout with every field 0 (not applicable) except
    /// `Version` and `MspaVersion` 1 and `MspaCoveredTransaction` 2 (not a covered transaction),
    /// and no optional sub-section; for usmd/usin/usky/usri the spec's section header with
    /// `Version` 1. Nil for a non-US id.
    public init?(_ id: GPPSectionID) {
        guard let layout = USSectionLayout.current(for: id) else { return nil }
        self.init(layout: layout)
    }

    /// A section in `layout` with the values ``init(_:)`` describes.
    public init(layout: USSectionLayout) {
        self.layout = layout
        values = Array(repeating: 0, count: layout.slotCount)
        presentSubsections = 0
        sectionHeaderVersion = layout.hasSectionHeader ? 1 : nil
        if layout.slot(.version) != nil { values[layout.slot(.version)!.offset] = 1 }
        if let mspaVersion = layout.slot(.mspaVersion) { values[mspaVersion.offset] = 1 }
        if let covered = layout.slot(.mspaCoveredTransaction) { values[covered.offset] = USMspaFlag.no.rawValue }
    }

    /// A decoded section's storage, taken as it is.
    init(layout: USSectionLayout, values: [Int], presentSubsections: UInt8, sectionHeaderVersion: Int?) {
        self.layout = layout
        self.values = values
        self.presentSubsections = presentSubsections
        self.sectionHeaderVersion = sectionHeaderVersion
    }

    /// The usnat v1 layout's value in the v2 layout when its `Version` says 2 or more, its lists
    /// padded with zeros ("not applicable") to the v2 layout's 16 and 3 entries; any other value
    /// as it is. A string whose `Version` says 2 but whose bits hold the v1 layout (iabgpp-es
    /// writes them) states a v2 section: both IAB libraries read it so, and re-encoding it
    /// writes the layout its `Version` names (decision 0028, point 3).
    func inLayoutOfItsVersion() -> USSection {
        guard layout === USSectionLayout.usnatVersion1, let version = self[.version], version >= 2 else { return self }
        let stated = USSectionLayout.usnat
        var padded = Array(repeating: 0, count: stated.slotCount)
        for slot in layout.slots {
            let count = if case .list(let count) = slot.type { count } else { 1 }
            let target = stated.slot(slot.field)!.offset
            padded.replaceSubrange(target..<target + count, with: values[slot.offset..<slot.offset + count])
        }
        return USSection(layout: stated, values: padded, presentSubsections: presentSubsections, sectionHeaderVersion: nil)
    }

    /// The section's id.
    public var id: GPPSectionID { layout.section }

    /// Equal sections have the same layout, header version, sub-sections and values.
    public static func == (lhs: USSection, rhs: USSection) -> Bool {
        lhs.layout === rhs.layout && lhs.presentSubsections == rhs.presentSubsections
            && lhs.sectionHeaderVersion == rhs.sectionHeaderVersion && lhs.values == rhs.values
    }

    // MARK: Generic access by field

    /// The fields present in this value, in string order: the core's, then those of each
    /// present sub-section (`Version` first when a section header carries it).
    public var fields: [USField] {
        var result: [USField] = sectionHeaderVersion == nil ? [] : [.version]
        for slot in layout.slots where isPresent(slotIn: slot.subsection) { result.append(slot.field) }
        return result
    }

    /// Whether the sub-section at `index` of the layout's ``USSectionLayout/subsections`` is present.
    public func isPresent(subsection index: Int) -> Bool { presentSubsections & 1 << index != 0 }
    /// Whether a slot's sub-section (nil: the core) is present.
    private func isPresent(slotIn subsection: Int?) -> Bool { subsection.map { isPresent(subsection: $0) } ?? true }

    /// Includes or removes the optional sub-section at `index` (a new one has every field 0).
    public mutating func setPresent(_ present: Bool, subsection index: Int) {
        precondition(layout.subsections.indices.contains(index), "\(layout) has no sub-section \(index)")
        if present { presentSubsections |= 1 << index } else { presentSubsections &= ~(1 << index) }
    }

    /// A single-value field (Int or Boolean, 1 = true) by its spec name; nil when the section
    /// has no such field or its sub-section is absent. For the section header's `Version`,
    /// ``sectionHeaderVersion``.
    ///
    /// Setting a field of an absent sub-section includes the sub-section. Setting nil, or a field
    /// the layout lacks, is a programming error. Values are range-checked on encode.
    public subscript(field: USField) -> Int? {
        get {
            if field == .version, let sectionHeaderVersion { return sectionHeaderVersion }
            guard let slot = layout.slot(field), isPresent(slotIn: slot.subsection) else { return nil }
            if case .list = slot.type { return nil }
            return values[slot.offset]
        }
        set {
            if field == .version, sectionHeaderVersion != nil, let newValue {
                sectionHeaderVersion = newValue
                return
            }
            guard let slot = layout.slot(field), let newValue else {
                preconditionFailure("\(layout) has no field \(field.rawValue) to set to \(String(describing: newValue))")
            }
            if case .list = slot.type { preconditionFailure("\(field.rawValue) is a list; use self[list:]") }
            if let subsection = slot.subsection { setPresent(true, subsection: subsection) }
            values[slot.offset] = newValue
        }
    }

    /// An N-Bitfield field (`SensitiveDataProcessing`, a list `KnownChildSensitiveDataConsents`)
    /// as its 2-bit values; nil when the section has no such list or its sub-section is absent.
    ///
    /// Setting it needs exactly the layout's count of values (a programming error otherwise).
    public subscript(list field: USField) -> [Int]? {
        get {
            guard let slot = layout.slot(field), isPresent(slotIn: slot.subsection),
                  case .list(let count) = slot.type else { return nil }
            return Array(values[slot.offset..<slot.offset + count])
        }
        set {
            guard let slot = layout.slot(field), case .list(let count) = slot.type, let newValue, newValue.count == count else {
                preconditionFailure("\(layout) \(field.rawValue) takes a list of its layout's length")
            }
            if let subsection = slot.subsection { setPresent(true, subsection: subsection) }
            values.replaceSubrange(slot.offset..<slot.offset + count, with: newValue)
        }
    }

    // MARK: Typed access

    private func choice<Choice: RawRepresentable<Int>>(_ field: USField) -> Choice? {
        self[field].flatMap { Choice(rawValue: $0 & 3) }
    }

    private mutating func setChoice<Choice: RawRepresentable<Int>>(_ field: USField, _ value: Choice?) {
        guard let value else { return }
        self[field] = value.rawValue
    }

    /// `Version` (the section header's for usmd/usin/usky/usri written with one).
    public var version: Int? { self[.version] }
    /// `MspaVersion` (usmd, usin, usky, usri).
    public var mspaVersion: Int? { self[.mspaVersion] }

    /// `SharingNotice`.
    public var sharingNotice: USNotice? { get { choice(.sharingNotice) } set { setChoice(.sharingNotice, newValue) } }
    /// `ProcessingNotice`.
    public var processingNotice: USNotice? { get { choice(.processingNotice) } set { setChoice(.processingNotice, newValue) } }
    /// `SaleOptOutNotice`.
    public var saleOptOutNotice: USNotice? { get { choice(.saleOptOutNotice) } set { setChoice(.saleOptOutNotice, newValue) } }
    /// `SharingOptOutNotice` (usnat, usca).
    public var sharingOptOutNotice: USNotice? {
        get { choice(.sharingOptOutNotice) } set { setChoice(.sharingOptOutNotice, newValue) }
    }
    /// `TargetedAdvertisingOptOutNotice`.
    public var targetedAdvertisingOptOutNotice: USNotice? {
        get { choice(.targetedAdvertisingOptOutNotice) } set { setChoice(.targetedAdvertisingOptOutNotice, newValue) }
    }
    /// `SensitiveDataProcessingOptOutNotice` (usnat, usut).
    public var sensitiveDataProcessingOptOutNotice: USNotice? {
        get { choice(.sensitiveDataProcessingOptOutNotice) } set { setChoice(.sensitiveDataProcessingOptOutNotice, newValue) }
    }
    /// `SensitiveDataLimitUseNotice` (usnat, usca).
    public var sensitiveDataLimitUseNotice: USNotice? {
        get { choice(.sensitiveDataLimitUseNotice) } set { setChoice(.sensitiveDataLimitUseNotice, newValue) }
    }
    /// `SensitiveDataOptOutNotice` (usia).
    public var sensitiveDataOptOutNotice: USNotice? {
        get { choice(.sensitiveDataOptOutNotice) } set { setChoice(.sensitiveDataOptOutNotice, newValue) }
    }

    /// `SaleOptOut`.
    public var saleOptOut: USOptOut? { get { choice(.saleOptOut) } set { setChoice(.saleOptOut, newValue) } }
    /// `SharingOptOut` (usnat, usca).
    public var sharingOptOut: USOptOut? { get { choice(.sharingOptOut) } set { setChoice(.sharingOptOut, newValue) } }
    /// `TargetedAdvertisingOptOut`.
    public var targetedAdvertisingOptOut: USOptOut? {
        get { choice(.targetedAdvertisingOptOut) } set { setChoice(.targetedAdvertisingOptOut, newValue) }
    }

    /// `SensitiveDataProcessing` where it holds consents (every section with the list except
    /// usca, usut and usia); nil where it holds opt-outs or is absent.
    public var sensitiveDataConsents: [USConsent]? {
        get { layout.sensitiveDataIsOptOut ? nil : self[list: .sensitiveDataProcessing]?.map { USConsent(rawValue: $0 & 3)! } }
        set { if let newValue { self[list: .sensitiveDataProcessing] = newValue.map(\.rawValue) } }
    }

    /// `SensitiveDataProcessing` where it holds opt-outs (usca's limit-use, usut, usia); nil
    /// elsewhere.
    public var sensitiveDataOptOuts: [USOptOut]? {
        get { layout.sensitiveDataIsOptOut ? self[list: .sensitiveDataProcessing]?.map { USOptOut(rawValue: $0 & 3)! } : nil }
        set { if let newValue { self[list: .sensitiveDataProcessing] = newValue.map(\.rawValue) } }
    }

    /// `KnownChildSensitiveDataConsents` (Tennessee: `KnownChildSensitiveDataConsent`) as a list:
    /// one entry where the section has a single Int(2).
    public var knownChildSensitiveDataConsents: [USConsent]? {
        get {
            for field in [USField.knownChildSensitiveDataConsents, .knownChildSensitiveDataConsent] {
                if let list = self[list: field] { return list.map { USConsent(rawValue: $0 & 3)! } }
                if let value = self[field] { return [USConsent(rawValue: value & 3)!] }
            }
            return nil
        }
        set {
            guard let newValue else { return }
            for field in [USField.knownChildSensitiveDataConsents, .knownChildSensitiveDataConsent] {
                guard let slot = layout.slot(field) else { continue }
                if case .list = slot.type { self[list: field] = newValue.map(\.rawValue) } else {
                    precondition(newValue.count == 1, "\(layout) \(field.rawValue) is one value")
                    self[field] = newValue[0].rawValue
                }
                return
            }
            preconditionFailure("\(layout) has no known-child consents")
        }
    }

    /// `PersonalDataConsents` (usnat, usca).
    public var personalDataConsents: USConsent? {
        get { choice(.personalDataConsents) } set { setChoice(.personalDataConsents, newValue) }
    }
    /// `AdditionalDataProcessingConsent`.
    public var additionalDataProcessingConsent: USConsent? {
        get { choice(.additionalDataProcessingConsent) } set { setChoice(.additionalDataProcessingConsent, newValue) }
    }

    /// `MspaCoveredTransaction`.
    public var mspaCoveredTransaction: USMspaFlag? {
        get { choice(.mspaCoveredTransaction) } set { setChoice(.mspaCoveredTransaction, newValue) }
    }
    /// `MspaOptOutOptionMode`.
    public var mspaOptOutOptionMode: USMspaFlag? {
        get { choice(.mspaOptOutOptionMode) } set { setChoice(.mspaOptOutOptionMode, newValue) }
    }
    /// `MspaServiceProviderMode`.
    public var mspaServiceProviderMode: USMspaFlag? {
        get { choice(.mspaServiceProviderMode) } set { setChoice(.mspaServiceProviderMode, newValue) }
    }
    /// `MspaMode` (usmd, usin, usky, usri).
    public var mspaMode: USMspaMode? { get { choice(.mspaMode) } set { setChoice(.mspaMode, newValue) } }

    /// `Gpc` of the GPC sub-section; nil when the sub-section is absent (or the section has
    /// none). Setting a value includes the sub-section; setting nil removes it.
    public var gpc: Bool? {
        get { self[.gpc].map { $0 == 1 } }
        set {
            guard let slot = layout.slot(.gpc), let subsection = slot.subsection else {
                precondition(newValue == nil, "\(layout) has no GPC sub-section")
                return
            }
            if let newValue { self[.gpc] = newValue ? 1 : 0 } else { setPresent(false, subsection: subsection) }
        }
    }
}
