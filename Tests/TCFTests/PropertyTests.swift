import Testing
@testable import TCF

/// Round trips over generated values: for every model m, decode(encode(m)) == m, and the
/// encoder's choice of bitfield or ranges never changes what a string means.
@Suite struct PropertyTests {
    static let cases = 1000

    @Test func everyGeneratedTCStringSurvivesEncodeThenDecode() throws {
        var random = SplitMix64(seed: 0x5EED_0002)
        for _ in 0..<Self.cases {
            let model = random.tcString()
            let text = try model.encoded()
            #expect(try TCString(decoding: text) == model, "\(text)")
        }
    }

    @Test func everyGeneratedV1StringSurvivesEncodeThenDecode() throws {
        var random = SplitMix64(seed: 0x5EED_0001)
        for _ in 0..<Self.cases {
            let model = random.consentStringV1()
            let text = try model.encoded()
            #expect(try ConsentStringV1(decoding: text) == model, "\(text)")
        }
    }

    @Test func everyGeneratedPublisherPurposesStringSurvivesEncodeThenDecode() throws {
        var random = SplitMix64(seed: 0x5EED_0003)
        for _ in 0..<Self.cases {
            let custom = random.int(0...63)
            let model = PublisherPurposesString(
                created: random.timestamp(), lastUpdated: random.timestamp(), cmpId: random.int(0...4095),
                cmpVersion: random.int(0...4095), consentScreen: random.int(0...63), consentLanguage: random.letters(),
                vendorListVersion: random.int(0...4095), publisherPurposesVersion: random.int(0...4095),
                standardPurposesAllowed: random.idSet(max: 24), numberCustomPurposes: custom,
                customPurposesAllowed: random.idSet(max: custom))
            #expect(try PublisherPurposesString(decoding: model.encoded()) == model)
        }
    }

    @Test func rangesAndRunCountsMatchAWalkOverTheSortedIds() {
        var random = SplitMix64(seed: 0x5EED_0004)
        for _ in 0..<Self.cases {
            let set = random.idSet(max: [1, 63, 64, 65, 128, 700, 4500][random.int(0...6)])
            // The obvious way: extend the open run while ids are consecutive.
            var expected: [ClosedRange<Int>] = []
            for id in set.sorted {
                if let last = expected.last, last.upperBound == id - 1 {
                    expected[expected.count - 1] = last.lowerBound...id
                } else {
                    expected.append(id...id)
                }
            }
            #expect(set.ranges == expected, "\(set)")
            let counts = set.runCounts
            #expect(counts.runs == expected.count)
            #expect(counts.singles == expected.filter { $0.count == 1 }.count)
        }
    }

    @Test func equalSetsAreEqualAndHashAlikeWhicheverWayTheyWereBuilt() {
        var random = SplitMix64(seed: 0x5EED_0005)
        for _ in 0..<Self.cases {
            let set = random.idSet(max: [24, 63, 64, 200][random.int(0...3)])
            // The same bits as words with trailing zero words, as a bitfield decoder makes them.
            var words = (0..<set.wordCount).map { set.word($0) }
            words += Array(repeating: 0, count: random.int(0...3))
            let rebuilt = IDSet(words: words)
            #expect(rebuilt == set)
            #expect(rebuilt.hashValue == set.hashValue)
            #expect(IDSet(set.sorted) == set)
            #expect(rebuilt.max == set.max && rebuilt.count == set.count)
        }
    }

    @Test func theEncoderPicksTheShorterOfBitfieldAndRanges() throws {
        let base = TCString(
            created: TCFTimestamp(deciseconds: 0), lastUpdated: TCFTimestamp(deciseconds: 0), cmpId: 1, cmpVersion: 1,
            consentScreen: 1, consentLanguage: "EN", vendorListVersion: 1, tcfPolicyVersion: 5)
        // One long run: a range (12 + 33 bits) beats a 2000-bit bitfield.
        let run = try TCString(copying: base, vendorConsents: IDSet(1...2000)).encoded()
        // Every other vendor: 1000 ranges would cost far more than the bitfield.
        let alternate = try TCString(copying: base, vendorConsents: IDSet(stride(from: 1, through: 2000, by: 2))).encoded()
        #expect(run.count < 80)
        #expect(alternate.count > 2000 / 6)
        #expect(alternate.count < 2000 / 6 + 80)
    }

    @Test func aV1StringWithNearlyAllVendorsUsesDefaultConsent() throws {
        let value = ConsentStringV1(
            created: TCFTimestamp(deciseconds: 1), lastUpdated: TCFTimestamp(deciseconds: 1), cmpId: 1, cmpVersion: 1,
            consentScreen: 1, consentLanguage: "EN", vendorListVersion: 1, purposesAllowed: [1],
            maxVendorId: 3000, vendorConsents: IDSet((1...3000).filter { $0 != 42 }))
        let text = try value.encoded()
        #expect(text.count < 45)
        #expect(try ConsentStringV1(decoding: text) == value)
    }
}

extension TCString {
    /// `base` with other vendor consents.
    init(copying base: TCString, vendorConsents: IDSet) {
        self.init(
            created: base.created, lastUpdated: base.lastUpdated, cmpId: base.cmpId, cmpVersion: base.cmpVersion,
            consentScreen: base.consentScreen, consentLanguage: base.consentLanguage,
            vendorListVersion: base.vendorListVersion, tcfPolicyVersion: base.tcfPolicyVersion,
            vendorConsents: vendorConsents)
    }
}

/// A small, seedable generator (SplitMix64), so failures reproduce.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &self) }
    mutating func bool() -> Bool { Bool.random(using: &self) }

    mutating func timestamp() -> TCFTimestamp { TCFTimestamp(deciseconds: Int64(int(0...(1 << 36) - 1))) }

    mutating func letters() -> String {
        String(decoding: [UInt8(65 + int(0...25)), UInt8(65 + int(0...25))], as: UTF8.self)
    }

    /// Sets of every shape: empty, sparse, dense, runs, full, up to `max`.
    mutating func idSet(max: Int) -> IDSet {
        guard max > 0 else { return [] }
        switch int(0...4) {
        case 0: return []
        case 1: return IDSet((0..<int(1...8)).map { _ in int(1...max) })
        case 2: return IDSet((1...max).filter { _ in bool() })
        case 3:
            var ids: [Int] = []
            for _ in 0..<int(1...6) {
                let start = int(1...max)
                ids += Array(start...Swift.min(max, start + int(0...300)))
            }
            return IDSet(ids)
        default: return IDSet(1...max)
        }
    }

    mutating func tcString() -> TCString {
        let vendorMax = [0, 10, 700, 1500, 4500, 65_535][int(0...5)]
        let restrictions = (0..<int(0...4)).map { _ in
            PublisherRestriction(
                purposeId: int(1...24), restrictionType: PublisherRestriction.RestrictionType(rawValue: int(0...3))!,
                vendorIds: idSet(max: Swift.max(vendorMax, 1)))
        }.filter { $0.vendorIds.ranges.count < 4096 }
        let custom = int(0...63)
        return TCString(
            created: timestamp(), lastUpdated: timestamp(), cmpId: int(0...4095), cmpVersion: int(0...4095),
            consentScreen: int(0...63), consentLanguage: letters(), vendorListVersion: int(0...4095),
            tcfPolicyVersion: int(0...63), isServiceSpecific: bool(), useNonStandardTexts: bool(),
            specialFeatureOptIns: idSet(max: 12), purposesConsent: idSet(max: 24), purposesLITransparency: idSet(max: 24),
            purposeOneTreatment: bool(), publisherCC: letters(), vendorConsents: idSet(max: vendorMax),
            vendorLegitimateInterests: idSet(max: vendorMax), publisherRestrictions: restrictions,
            disclosedVendors: bool() ? idSet(max: vendorMax) : nil, allowedVendors: int(0...5) == 0 ? idSet(max: vendorMax) : nil,
            publisherTC: bool()
                ? PublisherTC(
                    pubPurposesConsent: idSet(max: 24), pubPurposesLITransparency: idSet(max: 24), numCustomPurposes: custom,
                    customPurposesConsent: idSet(max: custom), customPurposesLITransparency: idSet(max: custom))
                : nil)
    }

    mutating func consentStringV1() -> ConsentStringV1 {
        let maxVendorId = [0, 1, 20, 640, 2011, 65_535][int(0...5)]
        return ConsentStringV1(
            created: timestamp(), lastUpdated: timestamp(), cmpId: int(0...4095), cmpVersion: int(0...4095),
            consentScreen: int(0...63), consentLanguage: letters(), vendorListVersion: int(0...4095),
            purposesAllowed: idSet(max: 24), maxVendorId: maxVendorId, vendorConsents: idSet(max: maxVendorId))
    }
}
