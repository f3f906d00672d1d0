import Foundation
import TCF

extension ConsentState {
    /// The TCF policy version a decision taken over from a v1.1 string carries: 1, older than
    /// any v2 list's, so ``AskRules`` asks the user again as soon as a list is held.
    public static let version1PolicyVersion = 1

    /// The decision a v1.1 consent string records, for a takeover of another CMP's
    /// `IABConsent_ConsentString`: its vendor consents and dates as they are; a v2 purpose is
    /// consented when every v1 purpose that stands for it (``version1Purposes``) is allowed;
    /// no legitimate interests, special features or disclosed vendors (v1 has none).
    ///
    /// TCF v1 consent was collected under a retired policy, so the decision carries
    /// ``version1PolicyVersion`` and the ask rules treat it as made under an older policy.
    public init(consentStringV1 string: ConsentStringV1, takenOver: ConsentTakeover?) {
        var purposes: [Int] = []
        for purpose in Set(Self.version1Purposes.values.flatMap { $0 }) {
            let standingFor = Self.version1Purposes.filter { $0.value.contains(purpose) }.keys
            if standingFor.allSatisfy(string.purposesAllowed.contains) { purposes.append(purpose) }
        }
        self.init(
            purposeConsents: IDSet(purposes), vendorConsents: string.vendorConsents, vendorListVersion: string.vendorListVersion,
            tcfPolicyVersion: Self.version1PolicyVersion, consentScreen: string.consentScreen,
            consentLanguage: string.consentLanguage, created: string.created.date, updated: string.lastUpdated.date,
            takenOver: takenOver)
    }
}
