/// Whether the GDPR applies to this user in this context, as the CMP decided it: the three
/// states of `IABTCF_gdprApplies` (v2) and `IABConsent_SubjectToGDPR` (v1).
public enum GDPRApplicability: Sendable, Hashable, CustomStringConvertible {
    /// The key holds 1: the GDPR applies, and vendors must find a legal basis in the signals.
    case applies
    /// The key holds 0: the GDPR does not apply in the publisher's view.
    case doesNotApply
    /// The key is unset (the CMP has not decided yet) or holds something unreadable.
    case undetermined

    /// The value of the `{gdpr}` and `${GDPR}` macros and of a `gdpr` URL parameter: `"1"`,
    /// `"0"`, or empty when undetermined (the specs' "unset").
    public var macroValue: String {
        switch self {
        case .applies: "1"
        case .doesNotApply: "0"
        case .undetermined: ""
        }
    }

    /// `applies`, `doesNotApply` or `undetermined`.
    public var description: String {
        switch self {
        case .applies: "applies"
        case .doesNotApply: "doesNotApply"
        case .undetermined: "undetermined"
        }
    }
}
