import Foundation
import Testing
import TCF
@testable import ConsentKit

/// The TCF 2.3 rule for legitimate interest (``LegitimateInterest``), on the real GVL v3 #45:
/// vendor 56 has special purposes only; vendor 1 has consent purposes, flexible ones on consent
/// by default and special purposes; vendor 66 has flexible purposes on consent by default and
/// no special purpose; Google (755) declares purposes 2, 7, 9 and 10 on legitimate interest.
@Suite("Legitimate interest")
struct LegitimateInterestTests {
    static func vendor(_ id: Int) throws -> Vendor { try #require(Fixtures.vendorList.vendors[id]) }

    @Test("a vendor registered for special purposes only has its bit set after accept all and after reject all")
    func specialPurposesOnlyIsAlwaysEstablished() throws {
        let scope = testScope(vendorIds: [56, 755])
        #expect(LegitimateInterest.isEstablished(for: try Self.vendor(56), restrictions: []))
        #expect(LegitimateInterest.purposes(of: try Self.vendor(56), restrictions: []).isEmpty)
        #expect(ConsentState.agreeToAll(scope: scope, at: testDate).vendorLegitimateInterests.contains(56))
        #expect(ConsentState.disagreeToAll(scope: scope, at: testDate).vendorLegitimateInterests == [56])
    }

    @Test("an objection clears the bit of a vendor with purposes on legitimate interest: reject all leaves Google's unset")
    func objectionClearsTheBit() {
        let scope = testScope(vendorIds: [755])
        #expect(ConsentState.agreeToAll(scope: scope, at: testDate).vendorLegitimateInterests == [755])
        #expect(ConsentState.disagreeToAll(scope: scope, at: testDate).vendorLegitimateInterests.isEmpty)
    }

    @Test("a flexible purpose on consent by default is not legitimate interest: vendor 66 gets no bit after accept all")
    func flexibleOnConsentIsNotLegitimateInterest() throws {
        #expect(LegitimateInterest.purposes(of: try Self.vendor(66), restrictions: []).isEmpty)
        #expect(!LegitimateInterest.isEstablished(for: try Self.vendor(66), restrictions: []))
        let all = ConsentState.agreeToAll(scope: testScope(vendorIds: [66]), at: testDate)
        #expect(all.vendorLegitimateInterests.isEmpty)
        #expect(all.purposeLegitimateInterests.isEmpty)
    }

    @Test("a publisher restriction requiring legitimate interest makes a flexible purpose legitimate interest")
    func restrictionRequiringLegitimateInterest() throws {
        let restriction = PublisherRestriction(purposeId: 2, restrictionType: .requireLegitimateInterest, vendorIds: [66])
        #expect(LegitimateInterest.purposes(of: try Self.vendor(66), restrictions: [restriction]) == [2])
        let all = ConsentState.agreeToAll(scope: testScope(vendorIds: [66], restrictions: [restriction]), at: testDate)
        #expect(all.vendorLegitimateInterests == [66])
        #expect(all.purposeLegitimateInterests == [2])
    }

    @Test("a restriction requiring consent or disallowing a purpose takes it off legitimate interest")
    func restrictionsRequiringConsentOrDisallowing() throws {
        let google = try Self.vendor(755)
        #expect(LegitimateInterest.purposes(of: google, restrictions: []) == [2, 7, 9, 10])
        let consent = PublisherRestriction(purposeId: 2, restrictionType: .requireConsent, vendorIds: [755])
        let notAllowed = PublisherRestriction(purposeId: 7, restrictionType: .notAllowed, vendorIds: [755])
        let otherVendor = PublisherRestriction(purposeId: 9, restrictionType: .notAllowed, vendorIds: [1])
        #expect(LegitimateInterest.purposes(of: google, restrictions: [consent, notAllowed, otherVendor]) == [9, 10])
    }

    @Test("purposes 1 and 3-6 are never legitimate interest, whatever a vendor declares")
    func consentOnlyPurposesAreNeverLegitimateInterest() {
        let vendor = Vendor(id: 9, name: "Declares too much", legIntPurposes: [1, 2, 3, 4, 5, 6, 7])
        #expect(LegitimateInterest.purposes(of: vendor, restrictions: []) == [2, 7])
    }

    @Test("vendor 1 (consent and special purposes, flexible on consent) has its bit set and nothing to object to")
    func vendorOneIsEstablishedNotObjectable() throws {
        let interests = LegitimateInterest.of(testScope(vendorIds: [1, 66, 755]))
        #expect(interests.established == [1, 755])
        #expect(interests.objectable == [755])
        #expect(interests.purposes == [2, 7, 9, 10])
    }
}
