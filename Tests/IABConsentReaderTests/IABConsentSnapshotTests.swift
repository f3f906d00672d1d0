import Foundation
import Testing
import TCF
@testable import IABConsentReader

@Suite("Reading the IAB keys into a snapshot")
struct IABConsentSnapshotTests {
    @Test("a snapshot reads the v2 keys a CMP wrote with the spec's types")
    func readsVersion2Keys() throws {
        var keys = v2Keys(
            purposeConsents: [1, 2, 3], purposeLegitimateInterests: [2, 7], vendorConsents: [4, 7],
            vendorLegitimateInterests: [7, 9], specialFeatureOptIns: [2], restrictions: [2: "_10"])
        keys[IABKey.tcString] = "CQSbk4AQSbk4ANwAAAENAwCgAAAAAAAAAAYgACPAAAAA.IDKQA4AAgAKAGQAygAAA"
        keys[IABKey.disclosedVendors] = bits([4, 7, 9], length: 9)
        keys[IABKey.publisherConsent] = bits([1])
        let snapshot = try snapshot(of: keys)
        #expect(snapshot.source == .version2)
        #expect(snapshot.gdprApplies == .applies)
        #expect(snapshot.cmpPresent)
        #expect(snapshot.cmpSdkID == 300)
        #expect(snapshot.policyVersion == 5)
        #expect(snapshot.publisherCC == "DE")
        #expect(snapshot.tcString == "CQSbk4AQSbk4ANwAAAENAwCgAAAAAAAAAAYgACPAAAAA.IDKQA4AAgAKAGQAygAAA")
        #expect(snapshot.purposeConsents == [1, 2, 3])
        #expect(snapshot.purposeLegitimateInterests == [2, 7])
        #expect(snapshot.vendorConsents == [4, 7])
        #expect(snapshot.vendorLegitimateInterests == [7, 9])
        #expect(snapshot.disclosedVendors == [4, 7, 9])
        #expect(snapshot.specialFeatureOptIns == [2])
        #expect(snapshot.publisherConsents == [1])
        #expect(snapshot.restrictionType(vendorId: 2, purposeId: 2) == .requireConsent)
        #expect(snapshot.restrictionType(vendorId: 3, purposeId: 2) == .notAllowed)
        #expect(snapshot.restrictionType(vendorId: 1, purposeId: 2) == nil)
        #expect(snapshot.malformedKeys.isEmpty)
    }

    @Test("a snapshot reads every key in one call to the store")
    func oneRead() throws {
        try withTestSuite { _, store in
            cmpWrites(everySignal(restrictions: [2: "1"]), to: store)
            let counting = CountingStore(store)
            _ = IABConsentReader(store: counting).snapshot()
            #expect(counting.reads.withLock { $0 } == 1)
        }
    }

    @Test("no IAB key at all reads as no CMP, GDPR undetermined and no signal")
    func nothingStored() throws {
        let snapshot = try snapshot(of: [:])
        #expect(snapshot.source == .none)
        #expect(snapshot.gdprApplies == .undetermined)
        #expect(!snapshot.cmpPresent)
        #expect(snapshot.vendorConsents.isEmpty)
        #expect(snapshot.consentString == nil)
    }

    @Test("IABTCF_gdprApplies 1 applies, 0 does not apply, unset is undetermined", arguments: [
        (1, GDPRApplicability.applies), (0, .doesNotApply), (nil, .undetermined),
    ] as [(Int?, GDPRApplicability)])
    func gdprAppliesStates(stored: Int?, expected: GDPRApplicability) throws {
        var keys = everySignal()
        keys[IABKey.gdprApplies] = stored
        #expect(try snapshot(of: keys).gdprApplies == expected)
    }

    @Test("IABTCF_gdprApplies written as a string or a Bool reads like the number", arguments: [
        ("1", GDPRApplicability.applies), (true, .applies), ("0", .doesNotApply), (false, .doesNotApply),
    ] as [(any Sendable, GDPRApplicability)])
    func gdprAppliesLenient(stored: any Sendable, expected: GDPRApplicability) throws {
        var keys = everySignal()
        keys[IABKey.gdprApplies] = stored
        let snapshot = try snapshot(of: keys)
        #expect(snapshot.gdprApplies == expected)
        #expect(snapshot.malformedKeys.isEmpty)
    }

    @Test("an IABTCF_gdprApplies that is neither 0 nor 1 is undetermined and reported", arguments: [
        2, "yes", "",
    ] as [any Sendable])
    func gdprAppliesMalformed(stored: any Sendable) throws {
        var keys = everySignal()
        keys[IABKey.gdprApplies] = stored
        let snapshot = try snapshot(of: keys)
        #expect(snapshot.gdprApplies == .undetermined)
        #expect(snapshot.malformedKeys == [IABKey.gdprApplies])
    }

    @Test("numbers written as decimal strings are read as numbers")
    func numbersAsStrings() throws {
        var keys = everySignal()
        keys[IABKey.cmpSdkID] = "300"
        keys[IABKey.policyVersion] = "4"
        keys[IABKey.purposeOneTreatment] = "1"
        let snapshot = try snapshot(of: keys)
        #expect(snapshot.cmpSdkID == 300)
        #expect(snapshot.policyVersion == 4)
        #expect(snapshot.purposeOneTreatment)
        #expect(snapshot.malformedKeys.isEmpty)
    }

    @Test("an empty TC string reads as no TC string")
    func emptyTCString() throws {
        var keys = everySignal()
        keys[IABKey.tcString] = ""
        #expect(try snapshot(of: keys).tcString == nil)
    }

    @Test("a CMP is present when IABTCF_CmpSdkID is stored or IABConsent_CMPPresent is true", arguments: [
        [IABKey.cmpSdkID: 300], [IABKey.cmpPresent: true], [IABKey.cmpPresent: "true"],
    ] as [[String: any Sendable]])
    func cmpPresent(keys: [String: any Sendable]) throws {
        #expect(try snapshot(of: keys).cmpPresent)
    }

    @Test("IABConsent_CMPPresent false with no v2 CMP id is no CMP")
    func cmpNotPresent() throws {
        #expect(try !snapshot(of: [IABKey.cmpPresent: false]).cmpPresent)
    }

    @Test("with no v2 key stored, the v1 keys give the applicability, the consent string and the consents")
    func version1Fallback() throws {
        let snapshot = try snapshot(of: [
            IABKey.cmpPresent: true, IABKey.subjectToGDPR: "1", IABKey.consentString: "BOEFEAyOEFEAyAHABDENAI4AAAB9vABAASA",
            IABKey.parsedPurposeConsents: "10101", IABKey.parsedVendorConsents: "0001001",
        ])
        #expect(snapshot.source == .version1)
        #expect(snapshot.gdprApplies == .applies)
        #expect(snapshot.consentStringV1 == "BOEFEAyOEFEAyAHABDENAI4AAAB9vABAASA")
        #expect(snapshot.consentString == "BOEFEAyOEFEAyAHABDENAI4AAAB9vABAASA")
        #expect(snapshot.purposeConsents == [1, 3, 5])
        #expect(snapshot.vendorConsents == [4, 7])
    }

    @Test("IABConsent_SubjectToGDPR written as a number or a Bool reads like the string", arguments: [
        (1, GDPRApplicability.applies), (true, .applies), (0, .doesNotApply), (false, .doesNotApply),
    ] as [(any Sendable, GDPRApplicability)])
    func version1SubjectToGDPRLenient(stored: any Sendable, expected: GDPRApplicability) throws {
        #expect(try snapshot(of: [IABKey.subjectToGDPR: stored]).gdprApplies == expected)
    }

    @Test("when v2 keys are stored, the v1 keys beside them are not used")
    func version2Wins() throws {
        var keys = v2Keys(vendorConsents: [])
        keys[IABKey.subjectToGDPR] = "0"
        keys[IABKey.parsedVendorConsents] = "1111111"
        keys[IABKey.consentString] = "BOEFEAyOEFEAyAHABDENAI4AAAB9vABAASA"
        let snapshot = try snapshot(of: keys)
        #expect(snapshot.source == .version2)
        #expect(snapshot.gdprApplies == .applies)
        #expect(snapshot.vendorConsents.isEmpty)
        #expect(snapshot.consentStringV1 == nil)
    }

    @Test("a v2 key alone, even the CMP id without gdprApplies, makes the v1 applicability unused")
    func version2UndeterminedWins() throws {
        let snapshot = try snapshot(of: [IABKey.cmpSdkID: 300, IABKey.subjectToGDPR: "0"])
        #expect(snapshot.gdprApplies == .undetermined)
    }

    @Test("a binary string with anything but 0 and 1 is an empty set, reported", arguments: [
        "1111x11", "111 111", "1111111\n", "true", "1111١11",
    ])
    func malformedBinaryString(text: String) throws {
        var keys = everySignal()
        keys[IABKey.vendorConsents] = text
        let snapshot = try snapshot(of: keys)
        #expect(snapshot.vendorConsents.isEmpty)
        #expect(snapshot.malformedKeys == [IABKey.vendorConsents])
    }

    @Test("a binary string stored as a number or a Bool is an empty set, reported", arguments: [
        1, true,
    ] as [any Sendable])
    func binaryStringOfWrongType(stored: any Sendable) throws {
        var keys = everySignal()
        keys[IABKey.purposeConsents] = stored
        let snapshot = try snapshot(of: keys)
        #expect(snapshot.purposeConsents.isEmpty)
        #expect(snapshot.malformedKeys == [IABKey.purposeConsents])
    }

    @Test("a binary string longer than the largest vendor id is an empty set, not a crash")
    func overlongBinaryString() throws {
        var keys = everySignal()
        keys[IABKey.vendorConsents] = String(repeating: "1", count: IDSet.maxID + 1)
        let snapshot = try snapshot(of: keys)
        #expect(snapshot.vendorConsents.isEmpty)
        #expect(snapshot.malformedKeys == [IABKey.vendorConsents])
    }

    @Test("a restriction string with a character other than 0, 1, 2 and _ is reported and yields no entry", arguments: [
        "_3_", "_1x", "1 0", "_-1",
    ])
    func malformedRestrictionString(text: String) throws {
        var keys = everySignal()
        keys[IABKey.publisherRestrictions(purposeId: 2)] = text
        let snapshot = try snapshot(of: keys)
        #expect(snapshot.publisherRestrictions.isEmpty)
        #expect(snapshot.malformedKeys == [IABKey.publisherRestrictions(purposeId: 2)])
    }
}
