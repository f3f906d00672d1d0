import Testing
@testable import ConsentKit

/// The US state law table and which GPP sections apply (decision record 0031).
@Suite("US state privacy and GPP applicability")
struct USStatePrivacyTests {
    /// Every state with a GPP section: its id and prefix, per the GPP's `Section Information.md`.
    static let sections: [(String, Int, String)] = [
        ("CA", 8, "usca"), ("VA", 9, "usva"), ("CO", 10, "usco"), ("UT", 11, "usut"), ("CT", 12, "usct"), ("FL", 13, "usfl"),
        ("MT", 14, "usmt"), ("OR", 15, "usor"), ("TX", 16, "ustx"), ("DE", 17, "usde"), ("IA", 18, "usia"), ("NE", 19, "usne"),
        ("NH", 20, "usnh"), ("NJ", 21, "usnj"), ("TN", 22, "ustn"), ("MN", 23, "usmn"), ("MD", 24, "usmd"), ("IN", 25, "usin"),
        ("KY", 26, "usky"), ("RI", 27, "usri"),
    ]

    @Test("the table holds the twenty states with a section, ids 8 to 27 with their API prefixes")
    func table() {
        #expect(USStatePrivacy.all.map { ($0.state, $0.sectionId, $0.apiPrefix) }.elementsEqual(Self.sections) { $0 == $1 })
        for (state, id, _) in Self.sections {
            #expect(USStatePrivacy.law(of: state.lowercased())?.sectionId == id)
            #expect(USStateCode.all.contains(state))
        }
        #expect(USStatePrivacy.law(of: "WA") == nil)
    }

    @Test("GPC is required in CA, CO, CT, TX, MT, NH, NE, NJ, MN, MD, OR and DE, and nowhere else in the table")
    func gpcRequired() {
        #expect(Set(USStatePrivacy.all.filter(\.gpcRequired).map(\.state))
            == ["CA", "CO", "CT", "TX", "MT", "NH", "NE", "NJ", "MN", "MD", "OR", "DE"])
    }

    @Test("VA, UT, FL, IN, KY and RI have no GPC sub-section; every other state's section has one")
    func gpcSubsection() {
        #expect(Set(USStatePrivacy.all.filter { !$0.hasGPCSubsection }.map(\.state)) == ["VA", "UT", "FL", "IN", "KY", "RI"])
    }

    @Test("sensitive data is opt-out in CA, UT and IA, absent from MD's section, consent elsewhere")
    func sensitiveData() {
        for law in USStatePrivacy.all {
            let expected: USStatePrivacy.SensitiveData = ["CA", "UT", "IA"].contains(law.state) ? .optOut : law.state == "MD" ? .notInSection : .consent
            #expect(law.sensitiveData == expected, "\(law.state)")
        }
    }

    static let covered = [
        USPrivacySettings(mspaCoveredTransaction: true, mspaMode: .optOut),
        USPrivacySettings(mspaCoveredTransaction: true, mspaMode: .serviceProvider, approach: .national),
    ]

    @Test("state approach, not covered: each state with a section gets its section", arguments: sections)
    func stateApproach(state: String, id: Int, prefix: String) {
        #expect(USPrivacySettings.standard.applicability(region: .us, subdivision: state) == GPPApplicability(applicableSections: [id]))
    }

    @Test("national approach or a covered transaction: usnat for every state, with the MSPA fields", arguments: sections.map(\.0) + ["WA", "DC"])
    func nationalOrCovered(state: String) {
        #expect(USPrivacySettings(approach: .national).applicability(region: .us, subdivision: state) == GPPApplicability(applicableSections: [7]))
        for settings in Self.covered {
            #expect(settings.applicability(region: .us, subdivision: state)
                == GPPApplicability(applicableSections: [7], mspaCoveredTransaction: true, mspaMode: settings.mspaMode))
        }
    }

    @Test("state approach: a state without a section, or an unknown state, falls back to usnat", arguments: ["WA", "NY", "DC", nil, "ZZ"] as [String?])
    func fallback(state: String?) {
        #expect(USPrivacySettings.standard.applicability(region: .us, subdivision: state).applicableSections == [7])
    }

    @Test("outside the US, or where the region is unknown, no section applies", arguments: [AppConfig.Region.eea, .uk, .ch, .other, .unknown])
    func notUS(region: AppConfig.Region) {
        #expect(USPrivacySettings.standard.applicability(region: region, subdivision: nil).applicableSections == [])
        for settings in Self.covered + [USPrivacySettings(approach: .national)] {
            #expect(settings.applicability(region: region, subdivision: "CA").applicableSections == [])
        }
    }

    @Test("a mode without a covered transaction is dropped")
    func modeNeedsCoverage() {
        #expect(USPrivacySettings(mspaCoveredTransaction: false, mspaMode: .optOut).mspaMode == nil)
    }

    @Test("publishers together: covered when any is, opt-out mode when any covered one is, national when any asks")
    func combined() {
        let serviceProvider = USPrivacySettings(mspaCoveredTransaction: true, mspaMode: .serviceProvider)
        let optOut = USPrivacySettings(mspaCoveredTransaction: true, mspaMode: .optOut)
        #expect(USPrivacySettings.combined([]) == .standard)
        #expect(USPrivacySettings.combined([.standard, serviceProvider]) == serviceProvider)
        #expect(USPrivacySettings.combined([serviceProvider, optOut]) == optOut)
        #expect(USPrivacySettings.combined([.standard, USPrivacySettings(approach: .national)]).approach == .national)
    }
}
