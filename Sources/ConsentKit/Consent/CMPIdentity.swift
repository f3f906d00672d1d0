/// Who writes the strings: the CMP's id in the IAB's CMP list and its version, as `CmpId` /
/// `CmpVersion` in every string and `IABTCF_CmpSdkID` / `IABTCF_CmpSdkVersion` in storage.
public struct CMPIdentity: Sendable, Equatable {
    /// The CMP's registered id (1-4095).
    public let cmpId: Int
    /// The CMP's version (0-4095).
    public let cmpVersion: Int

    /// An identity; the id is the one the IAB registered for the CMP.
    public init(cmpId: Int, cmpVersion: Int) {
        self.cmpId = cmpId
        self.cmpVersion = cmpVersion
    }
}
