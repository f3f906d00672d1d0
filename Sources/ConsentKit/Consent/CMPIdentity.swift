/// Who writes the strings: the CMP's id in the IAB's CMP list and its version, as `CmpId` /
/// `CmpVersion` in every string and `IABTCF_CmpSdkID` / `IABTCF_CmpSdkVersion` in storage.
///
/// The id belongs to whoever registered the CMP with the IAB: for ConsentKit, the operator of
/// consentd, who sets it once (`consentd --cmp-id`) and hands it to every app in `/v1/config`;
/// the SDK keeps it across launches. Until an app has one, it writes ``development``, and says
/// so in the log.
public struct CMPIdentity: Sendable, Equatable {
    /// The CMP's registered id (2-4095).
    public let cmpId: Int
    /// The CMP's version (0-4095).
    public let cmpVersion: Int

    /// An identity; the id is the one the IAB registered for the CMP.
    public init(cmpId: Int, cmpVersion: Int) {
        self.cmpId = cmpId
        self.cmpVersion = cmpVersion
    }

    /// The identity used before a registered one is known: id 4095, the largest the 12-bit field
    /// holds and one the IAB has not assigned, so vendors that check the CMP list treat strings
    /// carrying it as coming from no registered CMP. Never ship with it.
    public static let development = CMPIdentity(cmpId: 4095, cmpVersion: 1)

    /// Whether this is ``development``.
    public var isDevelopment: Bool { cmpId == Self.development.cmpId }
}
