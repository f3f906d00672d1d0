import Foundation
import GPP
import Testing
import TCF
@testable import ConsentKit

/// The GPP's in-app keys (`IABGPP_*`), written with the TCF keys in one change.
@Suite("GPP in-app keys")
struct GPPKeysTests {
    func decision() -> ConsentState {
        ConsentState.agreeToAll(scope: testScope(publisherPurposes: [1, 2]), at: testDate)
    }

    @Test("a decision where GDPR applies: the GPP string holds its TC string as the EEA section, in force, as UserDefaults keep it")
    func eeaDecision() throws {
        try withTestSuite { name, store in
            try ConsentStorage(store: store, cmp: testCMP, generations: .standard).write(decision(), gdprApplies: .applies)
            let defaults = try #require(UserDefaults(suiteName: name))
            let tcString = try #require(defaults.string(forKey: "IABTCF_TCString"))
            let gpp = try GPPString(decoding: try #require(defaults.string(forKey: "IABGPP_HDR_GppString")))
            #expect(gpp.sectionIds == [2])
            #expect(try gpp.tcfeuv2?.encoded() == tcString)
            #expect(defaults.string(forKey: "IABGPP_HDR_Version") == "1")
            #expect(defaults.string(forKey: "IABGPP_HDR_Sections") == "2")
            #expect(defaults.string(forKey: "IABGPP_GppSID") == "2")
            #expect(defaults.string(forKey: "IABGPP_2_String") == tcString)
            #expect(defaults.string(forKey: "IABGPP_2_TCString") == tcString)
        }
    }

    @Test("the EEA section's keys hold the v2 keys' values, each under its GPP name")
    func eeaSectionKeysMirrorTheTCFKeys() throws {
        let values = try IABKeyValues.values(for: decision(), gdprApplies: .applies, cmp: testCMP, generations: .standard)
        #expect(IABKey.gppTCFEU2.count == 17 + 24)
        for (tcf, gpp) in IABKey.gppTCFEU2 {
            #expect(values[gpp] == values[tcf], "\(gpp) mirrors \(tcf)")
        }
        #expect(values["IABGPP_TCFEU2_PurposeConsents"] == .some(.string("11111111111")))
        #expect(values["IABGPP_TCFEU2_gdprApplies"] == .some(.integer(1)))
    }

    @Test("no decision, or GDPR not applying: every GPP key is removed")
    func nothingInForce() throws {
        for (state, gdpr) in [(nil, GDPRApplicability.applies), (decision(), .doesNotApply), (decision(), .undetermined)] {
            let values = try IABKeyValues.values(for: state, gdprApplies: gdpr, cmp: testCMP, generations: .standard)
            for key in IABKey.gpp { #expect(values[key] == .some(nil), "\(key) removed") }
        }
    }

    @Test("without the gpp generation no GPP key is written or removed")
    func generationOff() throws {
        let values = try IABKeyValues.values(for: decision(), gdprApplies: .applies, cmp: testCMP, generations: .version2)
        #expect(values.keys.filter { $0.hasPrefix("IABGPP_") && values[$0] != .some(nil) }.isEmpty)
    }

    @Test("a US section: the header's keys, its string under its id, no EEA section keys")
    func usSection() throws {
        var usnat = try #require(USSection(.usnat))
        usnat.saleOptOutNotice = .provided
        usnat.saleOptOut = .optedOut
        let values = try IABKeyValues.gppValues(GPPString(sections: [.us(usnat)]), applicable: [7], tcf: [:])
        let string = try #require(values[IABKey.gppString] ?? nil)?.string
        #expect(try GPPString(decoding: try #require(string)).usnat?.saleOptOut == .optedOut)
        #expect(values[IABKey.gppSections] == .some(.string("7")) && values[IABKey.gppApplicableSections] == .some(.string("7")))
        #expect(values["IABGPP_7_String"] == .some(.string(try usnat.encoded())))
        #expect(values["IABGPP_2_String"] == .some(nil) && values["IABGPP_TCFEU2_PurposeConsents"] == .some(nil))
    }

    @Test("removing everything removes the GPP keys too")
    func removal() {
        for key in IABKey.gpp { #expect(IABKeyValues.removal[key] == .some(nil), "\(key)") }
    }
}
