import Foundation
import Testing
import TCF
@testable import ConsentKit

@Suite("IAB in-app keys")
struct IABKeysTests {
    let restriction = PublisherRestriction(purposeId: 7, restrictionType: .requireLegitimateInterest, vendorIds: [3, 5])
    let notAllowed = PublisherRestriction(purposeId: 7, restrictionType: .notAllowed, vendorIds: [4])
    let undefined = PublisherRestriction(purposeId: 7, restrictionType: .undefined, vendorIds: [6])

    func decision(customPurposes: Int = 0) -> ConsentState {
        ConsentState.agreeToAll(
            scope: testScope(publisherPurposes: [1, 2], customPurposes: customPurposes, restrictions: [restriction, notAllowed, undefined]),
            at: testDate)
    }

    @Test("v2 keys carry the spec's types, read back as a third-party SDK reads them")
    func version2KeysAndTypes() throws {
        try withTestSuite { name, store in
            let state = decision(customPurposes: 2)
            try ConsentStorage(store: store, cmp: testCMP, generations: .version2).write(state, gdprApplies: .applies)
            let defaults = try #require(UserDefaults(suiteName: name))
            #expect(defaults.integer(forKey: "IABTCF_CmpSdkID") == 300)
            #expect(defaults.integer(forKey: "IABTCF_CmpSdkVersion") == 7)
            #expect(defaults.integer(forKey: "IABTCF_PolicyVersion") == Fixtures.vendorList.tcfPolicyVersion)
            #expect((defaults.object(forKey: "IABTCF_gdprApplies") as? NSNumber)?.intValue == 1)
            #expect(defaults.string(forKey: "IABTCF_PublisherCC") == "DE")
            #expect((defaults.object(forKey: "IABTCF_PurposeOneTreatment") as? NSNumber)?.intValue == 0)
            #expect((defaults.object(forKey: "IABTCF_UseNonStandardTexts") as? NSNumber)?.intValue == 0)
            let tcString = try #require(defaults.string(forKey: "IABTCF_TCString"))
            let decoded = try TCString(decoding: tcString)
            #expect(defaults.string(forKey: "IABTCF_VendorConsents").flatMap(BinaryString.decode) == decoded.vendorConsents)
            #expect(defaults.string(forKey: "IABTCF_VendorLegitimateInterests").flatMap(BinaryString.decode) == decoded.vendorLegitimateInterests)
            #expect(defaults.string(forKey: "IABTCF_DisclosedVendors").flatMap(BinaryString.decode) == decoded.disclosedVendors)
            #expect(defaults.string(forKey: "IABTCF_PurposeConsents") == "11111111111")
            #expect(defaults.string(forKey: "IABTCF_PurposeLegitimateInterests").flatMap(BinaryString.decode) == decoded.purposesLITransparency)
            #expect(defaults.string(forKey: "IABTCF_SpecialFeaturesOptIns") == "11")
            #expect(defaults.string(forKey: "IABTCF_PublisherConsent") == "11")
            #expect(defaults.string(forKey: "IABTCF_PublisherCustomPurposesConsents") == "11")
            #expect(defaults.string(forKey: "IABTCF_PublisherRestrictions7") == "__202")
            #expect(defaults.object(forKey: "IABConsent_CMPPresent") == nil)
        }
    }

    @Test("v1 keys on request: CMPPresent a Bool, SubjectToGDPR a String, parsed strings from purpose and vendor 1")
    func version1Keys() throws {
        try withTestSuite { name, store in
            let state = try decision().changing(at: testDate) { try $0.setVendor(1, consent: false) }
            try ConsentStorage(store: store, cmp: testCMP, generations: .version1).write(state, gdprApplies: .doesNotApply)
            let defaults = try #require(UserDefaults(suiteName: name))
            #expect(defaults.bool(forKey: "IABConsent_CMPPresent"))
            #expect(defaults.object(forKey: "IABConsent_SubjectToGDPR") as? String == "0")
            let v1 = try ConsentStringV1(decoding: try #require(defaults.string(forKey: "IABConsent_ConsentString")))
            #expect(v1.vendorConsents == state.vendorConsents)
            #expect(defaults.string(forKey: "IABConsent_ParsedPurposeConsents") == "11111")
            let vendors = try #require(defaults.string(forKey: "IABConsent_ParsedVendorConsents"))
            #expect(vendors.first == "0")
            #expect(BinaryString.decode(vendors) == state.vendorConsents)
            #expect(defaults.object(forKey: "IABTCF_TCString") == nil)
        }
    }

    @Test("v1 parsed keys hold one character per purpose and vendor, also after reject all and below the highest purpose")
    func version1ParsedKeysFullLength() throws {
        let store = InMemoryKeyValueStore()
        let storage = ConsentStorage(store: store, cmp: testCMP, generations: .version1)
        let rejected = ConsentState.disagreeToAll(scope: testScope(count: 850), at: testDate)
        try storage.write(rejected, gdprApplies: .applies)
        #expect(store.value(forKey: IABKey.parsedPurposeConsents) == .string("00000"))
        let vendors = try #require(store.value(forKey: IABKey.parsedVendorConsents)?.string)
        #expect(vendors.count == rejected.disclosedVendors.max)
        #expect(!vendors.contains("1"))

        let storageOnly = try rejected.changing(at: testDate) { try $0.setPurpose(1, consent: true); try $0.setVendor(8, consent: true) }
        try storage.write(storageOnly, gdprApplies: .applies)
        #expect(store.value(forKey: IABKey.parsedPurposeConsents) == .string("10000"))
        let some = try #require(store.value(forKey: IABKey.parsedVendorConsents)?.string)
        #expect(some.count == rejected.disclosedVendors.max)
        #expect(BinaryString.decode(some) == [8])
    }

    @Test("keys that no longer apply are removed: undetermined region, a lifted restriction, a generation turned off")
    func staleKeysAreRemoved() throws {
        try withTestSuite { name, store in
            let both = ConsentStorage(store: store, cmp: testCMP, generations: .all)
            try both.write(decision(), gdprApplies: .applies)
            let defaults = try #require(UserDefaults(suiteName: name))
            #expect(defaults.object(forKey: "IABTCF_PublisherRestrictions7") != nil)
            #expect(defaults.object(forKey: "IABConsent_ConsentString") != nil)
            let unrestricted = ConsentState.agreeToAll(scope: testScope(), at: testDate)
            // Under doNotAsk a decision held where the region is unknown leaves it undetermined (under ask, GDPR applies to it).
            try ConsentStorage(store: store, cmp: testCMP, generations: .version2, askRules: AskRules(whenRegionUnknown: .doNotAsk))
                .write(unrestricted, gdprApplies: .undetermined)
            #expect(defaults.object(forKey: "IABTCF_gdprApplies") == nil)
            #expect(defaults.object(forKey: "IABTCF_PublisherRestrictions7") == nil)
            #expect(defaults.object(forKey: "IABConsent_ConsentString") == nil)
            // CMPPresent is never removed: the v1 spec has the publisher set it, and a CMP is present.
            #expect(defaults.bool(forKey: "IABConsent_CMPPresent"))
            #expect(defaults.string(forKey: "IABTCF_TCString") != nil)
        }
    }

    @Test("removeAll clears every key the CMP owns, both generations and its own records, but IABConsent_CMPPresent")
    func removeAllClears() throws {
        try withTestSuite { name, store in
            let storage = ConsentStorage(store: store, cmp: testCMP, generations: .all)
            try storage.write(decision(customPurposes: 1), gdprApplies: .applies)
            store.write(["SomeoneElses": .string("kept")])
            storage.removeAll()
            let left = try #require(UserDefaults(suiteName: name)).dictionaryRepresentation().keys
                .filter { $0.hasPrefix("IAB") || $0.hasPrefix("ConsentKit") || $0 == "SomeoneElses" }
            #expect(Set(left) == ["SomeoneElses", "IABConsent_CMPPresent"])
        }
    }

    @Test("a decision read back from storage equals the one written, to the millisecond")
    func restoreRoundTrip() throws {
        try withTestSuite { name, store in
            let storage = ConsentStorage(store: store, cmp: testCMP, generations: .version2)
            let state = decision(customPurposes: 3)
            try storage.write(state, gdprApplies: .applies)
            let restored = ConsentStorage(store: try #require(UserDefaultsStore(suiteName: name)),
                                          cmp: testCMP, generations: .version2).restore()
            #expect(restored.state == state)
            #expect(restored.gdprApplies == .applies)
            #expect(restored.problem == nil)
        }
    }

    @Test("a damaged record restores no decision and says why, never a consent")
    func damagedRecord() throws {
        try withTestSuite { _, store in
            store.write([ConsentStorage.decisionKey: .string("2|COxxxx-not-a-string|1|2|0")])
            let restored = ConsentStorage(store: store, cmp: testCMP, generations: .version2).restore()
            #expect(restored.state == nil)
            #expect(restored.problem?.contains(ConsentStorage.decisionKey) == true)
        }
    }

    @Test("a reader never sees a TC string from one decision next to parsed keys from another, through another store instance")
    func readersSeeWholeChanges() async throws {
        try await withTestSuite { name, store in
            let storage = ConsentStorage(store: store, cmp: testCMP, generations: .version2)
            let reader = try #require(UserDefaultsStore(suiteName: name))
            let all = ConsentState.agreeToAll(scope: testScope(count: 300), at: testDate)
            let none = ConsentState.disagreeToAll(scope: testScope(count: 300), at: testDate)
            try storage.write(all, gdprApplies: .applies)
            let done = Locked(false)
            let writer = Task.detached {
                defer { done.withLock { $0 = true } }
                for round in 0..<300 { try storage.write(round.isMultiple(of: 2) ? none : all, gdprApplies: .applies) }
            }
            var checked = 0
            while !done.withLock({ $0 }) {
                let values = reader.values(forKeys: [IABKey.tcString, IABKey.vendorConsents])
                let tc = try TCString(decoding: try #require(values[IABKey.tcString]?.string))
                #expect(BinaryString.decode(try #require(values[IABKey.vendorConsents]?.string)) == tc.vendorConsents)
                checked += 1
            }
            #expect(checked > 10, "the reads must overlap the writes")
            try await writer.value
        }
    }
}
