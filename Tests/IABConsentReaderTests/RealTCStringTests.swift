import Testing
import TCF
@testable import IABConsentReader

/// A real TC string (line 152 of `vectors/real-world-v2.txt`: policy version 5, GVL
/// 130, publisher restrictions of all three types on purposes 2 and 7 to 11), decoded with
/// `TCF` and written as a CMP writes the keys; vendors declared as in the reference GVL v3 #45.
/// The expectations were worked out by hand from the decoded sets, which the first test pins.
@Suite("Decisions on the keys of a real TC string")
struct RealTCStringTests {
    static func decoded() throws -> TCString {
        let string = try Fixtures.realWorldString(line: 152)
        #expect(string.hasPrefix("CQa0zsAQa0zsAAGABCENCCFsAP_gAEPgAAqIK8NB9G5faTlBMDJ3adoEYYQXx1hpqsQhAgCBEwAASDKAZIwWEGAw"))
        return try TCString(decoding: string)
    }

    @Test("the decoded string holds the signals the expectations were computed from")
    func premises() throws {
        let tc = try Self.decoded()
        #expect(tc.purposesConsent == IDSet(1...11))
        #expect(tc.purposesLITransparency == [2, 7, 8, 9, 10, 11])
        #expect(tc.specialFeatureOptIns == [1, 2])
        #expect(!tc.purposeOneTreatment)
        for vendor in [10, 11, 36, 80, 273, 744, 755, 1165] { #expect(tc.vendorConsents.contains(vendor)) }
        #expect(!tc.vendorConsents.contains(384) && !tc.vendorConsents.contains(15))
        #expect(tc.vendorLegitimateInterests.filter([10, 11, 15, 36, 80, 384, 744, 755, 1165].contains) == [10, 36, 384, 744, 1165])
        #expect(tc.restrictionType(vendorId: 755, purposeId: 2) == .requireConsent)
        #expect(tc.restrictionType(vendorId: 755, purposeId: 7) == .requireConsent)
        #expect(tc.restrictionType(vendorId: 1165, purposeId: 2) == .requireLegitimateInterest)
        #expect(tc.restrictionType(vendorId: 1165, purposeId: 7) == .requireLegitimateInterest)
        #expect(tc.restrictionType(vendorId: 80, purposeId: 7) == .notAllowed)
        #expect(tc.restrictionType(vendorId: 36, purposeId: 9) == .notAllowed)
        #expect(tc.restrictionType(vendorId: 384, purposeId: 10) == .requireLegitimateInterest)
        #expect(tc.restrictionType(vendorId: 744, purposeId: 10) == .requireLegitimateInterest)
        #expect(tc.restrictionType(vendorId: 36, purposeId: 10) == nil)
        #expect(tc.restrictionType(vendorId: 15, purposeId: 7) == nil)
    }

    @Test("the keys written from the string read back as its decoded sets and restrictions")
    func keysReadBack() throws {
        let tc = try Self.decoded()
        let snapshot = try snapshot(of: keys(for: tc))
        #expect(snapshot.purposeConsents == tc.purposesConsent)
        #expect(snapshot.purposeLegitimateInterests == tc.purposesLITransparency)
        #expect(snapshot.vendorConsents == tc.vendorConsents)
        #expect(snapshot.vendorLegitimateInterests == tc.vendorLegitimateInterests)
        #expect(snapshot.specialFeatureOptIns == tc.specialFeatureOptIns)
        #expect(snapshot.publisherCC == "FR")
        #expect(snapshot.malformedKeys.isEmpty)
        let largest = tc.publisherRestrictions.map(\.vendorIds.max).max() ?? 0
        for purpose in 1...24 {
            for vendor in 1...largest where snapshot.restrictionType(vendorId: vendor, purposeId: purpose) != tc.restrictionType(vendorId: vendor, purposeId: purpose) {
                Issue.record("vendor \(vendor), purpose \(purpose): restriction differs")
            }
        }
    }

    @Test("GVL vendors get the decisions computed by hand", arguments: [
        // Google: purpose 2 is legitimate interest and flexible; "require consent" moves it to
        // consent, which purpose 2 and vendor 755 have (755 has no legitimate interest).
        (755, 2, ProcessingDecision.allowed(.legalBasis(.consent))),
        (755, 1, .allowed(.legalBasis(.consent))),
        (755, 7, .allowed(.legalBasis(.consent))),
        // Quantcast: purpose 8 is flexible legitimate interest, restricted to consent.
        (11, 8, .allowed(.legalBasis(.consent))),
        // Kueez: purpose 2 is flexible consent, restricted to legitimate interest, which both have.
        (1165, 2, .allowed(.legalBasis(.legitimateInterest))),
        // Kueez: purpose 7 is legitimate interest, not flexible; "require LI" changes nothing.
        (1165, 7, .allowed(.legalBasis(.legitimateInterest))),
        // Sharethrough: purpose 7 not allowed for 80 by the publisher; purpose 2 on consent.
        (80, 7, .refused(.notAllowedByPublisher)),
        (80, 2, .allowed(.legalBasis(.consent))),
        // Nexxen: purpose 9 not allowed; purpose 10 on legitimate interest, unrestricted.
        (36, 9, .refused(.notAllowedByPublisher)),
        (36, 10, .allowed(.legalBasis(.legitimateInterest))),
        // Pixalate: purpose 10 is flexible consent without vendor consent; "require LI" rescues it.
        (384, 10, .allowed(.legalBasis(.legitimateInterest))),
        // Adikteev: purpose 7 on legitimate interest, which vendor 15 does not have.
        (15, 7, .refused(.noVendorLegitimateInterest)),
        // Index Exchange did not declare purpose 3.
        (10, 3, .refused(.notDeclared)),
    ] as [(Int, Int, ProcessingDecision)])
    func handComputed(vendorId: Int, purpose: Int, expected: ProcessingDecision) throws {
        let vendor = try #require(Fixtures.vendorList.vendors[vendorId])
        let snapshot = try snapshot(of: keys(for: Self.decoded()))
        #expect(snapshot.decision(for: VendorDeclaration(vendor), purpose: purpose) == expected)
    }

    @Test("special feature 1 is allowed to Index Exchange, which declares it, and refused to Quantcast, which does not")
    func specialFeatures() throws {
        let list = Fixtures.vendorList
        let snapshot = try snapshot(of: keys(for: Self.decoded()))
        #expect(snapshot.mayUse(vendor: VendorDeclaration(try #require(list.vendors[10])), specialFeature: 1))
        #expect(!snapshot.mayUse(vendor: VendorDeclaration(try #require(list.vendors[11])), specialFeature: 1))
    }

    @Test("a declaration made from a GVL vendor carries its purposes, legitimate interests, flexible purposes and special features")
    func declarationFromVendor() throws {
        let vendor = try #require(Fixtures.vendorList.vendors[10])
        #expect(VendorDeclaration(vendor) == VendorDeclaration(
            id: 10, purposes: [1, 2, 7], legIntPurposes: [10], flexiblePurposes: [2, 7], specialFeatures: [1]))
    }
}
