/// Whether GDPR applies to the user: the region decision, or the publisher's override.
public enum GDPRApplicability: String, Sendable, Equatable, Codable {
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

    /// The value for `true`, `false` or nil.
    public init(_ flag: Bool?) {
        self = flag.map { $0 ? .applies : .doesNotApply } ?? .undetermined
    }
}
