import Foundation
import Testing
import TCF
@testable import ConsentKit

/// A decision and its context becoming a consent event (``ConsentEventContext``).
@Suite("Consent event of a decision")
struct ConsentEventContextTests {
    static let scope = testScope(vendorIds: [1, 8, 56, 755])
    static let context = ConsentEventContext(method: .custom, noticeId: "main", platform: .ios, cmp: testCMP, subjectId: "user-1")

    @Test("the event carries the decision's TC string, id lists and proof, collected at its time to the millisecond")
    func eventCarriesTheDecision() throws {
        let decision = try ConsentState.agreeToAll(scope: Self.scope, at: testDate).changing(at: testDate) { try $0.setVendor(8, consent: false) }
        let eventId = UUID()
        let event = try Self.context.event(for: decision, eventId: eventId)
        #expect(event.eventId == eventId.uuidString.lowercased())
        #expect(event.subjectId == "user-1")
        #expect(event.collectedAt == "2026-03-04T05:06:07.890Z")
        #expect(event.consent.tcString == (try decision.tcString(cmp: testCMP).encoded()))
        #expect(event.consent.consentStringV1 == nil)
        #expect(event.consent.purposeConsents == decision.purposeConsents.sorted)
        #expect(event.consent.purposeLegitimateInterests == decision.purposeLegitimateInterests.sorted)
        #expect(event.consent.specialFeatureOptins == decision.specialFeatureOptIns.sorted)
        #expect(event.consent.vendorConsents == [1, 56, 755].filter(decision.vendorConsents.contains))
        #expect(event.consent.vendorLegitimateInterests == decision.vendorLegitimateInterests.sorted)
        #expect(event.consent.googleAdsChoice == .personalized)
        #expect(event.consent.additionalConsent == nil)
        #expect(event.consent.proof == ConsentProof(noticeId: "main", noticeVersion: "3", language: "fr", sdkVersion: ConsentKitSDK.version,
                                                    platform: .ios, method: .custom))
    }

    @Test("an app writing v1 keys sends the v1 string with the event")
    func versionOneString() throws {
        var context = Self.context
        context.writesVersion1 = true
        let decision = ConsentState.agreeToAll(scope: Self.scope, at: testDate)
        #expect(try context.event(for: decision).consent.consentStringV1 == (try decision.consentStringV1(cmp: testCMP).encoded()))
    }

    @Test("received strings are recorded exactly as given, not re-encoded")
    func receivedStringsAreKept() throws {
        let decision = ConsentState.agreeToAll(scope: Self.scope, at: testDate)
        let given = try decision.tcString(cmp: CMPIdentity(cmpId: 12, cmpVersion: 3)).encoded()
        let event = try Self.context.event(for: decision, received: .init(tcString: given, additionalConsent: "2~89~dv."))
        #expect(event.consent.tcString == given)
        #expect(event.consent.additionalConsent == "2~89~dv.")
    }

    @Test("a decision made a hair under its millisecond is collected at that millisecond", arguments: [
        (1_772_600_767.889_999_9, "2026-03-04T05:06:07.890Z"), (-0.5, "1969-12-31T23:59:59.500Z"),
    ])
    func millisecondsAreRounded(time: Double, written: String) throws {
        let decision = ConsentState.agreeToAll(scope: Self.scope, at: Date(timeIntervalSince1970: time))
        #expect(try Self.context.event(for: decision).collectedAt == written)
    }
}
