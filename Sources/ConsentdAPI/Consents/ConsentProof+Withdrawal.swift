extension ConsentProof.Method {
    /// Whether an event made this way takes the subject's decision back instead of recording
    /// one (``withdrawal``, ``underAge``): it carries no consent, only its proof, and the
    /// subject has no decision from it on (docs/consentd-api.md, "Withdrawal events").
    public var isWithdrawal: Bool {
        self == .withdrawal || self == .underAge
    }
}
