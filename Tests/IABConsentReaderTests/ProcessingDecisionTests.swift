import Testing
import TCF
@testable import IABConsentReader

/// The TCF v2.2 rules of `decision(for:purpose:)`, one per test. Vendor 7 declares purposes 2
/// and 3 on consent, 7 and 8 on legitimate interest; `everySignal()` makes every purpose and
/// vendor signal positive, so only the rule under test can refuse.
@Suite("Whether a vendor may process for a purpose")
struct ProcessingDecisionTests {
    static let vendor = VendorDeclaration(id: 7, purposes: [1, 2, 3], legIntPurposes: [7, 8])
    static let flexible = VendorDeclaration(id: 7, purposes: [1, 2, 3], legIntPurposes: [7, 8], flexiblePurposes: [2, 3, 7])

    // MARK: Consent and legitimate interest

    @Test("consent needs both the purpose's and the vendor's consent")
    func consentAllowed() throws {
        let keys = v2Keys(purposeConsents: [2], vendorConsents: [7])
        #expect(try decision(keys, vendor: Self.vendor, purpose: 2) == .allowed(.legalBasis(.consent)))
    }

    @Test("without the purpose's consent a consent purpose is refused")
    func noPurposeConsent() throws {
        let keys = v2Keys(purposeConsents: [1, 3], purposeLegitimateInterests: [2], vendorConsents: [7], vendorLegitimateInterests: [7])
        #expect(try decision(keys, vendor: Self.vendor, purpose: 2) == .refused(.noPurposeConsent))
    }

    @Test("without the vendor's consent a consent purpose is refused")
    func noVendorConsent() throws {
        let keys = v2Keys(purposeConsents: [2], vendorConsents: [6, 8], vendorLegitimateInterests: [7])
        #expect(try decision(keys, vendor: Self.vendor, purpose: 2) == .refused(.noVendorConsent))
    }

    @Test("legitimate interest needs both the purpose's and the vendor's signal")
    func legitimateInterestAllowed() throws {
        let keys = v2Keys(purposeLegitimateInterests: [7], vendorLegitimateInterests: [7])
        #expect(try decision(keys, vendor: Self.vendor, purpose: 7) == .allowed(.legalBasis(.legitimateInterest)))
    }

    @Test("without the purpose's legitimate interest a legitimate-interest purpose is refused, consent or not")
    func noPurposeLegitimateInterest() throws {
        let keys = v2Keys(purposeConsents: [7], purposeLegitimateInterests: [8], vendorConsents: [7], vendorLegitimateInterests: [7])
        #expect(try decision(keys, vendor: Self.vendor, purpose: 7) == .refused(.noPurposeLegitimateInterest))
    }

    @Test("without the vendor's legitimate interest a legitimate-interest purpose is refused")
    func noVendorLegitimateInterest() throws {
        let keys = v2Keys(purposeLegitimateInterests: [7], vendorConsents: [7], vendorLegitimateInterests: [6])
        #expect(try decision(keys, vendor: Self.vendor, purpose: 7) == .refused(.noVendorLegitimateInterest))
    }

    @Test("a consent purpose is not allowed by legitimate-interest signals")
    func consentPurposeIgnoresLegitimateInterest() throws {
        let keys = v2Keys(purposeLegitimateInterests: [2], vendorLegitimateInterests: [7])
        #expect(try decision(keys, vendor: Self.vendor, purpose: 2) == .refused(.noPurposeConsent))
    }

    @Test("without a restriction a flexible purpose keeps its registered basis: consent signals do not help a legitimate-interest purpose")
    func flexibleKeepsDefaultBasis() throws {
        let keys = v2Keys(purposeConsents: [7], vendorConsents: [7])
        #expect(try decision(keys, vendor: Self.flexible, purpose: 7) == .refused(.noPurposeLegitimateInterest))
    }

    @Test("a purpose the vendor did not declare is refused")
    func undeclaredPurpose() throws {
        #expect(try decision(everySignal(), vendor: Self.vendor, purpose: 9) == .refused(.notDeclared))
    }

    // MARK: Publisher restrictions

    @Test("restriction type 0 refuses a purpose the vendor declared without flexibility")
    func notAllowedOnNonFlexible() throws {
        let keys = everySignal(restrictions: [2: restrictionString([7: "0"])])
        #expect(try decision(keys, vendor: Self.vendor, purpose: 2) == .refused(.notAllowedByPublisher))
    }

    @Test("restriction type 0 refuses a flexible purpose")
    func notAllowedOnFlexible() throws {
        let keys = everySignal(restrictions: [7: restrictionString([7: "0"])])
        #expect(try decision(keys, vendor: Self.flexible, purpose: 7) == .refused(.notAllowedByPublisher))
    }

    @Test("restriction type 0 is evaluated first: on an undeclared purpose the publisher's refusal is the reason")
    func notAllowedComesFirst() throws {
        let keys = everySignal(restrictions: [9: restrictionString([7: "0"])])
        #expect(try decision(keys, vendor: Self.vendor, purpose: 9) == .refused(.notAllowedByPublisher))
    }

    @Test("restriction type 0 for another vendor does not touch this one")
    func restrictionForAnotherVendor() throws {
        let keys = everySignal(restrictions: [2: restrictionString([6: "0", 8: "0"])])
        #expect(try decision(keys, vendor: Self.vendor, purpose: 2) == .allowed(.legalBasis(.consent)))
    }

    @Test("restriction type 1 moves a flexible legitimate-interest purpose to consent")
    func requireConsentOnFlexible() throws {
        let keys = v2Keys(purposeConsents: [7], vendorConsents: [7], restrictions: [7: restrictionString([7: "1"])])
        #expect(try decision(keys, vendor: Self.flexible, purpose: 7) == .allowed(.legalBasis(.consent)))
    }

    @Test("under restriction type 1 the legitimate-interest signals of a flexible purpose no longer suffice")
    func requireConsentIgnoresLegitimateInterest() throws {
        let keys = v2Keys(purposeLegitimateInterests: [7], vendorLegitimateInterests: [7], restrictions: [7: restrictionString([7: "1"])])
        #expect(try decision(keys, vendor: Self.flexible, purpose: 7) == .refused(.noPurposeConsent))
    }

    @Test("restriction type 1 refuses a legitimate-interest purpose that is not flexible")
    func requireConsentOnNonFlexibleLegitimateInterest() throws {
        let keys = everySignal(restrictions: [8: restrictionString([7: "1"])])
        #expect(try decision(keys, vendor: Self.flexible, purpose: 8) == .refused(.publisherRequiresConsent))
    }

    @Test("restriction type 1 on a consent purpose that is not flexible changes nothing")
    func requireConsentOnNonFlexibleConsent() throws {
        let keys = everySignal(restrictions: [2: restrictionString([7: "1"])])
        #expect(try decision(keys, vendor: Self.vendor, purpose: 2) == .allowed(.legalBasis(.consent)))
    }

    @Test("restriction type 2 moves a flexible consent purpose to legitimate interest")
    func requireLegitimateInterestOnFlexible() throws {
        let keys = v2Keys(purposeLegitimateInterests: [2], vendorLegitimateInterests: [7], restrictions: [2: restrictionString([7: "2"])])
        #expect(try decision(keys, vendor: Self.flexible, purpose: 2) == .allowed(.legalBasis(.legitimateInterest)))
    }

    @Test("under restriction type 2 the consent signals of a flexible purpose no longer suffice")
    func requireLegitimateInterestIgnoresConsent() throws {
        let keys = v2Keys(purposeConsents: [2], vendorConsents: [7], restrictions: [2: restrictionString([7: "2"])])
        #expect(try decision(keys, vendor: Self.flexible, purpose: 2) == .refused(.noPurposeLegitimateInterest))
    }

    @Test("restriction type 2 refuses a consent purpose that is not flexible")
    func requireLegitimateInterestOnNonFlexibleConsent() throws {
        let keys = everySignal(restrictions: [2: restrictionString([7: "2"])])
        #expect(try decision(keys, vendor: Self.vendor, purpose: 2) == .refused(.publisherRequiresLegitimateInterest))
    }

    @Test("restriction type 2 on a legitimate-interest purpose that is not flexible changes nothing")
    func requireLegitimateInterestOnNonFlexibleLegitimateInterest() throws {
        let keys = everySignal(restrictions: [8: restrictionString([7: "2"])])
        #expect(try decision(keys, vendor: Self.vendor, purpose: 8) == .allowed(.legalBasis(.legitimateInterest)))
    }

    @Test("a legal-basis restriction on a purpose the vendor did not declare refuses it", arguments: ["1", "2"] as [Character])
    func legalBasisRestrictionOnUndeclared(type: Character) throws {
        let keys = everySignal(restrictions: [9: restrictionString([7: type])])
        #expect(try decision(keys, vendor: Self.vendor, purpose: 9) == .refused(.notDeclared))
    }

    @Test("a restriction key that cannot be read refuses its purpose to every vendor")
    func malformedRestrictionRefuses() throws {
        let keys = everySignal(restrictions: [2: "__x"])
        #expect(try decision(keys, vendor: Self.vendor, purpose: 2) == .refused(.malformedSignal(key: "IABTCF_PublisherRestrictions2")))
    }

    // MARK: Legitimate interest forbidden

    @Test("legitimate interest is never a basis for purposes 1, 3, 4, 5 and 6", arguments: [1, 3, 4, 5, 6])
    func legitimateInterestForbidden(purpose: Int) throws {
        let vendor = VendorDeclaration(id: 7, legIntPurposes: IDSet([purpose]))
        #expect(try decision(everySignal(), vendor: vendor, purpose: purpose) == .refused(.legitimateInterestNotPermitted))
    }

    @Test("legitimate interest remains a basis for purposes 2 and 7 to 11", arguments: [2, 7, 8, 9, 10, 11])
    func legitimateInterestAllowedPurposes(purpose: Int) throws {
        let vendor = VendorDeclaration(id: 7, legIntPurposes: IDSet([purpose]))
        #expect(try decision(everySignal(), vendor: vendor, purpose: purpose) == .allowed(.legalBasis(.legitimateInterest)))
    }

    @Test("restriction type 2 cannot move a flexible consent purpose 3 to legitimate interest")
    func requireLegitimateInterestOnForbiddenPurpose() throws {
        let keys = everySignal(restrictions: [3: restrictionString([7: "2"])])
        #expect(try decision(keys, vendor: Self.flexible, purpose: 3) == .refused(.legitimateInterestNotPermitted))
    }

    // MARK: GDPR applicability

    @Test("when the GDPR does not apply every purpose is allowed, signals or not")
    func gdprDoesNotApply() throws {
        var keys = v2Keys()
        keys[IABKey.gdprApplies] = 0
        #expect(try decision(keys, vendor: Self.vendor, purpose: 3) == .allowed(.gdprDoesNotApply))
    }

    @Test("while the GDPR applicability is undetermined nothing is allowed, whatever the signals")
    func gdprUndetermined() throws {
        var keys = everySignal()
        keys[IABKey.gdprApplies] = nil
        #expect(try decision(keys, vendor: Self.vendor, purpose: 2) == .refused(.gdprApplicabilityUndetermined))
    }

    // MARK: Purpose one treatment, special features, bad input

    @Test("with purpose one treatment, purpose 1 is refused with the publisher's country so the vendor can decide")
    func purposeOneTreatment() throws {
        var keys = v2Keys(purposeConsents: [2], vendorConsents: [7])
        keys[IABKey.purposeOneTreatment] = 1
        #expect(try decision(keys, vendor: Self.vendor, purpose: 1) == .refused(.purposeOneNotDisclosed(publisherCC: "DE")))
    }

    @Test("a special feature is allowed when the vendor declared it and the user opted in")
    func specialFeatureAllowed() throws {
        let vendor = VendorDeclaration(id: 7, purposes: [1], specialFeatures: [2])
        let snapshot = try snapshot(of: v2Keys(specialFeatureOptIns: [2]))
        #expect(snapshot.decision(for: vendor, specialFeature: 2) == .allowed(.specialFeatureOptIn))
    }

    @Test("a special feature without the user's opt-in is refused")
    func specialFeatureNotOptedIn() throws {
        let vendor = VendorDeclaration(id: 7, purposes: [1], specialFeatures: [1, 2])
        let snapshot = try snapshot(of: v2Keys(specialFeatureOptIns: [2]))
        #expect(snapshot.decision(for: vendor, specialFeature: 1) == .refused(.noSpecialFeatureOptIn))
    }

    @Test("a special feature the vendor did not declare is refused, opt-in or not")
    func specialFeatureNotDeclared() throws {
        let vendor = VendorDeclaration(id: 7, purposes: [1], specialFeatures: [2])
        let snapshot = try snapshot(of: v2Keys(specialFeatureOptIns: [1, 2]))
        #expect(snapshot.decision(for: vendor, specialFeature: 1) == .refused(.notDeclared))
    }

    @Test("a vendor consent string with a bad character is no consent, even where it holds a 1")
    func malformedVendorConsents() throws {
        var keys = v2Keys(purposeConsents: [2], vendorConsents: [7])
        keys[IABKey.vendorConsents] = "1111111x"
        let snapshot = try snapshot(of: keys)
        #expect(!snapshot.mayProcess(vendor: Self.vendor, purpose: 2))
        #expect(snapshot.decision(for: Self.vendor, purpose: 2) == .refused(.malformedSignal(key: IABKey.vendorConsents)))
    }

    @Test("a vendor id outside 1-65535 is refused")
    func invalidVendorId() throws {
        let vendor = VendorDeclaration(id: 0, purposes: [2])
        #expect(try decision(everySignal(), vendor: vendor, purpose: 2) == .refused(.invalidVendorId))
    }

    static let version1Keys: [String: any Sendable] = [
        IABKey.subjectToGDPR: "1", IABKey.parsedPurposeConsents: "11111", IABKey.parsedVendorConsents: "0000001",
    ]

    @Test("with only v1 keys, purpose and vendor consent allow a consent purpose")
    func version1Consent() throws {
        let vendor = VendorDeclaration(id: 7, purposes: [1, 2])
        #expect(try decision(Self.version1Keys, vendor: vendor, purpose: 2) == .allowed(.legalBasis(.consent)))
    }

    @Test("with only v1 keys, legitimate interest is never established")
    func version1NoLegitimateInterest() throws {
        let vendor = VendorDeclaration(id: 7, purposes: [1], legIntPurposes: [2])
        #expect(try decision(Self.version1Keys, vendor: vendor, purpose: 2) == .refused(.noPurposeLegitimateInterest))
    }

    @Test("a decision prints its reason")
    func description() {
        #expect(ProcessingDecision.refused(.noVendorConsent).description == "refused: no consent for the vendor")
        #expect(ProcessingDecision.allowed(.legalBasis(.consent)).description == "allowed (consent)")
    }
}
