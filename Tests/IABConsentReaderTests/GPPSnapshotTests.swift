import GPP
import IABStorage
import Testing
@testable import IABConsentReader

/// The GPP keys as a vendor SDK reads them: the string decoded, the sections in force.
@Suite("GPP keys in a snapshot")
struct GPPSnapshotTests {
    @Test("IABGPP_HDR_GppString decodes to its sections; IABGPP_GppSID lists the ids in force")
    func readsTheStringAndTheIdsInForce() throws {
        let text = "DBABL~BVQqAAAAAg"  // usnat, v1 layout, as Google's UMP writes it
        let snapshot = IABConsentSnapshot(values: [IABKey.gppString: .string(text), IABKey.gppApplicableSections: .string("7")])
        #expect(snapshot.gppString == (try GPPString(decoding: text)))
        #expect(snapshot.gppString?.usnat != nil)
        #expect(snapshot.gppApplicableSections == [7])
        #expect(snapshot.malformedKeys.isEmpty)
    }

    @Test("several ids and -1 are read as written")
    func idLists() {
        #expect(IABConsentSnapshot(values: [IABKey.gppApplicableSections: .string("7_8")]).gppApplicableSections == [7, 8])
        #expect(IABConsentSnapshot(values: [IABKey.gppApplicableSections: .string("-1")]).gppApplicableSections == [-1])
        #expect(IABConsentSnapshot(values: [:]).gppApplicableSections == [] && IABConsentSnapshot(values: [:]).gppString == nil)
    }

    @Test("a GPP string that does not decode, or ids that are not numbers, are no signal and are named")
    func malformed() {
        let snapshot = IABConsentSnapshot(values: [
            IABKey.gppString: .string("CPXxRfAPXxRfAAfKABENB"), IABKey.gppApplicableSections: .string("7_x"),
        ])
        #expect(snapshot.gppString == nil && snapshot.gppApplicableSections == [])
        #expect(snapshot.malformedKeys == [IABKey.gppString, IABKey.gppApplicableSections])
        let typed = IABConsentSnapshot(values: [IABKey.gppApplicableSections: .integer(7)])
        #expect(typed.gppApplicableSections == [] && typed.malformedKeys == [IABKey.gppApplicableSections])
    }
}
