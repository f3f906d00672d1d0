/// The US state privacy laws that have a section in the IAB's Global Privacy Platform, as the
/// IAB's section specifications encode them (GPP `Sections/Section Information.md` and the
/// state sections; decision record 0031). Shared by the SDK and consentd: the region decision's
/// state picks the law, ``USPrivacySettings/applicability(region:subdivision:)`` the sections.
///
/// Not legal advice: the laws change; the table follows the IAB's sections.
public struct USStatePrivacy: Sendable, Equatable {
    /// The state's two-letter code (``USStateCode``), `CA`.
    public let state: String
    /// The GPP section id (8 to 27).
    public let sectionId: Int
    /// The section's API prefix (`usca`), as `__gpp`'s `hasSection` and `parsedSections` name it.
    public let apiPrefix: String
    /// Whether the law requires honouring Global Privacy Control as an opt-out of sale,
    /// sharing and targeted advertising (CA, CO, CT, TX, MT, NH, NE, NJ, MN, MD, OR, DE).
    /// ConsentKit honours it for every US visitor; this says where it is the law.
    public let gpcRequired: Bool
    /// Whether the section has the GPC sub-section (`Gpc`); VA, UT, FL, IN, KY and RI have none.
    public let hasGPCSubsection: Bool
    /// How the law treats sensitive data.
    public let sensitiveData: SensitiveData

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
    public static let nationalSectionId = 7
    /// usnat's API prefix.
    public static let nationalAPIPrefix = "usnat"

    /// The states with a GPP section, by section id.
    public static let all: [USStatePrivacy] = [
        USStatePrivacy("CA", 8, "usca", gpc: true, sensitive: .optOut),
        USStatePrivacy("VA", 9, "usva", gpc: false, subsection: false, sensitive: .consent),
        USStatePrivacy("CO", 10, "usco", gpc: true, sensitive: .consent),
        USStatePrivacy("UT", 11, "usut", gpc: false, subsection: false, sensitive: .optOut),
        USStatePrivacy("CT", 12, "usct", gpc: true, sensitive: .consent),
        USStatePrivacy("FL", 13, "usfl", gpc: false, subsection: false, sensitive: .consent),
        USStatePrivacy("MT", 14, "usmt", gpc: true, sensitive: .consent),
        USStatePrivacy("OR", 15, "usor", gpc: true, sensitive: .consent),
        USStatePrivacy("TX", 16, "ustx", gpc: true, sensitive: .consent),
        USStatePrivacy("DE", 17, "usde", gpc: true, sensitive: .consent),
        USStatePrivacy("IA", 18, "usia", gpc: false, sensitive: .optOut),
        USStatePrivacy("NE", 19, "usne", gpc: true, sensitive: .consent),
        USStatePrivacy("NH", 20, "usnh", gpc: true, sensitive: .consent),
        USStatePrivacy("NJ", 21, "usnj", gpc: true, sensitive: .consent),
        USStatePrivacy("TN", 22, "ustn", gpc: false, sensitive: .consent),
        USStatePrivacy("MN", 23, "usmn", gpc: true, sensitive: .consent),
        USStatePrivacy("MD", 24, "usmd", gpc: true, sensitive: .notInSection),
        USStatePrivacy("IN", 25, "usin", gpc: false, subsection: false, sensitive: .consent),
        USStatePrivacy("KY", 26, "usky", gpc: false, subsection: false, sensitive: .consent),
        USStatePrivacy("RI", 27, "usri", gpc: false, subsection: false, sensitive: .consent),
    ]

    private static let byState = Dictionary(uniqueKeysWithValues: all.map { ($0.state, $0) })

    /// The law of `state` (a ``USStateCode``, either case); nil for a state without a GPP section.
    public static func law(of state: String) -> USStatePrivacy? {
        byState[state.uppercased()]
    }

    private init(_ state: String, _ sectionId: Int, _ apiPrefix: String, gpc: Bool, subsection: Bool = true, sensitive: SensitiveData) {
        self.state = state
        self.sectionId = sectionId
        self.apiPrefix = apiPrefix
        self.gpcRequired = gpc
        self.hasGPCSubsection = subsection
        self.sensitiveData = sensitive
    }
}
