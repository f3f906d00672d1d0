import Foundation
import GPP

/// What the store keeps and publishes for US state privacy: the user's ``USPrivacyChoice`` (the
/// CMP's own record), the US GPP sections it and the signals imply, and Google's restricted data
/// processing flag (`gad_rdp`). Written with the TCF keys in one store write; nothing outside the
/// US (decision record 0032).
public struct USPrivacyKeys: Sendable, Equatable {
    /// The user's choice; nil when they have not answered the US notice.
    public var choice: USPrivacyChoice?
    /// The sections in force: the region decision's (``AppConfig/gpp``) in a US region,
    /// ``GPPApplicability/notApplicable`` elsewhere.
    public var applicability: GPPApplicability
    /// GPC and a known child.
    public var signals: USPrivacySignals

    /// The keys of a choice (nil: none yet) under `applicability` with `signals`.
    public init(choice: USPrivacyChoice?, applicability: GPPApplicability, signals: USPrivacySignals) {
        self.choice = choice
        self.applicability = applicability
        self.signals = signals
    }

    /// Nothing in force, no choice.
    public static let none = USPrivacyKeys(choice: nil, applicability: .notApplicable, signals: .none)

    /// The US GPP sections in force (``USPrivacyChoice/gppSections(of:applicability:signals:)``).
    public var sections: [GPPSection] { USPrivacyChoice.gppSections(of: choice, applicability: applicability, signals: signals) }

    /// Whether a US section is in force.
    public var applies: Bool { applicability.applicableSections.contains { GPPSectionID(rawValue: $0)?.isUS == true } }

    /// Whether the user is opted out of sale, sharing or targeted advertising where a US section is
    /// in force: by the choice, by GPC, or as a known child. Google's restricted data processing
    /// (`gad_rdp`) and Consent Mode's `ad_user_data` and `ad_personalization` follow it.
    public var optsOut: Bool { applies && (choice?.optsOutOfAds == true || signals.gpc || signals.knownChild) }
}
