/// A publisher's or website's settings for US visitors (the `us:` block of consentd's
/// publishers.yaml): whether it signed the IAB's Multi-State Privacy Agreement for its
/// transactions, in which mode, and whether it signals the national or the state sections.
/// ``applicability(region:subdivision:)`` turns them and a region decision into the GPP
/// sections in force (decision record 0031).
public struct USPrivacySettings: Sendable, Equatable {
    /// Whether transactions are MSPA covered (`MspaCoveredTransaction`).
    public var mspaCoveredTransaction: Bool
    /// The covered transactions' mode; nil exactly when not covered.
    public var mspaMode: GPPApplicability.MSPAMode?
    /// Which sections a US visitor gets when transactions are not covered.
    public var approach: Approach

    /// The sections a publisher signals; the raw values are publishers.yaml's.
    public enum Approach: String, Sendable, Equatable, CaseIterable {
        /// usnat for every US visitor (the MSPA "National Approach").
        case national
        /// The visitor's state's section, usnat where the state has none.
        case state
    }

    /// Settings; `mspaMode` is ignored unless `mspaCoveredTransaction`.
    public init(mspaCoveredTransaction: Bool = false, mspaMode: GPPApplicability.MSPAMode? = nil, approach: Approach = .state) {
        self.mspaCoveredTransaction = mspaCoveredTransaction
        self.mspaMode = mspaCoveredTransaction ? mspaMode : nil
        self.approach = approach
    }

    /// The default: not covered, state approach.
    public static let standard = USPrivacySettings()

    /// The settings of several publishers asked for together (an app's, or a website's):
    /// covered when any is (its transactions are), in Opt-Out Option Mode when any covered one
    /// is (someone sells, shares or targets, so the visitor gets the opt-outs), the national
    /// approach when any asks for it (usnat meets every state's law). No settings: ``standard``.
    public static func combined(_ settings: [USPrivacySettings]) -> USPrivacySettings {
        let covered = settings.filter(\.mspaCoveredTransaction)
        let mode: GPPApplicability.MSPAMode? =
            covered.isEmpty ? nil : covered.contains { $0.mspaMode == .optOut } ? .optOut : .serviceProvider
        return USPrivacySettings(mspaCoveredTransaction: !covered.isEmpty, mspaMode: mode,
                                 approach: settings.contains { $0.approach == .national } ? .national : .state)
    }

    /// The GPP sections in force for a visitor in `region` and US state `subdivision`, with
    /// these settings' MSPA fields: outside the US (or the region unknown) none; a covered
    /// transaction or the national approach usnat [7]; else the state's section when it has one
    /// ([8] for CA), usnat where it has none or the state is unknown (c15t's rule; the notes'
    /// §4: each state section is used only where its law applies, usnat meets them all).
    public func applicability(region: AppConfig.Region, subdivision: String?) -> GPPApplicability {
        guard region == .us else {
            return GPPApplicability(applicableSections: [], mspaCoveredTransaction: mspaCoveredTransaction, mspaMode: mspaMode)
        }
        let national = mspaCoveredTransaction || approach == .national
        let state = national ? nil : subdivision.flatMap(USStatePrivacy.law(of:))
        return GPPApplicability(applicableSections: [state?.sectionId ?? USStatePrivacy.nationalSectionId],
                                mspaCoveredTransaction: mspaCoveredTransaction, mspaMode: mspaMode)
    }
}
