/// Whether a vendor may process personal data for a purpose (or use a special feature), and
/// why: the ground it may rely on, or the rule that refused it.
///
/// Made by ``IABConsentSnapshot/decision(for:purpose:)`` and
/// ``IABConsentSnapshot/decision(for:specialFeature:)``; print one to see the reason.
public enum ProcessingDecision: Sendable, Hashable, CustomStringConvertible {
    /// Processing is allowed on this ground.
    case allowed(Ground)
    /// Processing is not allowed, for this reason.
    case refused(RefusalReason)

    /// What an allowed decision rests on.
    public enum Ground: Sendable, Hashable {
        /// The GDPR does not apply (`gdprApplies` is 0), so no TCF signal is needed.
        case gdprDoesNotApply
        /// The legal basis whose purpose and vendor signals are both positive.
        case legalBasis(LegalBasis)
        /// The user opted in to the special feature, which the vendor declared.
        case specialFeatureOptIn
    }

    /// Whether processing is allowed.
    public var isAllowed: Bool {
        if case .allowed = self { return true }
        return false
    }

    /// `allowed (consent)`, `refused: no vendor consent`, ...
    public var description: String {
        switch self {
        case .allowed(.gdprDoesNotApply): "allowed (the GDPR does not apply)"
        case .allowed(.legalBasis(let basis)): "allowed (\(basis))"
        case .allowed(.specialFeatureOptIn): "allowed (special feature opt-in)"
        case .refused(let reason): "refused: \(reason)"
        }
    }
}
