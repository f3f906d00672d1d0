import Foundation
import Testing
import TCF
@testable import ConsentKit

@Suite("Consent value")
struct ConsentStateTests {
    @Test("accept all consents to every purpose and special feature of the list and every disclosed vendor that asks")
    func agreeToAllCoversTheList() {
        let scope = testScope()
        let state = ConsentState.agreeToAll(scope: scope, at: testDate)
        let list = Fixtures.vendorList
        #expect(state.purposeConsents == IDSet(list.purposes.keys))
        #expect(state.specialFeatureOptIns == IDSet(list.specialFeatures.keys))
        #expect(state.disclosedVendors == scope.vendorIds)
        #expect(scope.vendorIds.count > 800)
        for vendor in scope.vendors {
            #expect(state.vendorConsents.contains(vendor.id) == (!vendor.purposes.isEmpty || !vendor.specialFeatures.isEmpty))
        }
        // No legitimate interest for purposes TCF 2.2 keeps on consent.
        #expect(state.purposeLegitimateInterests.intersection(TCString.consentOnlyPurposes).isEmpty)
        #expect(!state.purposeLegitimateInterests.isEmpty)
        #expect((state.consentScreen, state.consentLanguage, state.publisherCC, state.noticeVersion) == (2, "FR", "DE", 3))
    }

    @Test("with purpose one treatment, accept all does not consent to the undisclosed purpose 1")
    func purposeOneTreatmentLeavesPurposeOneOut() {
        let state = ConsentState.agreeToAll(scope: testScope(purposeOneTreatment: true), at: testDate)
        #expect(!state.purposeConsents.contains(1))
        #expect(state.purposeConsents.contains(2))
        #expect(state.purposeOneTreatment)
    }

    @Test("reject all leaves no consent, opt-in or objectable legitimate interest, and keeps the vendors disclosed")
    func disagreeToAllRefusesEverything() {
        let scope = testScope(publisherPurposes: [1, 2], customPurposes: 2)
        let state = ConsentState.disagreeToAll(scope: scope, at: testDate)
        for ids in [state.purposeConsents, state.purposeLegitimateInterests, state.specialFeatureOptIns, state.vendorConsents,
                    state.publisherConsents, state.customPurposeConsents] {
            #expect(ids.isEmpty)
        }
        // TCF 2.3: a vendor whose legitimate interest no choice touches (special purposes, no
        // purpose on legitimate interest) keeps its bit; every other is objected to.
        let interests = LegitimateInterest.of(scope)
        #expect(state.vendorLegitimateInterests == interests.established.subtracting(interests.objectable))
        #expect(state.vendorLegitimateInterests.intersection(interests.objectable).isEmpty)
        #expect(state.disclosedVendors == scope.vendorIds)
        #expect(state.numCustomPurposes == 2)
    }

    @Test("a transaction applies all its changes at once and moves only the updated time")
    func transactionAppliesTogether() throws {
        let before = ConsentState.agreeToAll(scope: testScope(customPurposes: 2), at: testDate)
        let later = testDate.addingTimeInterval(60)
        let after = try before.changing(at: later) { changes in
            try changes.setPurpose(3, consent: false)
            try changes.setVendor(755, consent: false)
            try changes.setSpecialFeature(1, optIn: false)
            try changes.setCustomPurpose(2, consent: false)
            try changes.setVendorLegitimateInterest(755, allowed: false)
        }
        #expect(after.purposeConsents == before.purposeConsents.removing(3))
        #expect(after.vendorConsents == before.vendorConsents.removing(755))
        #expect(after.specialFeatureOptIns == before.specialFeatureOptIns.removing(1))
        #expect(after.customPurposeConsents == before.customPurposeConsents.removing(2))
        #expect(!after.vendorLegitimateInterests.contains(755))
        #expect(after.created == testDate && after.updated == later)
        #expect(after.disclosedVendors == before.disclosedVendors)
    }

    @Test("a refused change stops the whole transaction and leaves the value as it was")
    func refusedChangeChangesNothing() throws {
        let before = ConsentState.disagreeToAll(scope: testScope(), at: testDate)
        #expect(throws: ConsentChangeError.consentOnlyPurpose(4)) {
            _ = try before.changing { changes in
                try changes.setPurpose(2, consent: true)
                try changes.setPurposeLegitimateInterest(4, allowed: true)
            }
        }
        #expect(throws: ConsentChangeError.outOfRange(.purpose, 25, largest: 24)) {
            _ = try before.changing { try $0.setPurpose(25, consent: true) }
        }
        #expect(throws: ConsentChangeError.outOfRange(.customPurpose, 1, largest: 0)) {
            _ = try before.changing { try $0.setCustomPurpose(1, consent: true) }
        }
        #expect(before.purposeConsents.isEmpty)
    }

    @Test("the TC string holds the whole decision: decoding it gives the same value, times at day level")
    func tcStringRoundTrip() throws {
        let restriction = PublisherRestriction(purposeId: 2, restrictionType: .requireConsent, vendorIds: [8, 755])
        let state = ConsentState.agreeToAll(
            scope: testScope(publisherPurposes: [1, 7], customPurposes: 3, restrictions: [restriction]), at: testDate)
        let encoded = try state.tcString(cmp: testCMP).encoded()
        let decoded = try TCString(decoding: encoded)
        #expect(decoded.cmpId == 300 && decoded.cmpVersion == 7)
        #expect(decoded.created == decoded.lastUpdated)
        #expect(decoded.created.iso8601.hasPrefix("2026-03-04T00:00:00"))
        let back = ConsentState(tcString: decoded)
        #expect(back.restoring(created: state.created, updated: state.updated, noticeVersion: state.noticeVersion) == state)
    }

    @Test("the v1.1 string carries the vendor consents and a v1 purpose only when every v2 purpose behind it is consented")
    func version1String() throws {
        let state = try ConsentState.agreeToAll(scope: testScope(count: 40), at: testDate).changing(at: testDate) {
            try $0.setVendor(2, consent: false)
            try $0.setPurpose(7, consent: false)
        }
        let decoded = try ConsentStringV1(decoding: state.consentStringV1(cmp: testCMP).encoded())
        // Purpose 7 (measure advertising performance) stands behind v1 purpose 3 only.
        #expect(decoded.purposesAllowed == [1, 2, 4, 5])
        #expect(decoded.vendorConsents == state.vendorConsents)
        #expect(!decoded.vendorConsents.contains(2))
        #expect(decoded.cmpId == 300)
        let none = ConsentState.disagreeToAll(scope: testScope(count: 40), at: testDate)
        #expect(none.consentStringV1(cmp: testCMP).purposesAllowed.isEmpty)
    }
}
