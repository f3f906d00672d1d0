import GPP

/// The US state privacy laws that have a section in the IAB's Global Privacy Platform, as the
/// IAB's section specifications encode them (GPP `Sections/Section Information.md` and the
/// state sections; decision record 0031). Shared by the SDK and consentd: the region decision's
/// state picks the law, ``USPrivacySettings/applicability(region:subdivision:)`` the sections.
///
/// Not legal advice: the laws change; the table follows the IAB's sections. What the section
/// itself says (its id, prefix, sub-sections and fields) is read from the GPP module's layout of
/// it, never written twice.
public struct USStatePrivacy: Sendable, Equatable {
    /// The state's two-letter code (``USStateCode``), `CA`.
    public let state: String
    /// The state's GPP section (`usca` … `usri`).
    public let section: GPPSectionID
    /// Whether the law requires honouring Global Privacy Control as an opt-out of sale,
    /// sharing and targeted advertising (CA, CO, CT, TX, MT, NH, NE, NJ, MN, MD, OR, DE).
    /// ConsentKit honours it for every US visitor; this says where it is the law.
    public let gpcRequired: Bool

    /// The GPP section id (8 to 27).
    public var sectionId: Int { section.rawValue }
    /// The section's API prefix (`usca`), as `__gpp`'s `hasSection` and `parsedSections` name it.
    public var apiPrefix: String { section.prefix }
    /// The section's layout as the GPP module writes it now.
    private var layout: USSectionLayout? { USSectionLayout.current(for: section) }
    /// Whether the section has the GPC sub-section (`Gpc`); VA, UT, FL, IN, KY and RI have none.
    public var hasGPCSubsection: Bool {
        layout?.subsections.contains { $0.fields.contains { $0.name == .gpc } } ?? false
    }
    /// How the law treats sensitive data, as its section encodes it.
    public var sensitiveData: SensitiveData {
        guard let layout, layout.core.contains(where: { $0.name == .sensitiveDataProcessing })
            || layout.subsections.contains(where: { $0.fields.contains { $0.name == .sensitiveDataProcessing } })
        else { return .notInSection }
        return layout.sensitiveDataIsOptOut ? .optOut : .consent
    }

    /// How a state's law treats the processing of sensitive data.
    public enum SensitiveData: String, Sendable, Equatable, CaseIterable {
        /// Opt-in consent per category (`SensitiveDataProcessing`: 1 no consent, 2 consent).
        case consent
        /// Notice and opt-out: California's right to limit use, Utah, Iowa
        /// (`SensitiveDataProcessing`: 1 opted out, 2 did not).
        case optOut
        /// The section has no sensitive-data field: Maryland's act forbids selling sensitive data.
        case notInSection
    }

    /// The national section, usnat: the MSPA National Approach, and the fallback where a
    /// state has no section.
    public static let nationalSectionId = GPPSectionID.usnat.rawValue
    /// usnat's API prefix.
    public static let nationalAPIPrefix = GPPSectionID.usnat.prefix

    /// The states with a GPP section, by section id.
    public static let all: [USStatePrivacy] = [
        USStatePrivacy("CA", .usca, gpc: true),
        USStatePrivacy("VA", .usva, gpc: false),
        USStatePrivacy("CO", .usco, gpc: true),
        USStatePrivacy("UT", .usut, gpc: false),
        USStatePrivacy("CT", .usct, gpc: true),
        USStatePrivacy("FL", .usfl, gpc: false),
        USStatePrivacy("MT", .usmt, gpc: true),
        USStatePrivacy("OR", .usor, gpc: true),
        USStatePrivacy("TX", .ustx, gpc: true),
        USStatePrivacy("DE", .usde, gpc: true),
        USStatePrivacy("IA", .usia, gpc: false),
        USStatePrivacy("NE", .usne, gpc: true),
        USStatePrivacy("NH", .usnh, gpc: true),
        USStatePrivacy("NJ", .usnj, gpc: true),
        USStatePrivacy("TN", .ustn, gpc: false),
        USStatePrivacy("MN", .usmn, gpc: true),
        USStatePrivacy("MD", .usmd, gpc: true),
        USStatePrivacy("IN", .usin, gpc: false),
        USStatePrivacy("KY", .usky, gpc: false),
        USStatePrivacy("RI", .usri, gpc: false),
    ]

    private static let byState = Dictionary(uniqueKeysWithValues: all.map { ($0.state, $0) })

    /// The law of `state` (a ``USStateCode``, either case); nil for a state without a GPP section.
    public static func law(of state: String) -> USStatePrivacy? {
        byState[state.uppercased()]
    }

    private init(_ state: String, _ section: GPPSectionID, gpc: Bool) {
        self.state = state
        self.section = section
        self.gpcRequired = gpc
    }
}
