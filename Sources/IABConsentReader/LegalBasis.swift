/// The two legal bases the TCF signals for a purpose.
public enum LegalBasis: Sendable, Hashable, CustomStringConvertible {
    /// The user's consent: the purpose's consent and the vendor's consent must both be given.
    case consent
    /// The vendor's legitimate interest: it must have been disclosed for the purpose and for the
    /// vendor, and not objected to.
    case legitimateInterest

    /// `consent` or `legitimate interest`.
    public var description: String {
        switch self {
        case .consent: "consent"
        case .legitimateInterest: "legitimate interest"
        }
    }
}
