/// The field layout of one US section: its core fields and optional sub-sections, in the order
/// and with the types the IAB section spec gives. One table per section drives the one decoder
/// and the one encoder of ``USSection``.
public final class USSectionLayout: Sendable, CustomStringConvertible {
    /// A field's GPP data type.
    public enum FieldType: Sendable, Equatable {
        /// Int(n).
        case integer(bits: Int)
        /// Boolean, 1 = true.
        case boolean
        /// N-Bitfield(2, count): `count` 2-bit values.
        case list(count: Int)
    }

    /// One field: its spec name and type.
    public struct Field: Sendable, Equatable {
        /// The field, named as the spec spells it.
        public let name: USField
        /// Its data type.
        public let type: FieldType
    }

    /// An optional sub-section, written after the core behind a `.`.
    public struct Subsection: Sendable, Equatable {
        /// The sub-section's id: 1 for GPC and for the sensitive-data sub-section of usin, usky
        /// and usri.
        public let id: Int
        /// Whether the sub-section starts with `SubsectionType` Int(2) holding ``id`` (GPC does;
        /// the sensitive-data sub-section does not).
        public let startsWithType: Bool
        /// Its fields after the type.
        public let fields: [Field]
    }

    /// The section this layout is for.
    public let section: GPPSectionID
    /// A name for people and errors, like `usnat` or `usnat (v1 layout)`.
    public let name: String
    /// The core sub-section's fields, in string order.
    public let core: [Field]
    /// The optional sub-sections.
    public let subsections: [Subsection]
    /// Whether the spec puts a section header (`SectionID`, `Version`, `SubSections`) before the
    /// core (usmd, usin, usky, usri; see docs/decisions/0028-gpp-codec.md).
    public let hasSectionHeader: Bool
    /// Whether `SensitiveDataProcessing` holds opt-outs (usca's limit-use, usut, usia) rather
    /// than consents.
    public let sensitiveDataIsOptOut: Bool

    /// Where each field's value lives in a section's storage: one slot per value, `count` for a
    /// list.
    let slots: [(field: USField, offset: Int, type: FieldType, subsection: Int?)]
    /// The number of slots.
    let slotCount: Int
    /// How the decoder reads the core: one width per slot.
    let coreReading: Reading
    /// How the decoder reads each sub-section after its type, in ``subsections`` order.
    let subsectionReadings: [Reading]

    /// A run of fields as the decoder reads them: the bit width of each value, in string order,
    /// to go into the slots from ``offset`` on, so that a part that is all there is cut out of
    /// 64-bit words without looking at its fields' types.
    struct Reading: Sendable {
        /// The first slot.
        let offset: Int
        /// Each value's width in bits (a list's values 2 each).
        let widths: [UInt8]
        /// The sum of ``widths``.
        let bitCount: Int

        init(_ fields: [Field], offset: Int) {
            self.offset = offset
            widths = fields.flatMap { field -> [UInt8] in
                switch field.type {
                case .integer(let bits): [UInt8(bits)]
                case .boolean: [1]
                case .list(let count): Array(repeating: 2, count: count)
                }
            }
            bitCount = widths.reduce(0) { $0 + Int($1) }
        }
    }

    private init(
        _ section: GPPSectionID, name: String? = nil, core: [Field], subsections: [Subsection],
        hasSectionHeader: Bool = false, sensitiveDataIsOptOut: Bool = false
    ) {
        self.section = section
        self.name = name ?? section.prefix
        self.core = core
        self.subsections = subsections
        self.hasSectionHeader = hasSectionHeader
        self.sensitiveDataIsOptOut = sensitiveDataIsOptOut
        var slots: [(field: USField, offset: Int, type: FieldType, subsection: Int?)] = []
        var offset = 0
        let all = core.map { ($0, Int?.none) } + subsections.indices.flatMap { index in subsections[index].fields.map { ($0, Int?.some(index)) } }
        for (field, subsection) in all {
            slots.append((field.name, offset, field.type, subsection))
            if case .list(let count) = field.type { offset += count } else { offset += 1 }
        }
        self.slots = slots
        slotCount = offset
        coreReading = Reading(core, offset: 0)
        subsectionReadings = subsections.indices.map { index in
            Reading(subsections[index].fields, offset: slots.first { $0.subsection == index }?.offset ?? offset)
        }
    }

    /// The layout's name.
    public var description: String { name }

    /// The slot of `field`, if the layout has it.
    @inline(__always)
    func slot(_ field: USField) -> (offset: Int, type: FieldType, subsection: Int?)? {
        for slot in slots where slot.field == field { return (slot.offset, slot.type, slot.subsection) }
        return nil
    }

    /// The layout new values of `section` get: the current one (for usnat, the v2 layout).
    public static func current(for section: GPPSectionID) -> USSectionLayout? {
        currentById[section.rawValue]
    }

    /// ``current(for:)`` by section id: the first layout of ``all`` for each id, nil for the others.
    private static let currentById: [USSectionLayout?] = (0...GPPSectionID.allCases.map(\.rawValue).max()!).map { id in
        all.first { $0.section.rawValue == id }
    }

    // MARK: The tables

    private static func int2(_ name: USField) -> Field { Field(name: name, type: .integer(bits: 2)) }
    private static func list(_ name: USField, _ count: Int) -> Field { Field(name: name, type: .list(count: count)) }
    private static let version = Field(name: .version, type: .integer(bits: 6))
    private static let mspa = [int2(.mspaCoveredTransaction), int2(.mspaOptOutOptionMode), int2(.mspaServiceProviderMode)]
    private static let gpc = [Subsection(id: 1, startsWithType: true, fields: [Field(name: .gpc, type: .boolean)])]
    /// The core of the state sections that follow the Florida pattern: processing notice, the
    /// two opt-outs with their notices, sensitive data, known child, additional processing.
    private static func processingCore(sensitive: Int, knownChild: Field) -> [Field] {
        [version, int2(.processingNotice), int2(.saleOptOutNotice), int2(.targetedAdvertisingOptOutNotice),
         int2(.saleOptOut), int2(.targetedAdvertisingOptOut), list(.sensitiveDataProcessing, sensitive), knownChild,
         int2(.additionalDataProcessingConsent)] + mspa
    }
    /// The core of usmd, usin, usky and usri after the section header.
    private static func mspaModeCore(knownChild: Bool) -> [Field] {
        [Field(name: .mspaVersion, type: .integer(bits: 6)), int2(.mspaCoveredTransaction), int2(.mspaMode),
         int2(.processingNotice), int2(.saleOptOutNotice), int2(.targetedAdvertisingOptOutNotice),
         int2(.saleOptOut), int2(.targetedAdvertisingOptOut)]
            + (knownChild ? [int2(.knownChildSensitiveDataConsents)] : []) + [int2(.additionalDataProcessingConsent)]
    }
    private static let sensitiveSubsection = [Subsection(id: 1, startsWithType: false, fields: [list(.sensitiveDataProcessing, 8)])]

    private static func usnatCore(sensitive: Int, knownChild: Int) -> [Field] {
        [version, int2(.sharingNotice), int2(.saleOptOutNotice), int2(.sharingOptOutNotice),
         int2(.targetedAdvertisingOptOutNotice), int2(.sensitiveDataProcessingOptOutNotice),
         int2(.sensitiveDataLimitUseNotice), int2(.saleOptOut), int2(.sharingOptOut), int2(.targetedAdvertisingOptOut),
         list(.sensitiveDataProcessing, sensitive), list(.knownChildSensitiveDataConsents, knownChild),
         int2(.personalDataConsents)] + mspa
    }

    /// usnat, v2 layout (Oct 2024): 16 sensitive-data categories and 3 known-child entries, 70 bits.
    public static let usnat = USSectionLayout(.usnat, core: usnatCore(sensitive: 16, knownChild: 3), subsections: gpc)
    /// usnat, v1 layout (Dec 2022): 12 and 2 entries, 60 bits. Chosen by bit length when
    /// decoding, whatever the `Version` field says.
    public static let usnatVersion1 = USSectionLayout(
        .usnat, name: "usnat (v1 layout)", core: usnatCore(sensitive: 12, knownChild: 2), subsections: gpc)
    /// usca: California.
    public static let usca = USSectionLayout(.usca, core: [
        version, int2(.saleOptOutNotice), int2(.sharingOptOutNotice), int2(.sensitiveDataLimitUseNotice),
        int2(.saleOptOut), int2(.sharingOptOut), list(.sensitiveDataProcessing, 9), list(.knownChildSensitiveDataConsents, 2),
        int2(.personalDataConsents)] + mspa, subsections: gpc, sensitiveDataIsOptOut: true)
    /// usva: Virginia (no GPC sub-section).
    public static let usva = USSectionLayout(.usva, core: [
        version, int2(.sharingNotice), int2(.saleOptOutNotice), int2(.targetedAdvertisingOptOutNotice),
        int2(.saleOptOut), int2(.targetedAdvertisingOptOut), list(.sensitiveDataProcessing, 8),
        int2(.knownChildSensitiveDataConsents)] + mspa, subsections: [])
    /// usco: Colorado.
    public static let usco = USSectionLayout(.usco, core: [
        version, int2(.sharingNotice), int2(.saleOptOutNotice), int2(.targetedAdvertisingOptOutNotice),
        int2(.saleOptOut), int2(.targetedAdvertisingOptOut), list(.sensitiveDataProcessing, 7),
        int2(.knownChildSensitiveDataConsents)] + mspa, subsections: gpc)
    /// usut: Utah (no GPC sub-section; sensitive data is an opt-out).
    public static let usut = USSectionLayout(.usut, core: [
        version, int2(.sharingNotice), int2(.saleOptOutNotice), int2(.targetedAdvertisingOptOutNotice),
        int2(.sensitiveDataProcessingOptOutNotice), int2(.saleOptOut), int2(.targetedAdvertisingOptOut),
        list(.sensitiveDataProcessing, 8), int2(.knownChildSensitiveDataConsents)] + mspa,
        subsections: [], sensitiveDataIsOptOut: true)
    /// usct: Connecticut.
    public static let usct = USSectionLayout(.usct, core: [
        version, int2(.sharingNotice), int2(.saleOptOutNotice), int2(.targetedAdvertisingOptOutNotice),
        int2(.saleOptOut), int2(.targetedAdvertisingOptOut), list(.sensitiveDataProcessing, 8),
        list(.knownChildSensitiveDataConsents, 3)] + mspa, subsections: gpc)
    /// usfl: Florida (no GPC sub-section).
    public static let usfl = USSectionLayout(
        .usfl, core: processingCore(sensitive: 8, knownChild: list(.knownChildSensitiveDataConsents, 3)), subsections: [])
    /// usmt: Montana (a sharing notice where the later states have a processing notice).
    public static let usmt = USSectionLayout(.usmt, core: [
        version, int2(.sharingNotice), int2(.saleOptOutNotice), int2(.targetedAdvertisingOptOutNotice),
        int2(.saleOptOut), int2(.targetedAdvertisingOptOut), list(.sensitiveDataProcessing, 8),
        list(.knownChildSensitiveDataConsents, 3), int2(.additionalDataProcessingConsent)] + mspa, subsections: gpc)
    /// usor: Oregon.
    public static let usor = USSectionLayout(
        .usor, core: processingCore(sensitive: 11, knownChild: list(.knownChildSensitiveDataConsents, 3)), subsections: gpc)
    /// ustx: Texas.
    public static let ustx = USSectionLayout(
        .ustx, core: processingCore(sensitive: 8, knownChild: int2(.knownChildSensitiveDataConsents)), subsections: gpc)
    /// usde: Delaware.
    public static let usde = USSectionLayout(
        .usde, core: processingCore(sensitive: 9, knownChild: list(.knownChildSensitiveDataConsents, 5)), subsections: gpc)
    /// usia: Iowa (sensitive data is an opt-out, with its own notice; no additional-processing consent).
    public static let usia = USSectionLayout(.usia, core: [
        version, int2(.processingNotice), int2(.saleOptOutNotice), int2(.targetedAdvertisingOptOutNotice),
        int2(.sensitiveDataOptOutNotice), int2(.saleOptOut), int2(.targetedAdvertisingOptOut),
        list(.sensitiveDataProcessing, 8), int2(.knownChildSensitiveDataConsents)] + mspa,
        subsections: gpc, sensitiveDataIsOptOut: true)
    /// usne: Nebraska.
    public static let usne = USSectionLayout(
        .usne, core: processingCore(sensitive: 8, knownChild: int2(.knownChildSensitiveDataConsents)), subsections: gpc)
    /// usnh: New Hampshire.
    public static let usnh = USSectionLayout(
        .usnh, core: processingCore(sensitive: 8, knownChild: list(.knownChildSensitiveDataConsents, 3)), subsections: gpc)
    /// usnj: New Jersey.
    public static let usnj = USSectionLayout(
        .usnj, core: processingCore(sensitive: 10, knownChild: list(.knownChildSensitiveDataConsents, 5)), subsections: gpc)
    /// ustn: Tennessee (`KnownChildSensitiveDataConsent`, singular, as its table spells it).
    public static let ustn = USSectionLayout(
        .ustn, core: processingCore(sensitive: 8, knownChild: int2(.knownChildSensitiveDataConsent)), subsections: gpc)
    /// usmn: Minnesota.
    public static let usmn = USSectionLayout(
        .usmn, core: processingCore(sensitive: 8, knownChild: int2(.knownChildSensitiveDataConsents)), subsections: gpc)
    /// usmd: Maryland (section header, `MspaMode`, no sensitive data, GPC sub-section).
    public static let usmd = USSectionLayout(
        .usmd, core: mspaModeCore(knownChild: false), subsections: gpc, hasSectionHeader: true)
    /// usin: Indiana (section header, sensitive data in sub-section 1, no GPC).
    public static let usin = USSectionLayout(
        .usin, core: mspaModeCore(knownChild: true), subsections: sensitiveSubsection, hasSectionHeader: true)
    /// usky: Kentucky (as usin).
    public static let usky = USSectionLayout(
        .usky, core: mspaModeCore(knownChild: true), subsections: sensitiveSubsection, hasSectionHeader: true)
    /// usri: Rhode Island (as usin).
    public static let usri = USSectionLayout(
        .usri, core: mspaModeCore(knownChild: true), subsections: sensitiveSubsection, hasSectionHeader: true)

    /// Every layout, the current one of each section first.
    public static let all: [USSectionLayout] = [
        usnat, usca, usva, usco, usut, usct, usfl, usmt, usor, ustx, usde, usia, usne, usnh, usnj, ustn, usmn,
        usmd, usin, usky, usri, usnatVersion1,
    ]
}
