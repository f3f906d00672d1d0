/// Where a decision taken over from another CMP came from: ConsentKit found that CMP's string
/// in the app's storage at its first start, with no decision of its own, and made it the
/// user's decision (consent is portable between CMPs, "Mobile In-App Consent APIs v1.0").
///
/// While the decision is unchanged, the strings ConsentKit writes for it keep the collecting
/// CMP's id and version (`CmpId`, `CmpVersion`); `IABTCF_CmpSdkID` names ConsentKit, the CMP
/// present now. The decision's ``ConsentState/created`` and ``ConsentState/updated`` are the
/// string's `Created` and `LastUpdated`.
public struct ConsentTakeover: Sendable, Equatable {
    /// The CMP that collected the decision: the string's `CmpId` and `CmpVersion`.
    public let cmp: CMPIdentity
    /// The key the string was read from: `IABKey.tcString` (a TC string) or
    /// `IABKey.consentString` (a v1.1 consent string).
    public let key: String

    /// A takeover of the string stored under `key`, collected by `cmp`.
    public init(cmp: CMPIdentity, key: String) {
        self.cmp = cmp
        self.key = key
    }
}
