/// Whether GDPR applies to the user: the region decision or the publisher's override on the
/// CMP's side, the three states of `IABTCF_gdprApplies` (v2) and `IABConsent_SubjectToGDPR` (v1)
/// on the vendors' side.
public enum GDPRApplicability: String, Sendable, Hashable, Codable, CustomStringConvertible {
    /// GDPR applies (EEA, UK, Switzerland, or forced by the publisher).
    case applies
    /// GDPR does not apply.
    case doesNotApply
    /// Not known yet (no answer and nothing stored): the IAB keys leave it unset.
    case undetermined

    /// `true`, `false` or nil, as consentd's `gdprApplies` and the IAB keys spell it.
    public var flag: Bool? {
        switch self {
        case .applies: true
        case .doesNotApply: false
        case .undetermined: nil
        }
    }

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
    public var description: String { rawValue }

    /// The value for `true`, `false` or nil.
    public init(_ flag: Bool?) {
        self = flag.map { $0 ? .applies : .doesNotApply } ?? .undetermined
    }
}
