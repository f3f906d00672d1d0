import Foundation
import Testing
@testable import TCF

/// Every vector in `Fixtures/vectors`: its `decoded` field is the expected value, and a
/// non-empty `decoded.errors` means the decoder must throw.
@Suite struct VectorTests {
    let vectors: [Vector]

    init() throws { vectors = try Fixtures.vectors() }

    @Test func theVectorFilesHoldBothVersionsAndNegativeCases() {
        #expect(vectors.count >= 300)
        #expect(vectors.contains { $0.decoded["version"] as? Int == 1 })
        #expect(vectors.contains { $0.decoded["version"] as? Int == 2 })
        #expect(vectors.contains { !$0.errors.isEmpty })
    }

    @Test func everyVectorWithSpecViolationsFailsToDecode() {
        for vector in vectors where !vector.errors.isEmpty {
            #expect(throws: TCFDecodingError.self, "\(vector.label) should fail: \(vector.errors.first!)") {
                _ = try ConsentString(decoding: vector.string)
            }
        }
    }

    @Test func everyValidVectorDecodesToItsExpectedFields() throws {
        for vector in vectors where vector.errors.isEmpty {
            let decoded: ConsentString
            do {
                decoded = try ConsentString(decoding: vector.string)
            } catch {
                Issue.record("\(vector.label) failed: \(error)")
                continue
            }
            let expected = vector.decoded
            switch decoded {
            case .v1(let value):
                #expect(expected["version"] as? Int == 1, "\(vector.label)")
                expectHeader(value.created, value.lastUpdated, value.cmpId, value.cmpVersion, value.consentScreen,
                             value.consentLanguage, value.vendorListVersion, expected, vector)
                #expect(value.purposesAllowed.sorted == ids(expected["purposesAllowed"]), "\(vector.label)")
                let vendors = expected["vendorConsents"] as! [String: Any]
                #expect(value.maxVendorId == vendors["maxVendorId"] as? Int, "\(vector.label)")
                #expect(value.vendorConsents.sorted == ids(vendors["ids"]), "\(vector.label)")
            case .v2(let value):
                #expect(expected["version"] as? Int == 2, "\(vector.label)")
                expectHeader(value.created, value.lastUpdated, value.cmpId, value.cmpVersion, value.consentScreen,
                             value.consentLanguage, value.vendorListVersion, expected, vector)
                expectVersion2(value, expected, vector)
            }
        }
    }

    @Test func everyValidVectorSurvivesAnEncodeDecodeRoundTrip() throws {
        for vector in vectors where vector.errors.isEmpty {
            guard let decoded = try? ConsentString(decoding: vector.string) else { continue }
            let reencoded = try decoded.encoded()
            #expect(try ConsentString(decoding: reencoded) == decoded, "\(vector.label) -> \(reencoded)")
        }
    }

    // MARK: - Field comparisons

    private func expectHeader(
        _ created: TCFTimestamp, _ lastUpdated: TCFTimestamp, _ cmpId: Int, _ cmpVersion: Int, _ consentScreen: Int,
        _ consentLanguage: String, _ vendorListVersion: Int, _ expected: [String: Any], _ vector: Vector
    ) {
        #expect(created.deciseconds == (expected["created_ds"] as! NSNumber).int64Value, "\(vector.label)")
        #expect(lastUpdated.deciseconds == (expected["lastUpdated_ds"] as! NSNumber).int64Value, "\(vector.label)")
        #expect(cmpId == expected["cmpId"] as? Int, "\(vector.label)")
        #expect(cmpVersion == expected["cmpVersion"] as? Int, "\(vector.label)")
        #expect(consentScreen == expected["consentScreen"] as? Int, "\(vector.label)")
        #expect(consentLanguage == expected["consentLanguage"] as? String, "\(vector.label)")
        #expect(vendorListVersion == expected["vendorListVersion"] as? Int, "\(vector.label)")
    }

    private func expectVersion2(_ value: TCString, _ expected: [String: Any], _ vector: Vector) {
        let label = vector.label
        #expect(value.tcfPolicyVersion == expected["tcfPolicyVersion"] as? Int, "\(label)")
        #expect(value.isServiceSpecific == expected["isServiceSpecific"] as? Bool, "\(label)")
        #expect(value.useNonStandardTexts == expected["useNonStandardTexts"] as? Bool, "\(label)")
        #expect(value.specialFeatureOptIns.sorted == ids(expected["specialFeatureOptIns"]), "\(label)")
        #expect(value.purposesConsent.sorted == ids(expected["purposesConsent"]), "\(label)")
        #expect(value.purposesLITransparency.sorted == ids(expected["purposesLITransparency"]), "\(label)")
        #expect(value.purposeOneTreatment == expected["purposeOneTreatment"] as? Bool, "\(label)")
        #expect(value.publisherCC == expected["publisherCC"] as? String, "\(label)")
        #expect(value.vendorConsents.sorted == sectionIDs(expected["vendorConsents"]), "\(label)")
        #expect(value.vendorLegitimateInterests.sorted == sectionIDs(expected["vendorLegitimateInterests"]), "\(label)")
        let restrictions = (expected["publisherRestrictions"] as! [[String: Any]]).map { entry in
            let ranges = entry["ranges"] as! [[Int]]
            return PublisherRestriction(
                purposeId: entry["purposeId"] as! Int,
                restrictionType: .init(rawValue: entry["restrictionType"] as! Int)!,
                vendorIds: IDSet(ranges.flatMap { $0[0]...$0[1] }))
        }
        #expect(value.publisherRestrictions == restrictions, "\(label)")
        #expect(value.disclosedVendors?.sorted == expected["disclosedVendors"].map(sectionIDs), "\(label)")
        #expect(value.allowedVendors?.sorted == expected["allowedVendors(deprecated OOB)"].map(sectionIDs), "\(label)")
        if let publisher = expected["publisherTC"] as? [String: Any] {
            let expectedTC = PublisherTC(
                pubPurposesConsent: IDSet(ids(publisher["pubPurposesConsent"])),
                pubPurposesLITransparency: IDSet(ids(publisher["pubPurposesLITransparency"])),
                numCustomPurposes: publisher["numCustomPurposes"] as! Int,
                customPurposesConsent: IDSet(ids(publisher["customPurposesConsent"])),
                customPurposesLITransparency: IDSet(ids(publisher["customPurposesLITransparency"])))
            #expect(value.publisherTC == expectedTC, "\(label)")
        } else {
            #expect(value.publisherTC == nil, "\(label)")
        }
    }

    private func ids(_ any: Any?) -> [Int] { any as? [Int] ?? [] }
    private func sectionIDs(_ any: Any?) -> [Int] { ids((any as? [String: Any])?["ids"]) }
}
