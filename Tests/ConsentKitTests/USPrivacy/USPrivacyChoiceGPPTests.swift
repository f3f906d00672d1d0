import ConsentdAPI
import Foundation
import GPP
import Testing
@testable import ConsentKit

/// `USPrivacyChoice.gppSections(of:applicability:signals:)`: the choice and the signals in the US
/// sections, field by field, read back from the encoded GPP string (decision record 0032).
@Suite("US privacy choice in GPP sections")
struct USPrivacyChoiceGPPTests {
    static let decided = Date(timeIntervalSince1970: 1_795_000_000.25)

    static func choice(sale: Bool = false, sharing: Bool = false, targeted: Bool = false, limited: Bool = false) -> USPrivacyChoice {
        USPrivacyChoice(saleOptOut: sale, sharingOptOut: sharing, targetedAdvertisingOptOut: targeted,
                        sensitiveDataLimited: limited, noticeVersion: 3, language: "en", decided: decided)
    }

    /// The sections encoded into a GPP string and decoded again with `GPPString(decoding:)`.
    static func decoded(
        _ choice: USPrivacyChoice?, _ sections: [Int], covered: Bool = false, mode: GPPApplicability.MSPAMode? = nil,
        gpc: Bool = false, knownChild: Bool = false
    ) throws -> GPPString {
        let applicability = GPPApplicability(applicableSections: sections, mspaCoveredTransaction: covered, mspaMode: mode)
        let written = USPrivacyChoice.gppSections(of: choice, applicability: applicability, signals: USPrivacySignals(gpc: gpc, knownChild: knownChild))
        return try GPPString(decoding: GPPString(sections: written).encoded())
    }

    @Test("usca: notices provided, each opt-out as chosen, every sensitive category limited, no known child, not covered, GPC false")
    func california() throws {
        let section = try #require(try Self.decoded(Self.choice(sale: true, sharing: false, limited: true), [8]).us(.usca))
        #expect(section.saleOptOutNotice == .provided)
        #expect(section.sharingOptOutNotice == .provided)
        #expect(section.sensitiveDataLimitUseNotice == .provided)
        #expect(section.saleOptOut == .optedOut)
        #expect(section.sharingOptOut == .didNotOptOut)
        #expect(section.sensitiveDataOptOuts == Array(repeating: .optedOut, count: 9))
        #expect(section.knownChildSensitiveDataConsents == [.notApplicable, .notApplicable])
        #expect(section.personalDataConsents == .notApplicable)
        #expect(section.mspaCoveredTransaction == .no)
        #expect(section.mspaOptOutOptionMode == .notApplicable)
        #expect(section.mspaServiceProviderMode == .notApplicable)
        #expect(section.gpc == false)
    }

    @Test("usca without the limit: every sensitive category 'did not opt out'")
    func californiaNotLimited() throws {
        let section = try #require(try Self.decoded(Self.choice(), [8]).us(.usca))
        #expect(section.sensitiveDataOptOuts == Array(repeating: .didNotOptOut, count: 9))
        #expect(section.saleOptOut == .didNotOptOut)
    }

    @Test("usnat: the v2 layout, every notice provided, the targeted-advertising opt-out alone, 16 sensitive categories without consent")
    func national() throws {
        let section = try #require(try Self.decoded(Self.choice(targeted: true), [7]).usnat)
        #expect(section.layout === USSectionLayout.usnat)
        for notice in [section.sharingNotice, section.saleOptOutNotice, section.sharingOptOutNotice, section.targetedAdvertisingOptOutNotice,
                       section.sensitiveDataProcessingOptOutNotice, section.sensitiveDataLimitUseNotice] {
            #expect(notice == .provided)
        }
        #expect(section.saleOptOut == .didNotOptOut)
        #expect(section.sharingOptOut == .didNotOptOut)
        #expect(section.targetedAdvertisingOptOut == .optedOut)
        #expect(section.sensitiveDataConsents == Array(repeating: .noConsent, count: 16))
        #expect(section.knownChildSensitiveDataConsents == Array(repeating: .notApplicable, count: 3))
        #expect(section.personalDataConsents == .notApplicable)
        #expect(section.gpc == false)
    }

    @Test("usva: sale and targeted-advertising opt-outs, consent sensitive data, and no GPC sub-section even with GPC")
    func virginia() throws {
        let section = try #require(try Self.decoded(Self.choice(sale: true), [9], gpc: true).us(.usva))
        #expect(section.sharingNotice == .provided)
        #expect(section.saleOptOut == .optedOut)
        #expect(section.targetedAdvertisingOptOut == .optedOut)
        #expect(section.sensitiveDataConsents == Array(repeating: .noConsent, count: 8))
        #expect(section.knownChildSensitiveDataConsents == [.notApplicable])
        #expect(section.gpc == nil)
        #expect(!section.isPresent(subsection: 0) || section.layout.subsections.isEmpty)
    }

    @Test("usco with GPC and no choice yet: notices not provided, both opt-outs on, Gpc true in the sub-section")
    func coloradoGPC() throws {
        let section = try #require(try Self.decoded(nil, [10], gpc: true).us(.usco))
        #expect(section.sharingNotice == .notProvided)
        #expect(section.saleOptOutNotice == .notProvided)
        #expect(section.targetedAdvertisingOptOutNotice == .notProvided)
        #expect(section.saleOptOut == .optedOut)
        #expect(section.targetedAdvertisingOptOut == .optedOut)
        #expect(section.sensitiveDataConsents == Array(repeating: .noConsent, count: 7))
        #expect(section.gpc == true)
    }

    @Test("no choice yet and no signal: notices not provided, nothing opted out")
    func noChoiceYet() throws {
        let section = try #require(try Self.decoded(nil, [8]).us(.usca))
        #expect(section.saleOptOutNotice == .notProvided)
        #expect(section.sharingOptOutNotice == .notProvided)
        #expect(section.sensitiveDataLimitUseNotice == .notProvided)
        #expect(section.saleOptOut == .didNotOptOut)
        #expect(section.sharingOptOut == .didNotOptOut)
        #expect(section.sensitiveDataOptOuts == Array(repeating: .didNotOptOut, count: 9))
    }

    @Test("a known child in a consent state (usct): every opt-out on whatever the choice, every known-child entry 'no consent'")
    func knownChildConnecticut() throws {
        let section = try #require(try Self.decoded(Self.choice(), [12], knownChild: true).us(.usct))
        #expect(section.saleOptOut == .optedOut)
        #expect(section.targetedAdvertisingOptOut == .optedOut)
        #expect(section.sensitiveDataConsents == Array(repeating: .noConsent, count: 8))
        #expect(section.knownChildSensitiveDataConsents == Array(repeating: .noConsent, count: 3))
        #expect(section.gpc == false)
    }

    @Test("a known child in usca: the under-16 consents are 'no consent' and sale and sharing are opted out")
    func knownChildCalifornia() throws {
        let section = try #require(try Self.decoded(nil, [8], knownChild: true).us(.usca))
        #expect(section.knownChildSensitiveDataConsents == [.noConsent, .noConsent])
        #expect(section.saleOptOut == .optedOut)
        #expect(section.sharingOptOut == .optedOut)
    }

    @Test("usut: sensitive data is an opt-out with its notice; no GPC sub-section")
    func utah() throws {
        let section = try #require(try Self.decoded(Self.choice(limited: true), [11], gpc: true).us(.usut))
        #expect(section.sensitiveDataProcessingOptOutNotice == .provided)
        #expect(section.sensitiveDataOptOuts == Array(repeating: .optedOut, count: 8))
        #expect(section.saleOptOut == .optedOut)
        #expect(section.gpc == nil)
    }

    @Test("usmd in a covered transaction in Opt-Out Option Mode: MspaMode 1, MspaCoveredTransaction 1, the opt-outs as chosen")
    func marylandOptOutMode() throws {
        let section = try #require(try Self.decoded(Self.choice(sale: true), [24], covered: true, mode: .optOut).us(.usmd))
        #expect(section.mspaCoveredTransaction == .yes)
        #expect(section.mspaMode == .optOutOptionMode)
        #expect(section.processingNotice == .provided)
        #expect(section.saleOptOutNotice == .provided)
        #expect(section.saleOptOut == .optedOut)
        #expect(section.targetedAdvertisingOptOut == .didNotOptOut)
        #expect(section.gpc == false)
    }

    @Test("usmd in Service Provider Mode: MspaMode 2, the opt-outs and their notices not applicable, the processing notice provided")
    func marylandServiceProvider() throws {
        let section = try #require(try Self.decoded(Self.choice(sale: true), [24], covered: true, mode: .serviceProvider, gpc: true).us(.usmd))
        #expect(section.mspaMode == .serviceProviderMode)
        #expect(section.processingNotice == .provided)
        #expect(section.saleOptOutNotice == .notApplicable)
        #expect(section.targetedAdvertisingOptOutNotice == .notApplicable)
        #expect(section.saleOptOut == .notApplicable)
        #expect(section.targetedAdvertisingOptOut == .notApplicable)
        #expect(section.gpc == true)
    }

    @Test("usmd not covered: MspaMode 0, MspaCoveredTransaction 2")
    func marylandNotCovered() throws {
        let section = try #require(try Self.decoded(nil, [24]).us(.usmd))
        #expect(section.mspaCoveredTransaction == .no)
        #expect(section.mspaMode == .notApplicable)
    }

    @Test("usnat in Service Provider Mode: the mode flags 2 and 1, nothing opted out or noticed even with GPC and a known child")
    func nationalServiceProvider() throws {
        let section = try #require(try Self.decoded(Self.choice(sale: true, sharing: true, targeted: true), [7], covered: true,
                                                    mode: .serviceProvider, gpc: true, knownChild: true).usnat)
        #expect(section.mspaCoveredTransaction == .yes)
        #expect(section.mspaOptOutOptionMode == .no)
        #expect(section.mspaServiceProviderMode == .yes)
        #expect([section.saleOptOut, section.sharingOptOut, section.targetedAdvertisingOptOut].allSatisfy { $0 == .notApplicable })
        #expect([section.saleOptOutNotice, section.sharingOptOutNotice, section.targetedAdvertisingOptOutNotice].allSatisfy { $0 == .notApplicable })
        #expect(section.sharingNotice == .provided)
        #expect(section.knownChildSensitiveDataConsents == Array(repeating: .noConsent, count: 3))
        #expect(section.gpc == true)
    }

    @Test("usnat in a covered transaction in Opt-Out Option Mode: the mode flags 1 and 2")
    func nationalOptOutMode() throws {
        let section = try #require(try Self.decoded(Self.choice(), [7], covered: true, mode: .optOut).usnat)
        #expect(section.mspaCoveredTransaction == .yes)
        #expect(section.mspaOptOutOptionMode == .yes)
        #expect(section.mspaServiceProviderMode == .no)
        #expect(section.saleOptOut == .didNotOptOut)
    }

    @Test("usin: the sensitive-data sub-section is written, every category without consent")
    func indiana() throws {
        let section = try #require(try Self.decoded(Self.choice(), [25]).us(.usin))
        #expect(section.sensitiveDataConsents == Array(repeating: .noConsent, count: 8))
        #expect(section.knownChildSensitiveDataConsents == [.notApplicable])
        #expect(section.additionalDataProcessingConsent == .notApplicable)
    }

    @Test("two applicable sections come out in id order, each encoded")
    func twoSections() throws {
        let gpp = try Self.decoded(Self.choice(sale: true), [8, 7])
        #expect(gpp.sectionIds == [7, 8])
        #expect(gpp.usnat?.saleOptOut == .optedOut)
        #expect(gpp.us(.usca)?.saleOptOut == .optedOut)
    }

    @Test("nothing applicable, or only non-US sections: no section")
    func outsideTheUS() {
        let signals = USPrivacySignals(gpc: true, knownChild: false)
        #expect(USPrivacyChoice.gppSections(of: Self.choice(sale: true), applicability: .notApplicable, signals: signals).isEmpty)
        #expect(USPrivacyChoice.gppSections(of: nil, applicability: GPPApplicability(applicableSections: [2, 5, 6]), signals: signals).isEmpty)
    }
}
