import Foundation
import Testing
@testable import TCF

/// What a TC string decodes into is bounded by the string's length: publisher restrictions of
/// vendors 1-65,535 (33 bits each in the string) used to become an 8 KB bitset apiece.
@Suite("Memory bound of decoding")
struct MemoryBoundTests {
    /// The bound the decoder keeps (see `IDSet.Runs`): 32 bytes for each character of the
    /// string, plus 64 KB for the value's fixed parts.
    static func bound(_ string: String) -> Int { 32 * string.utf8.count + 65_536 }

    /// A TC string whose `records` publisher restrictions each name the range 1-65,535: the
    /// largest set a restriction can name, in the fewest bits.
    static func worstString(records: Int) throws -> String {
        let time = TCFTimestamp(deciseconds: 16_000_000_000)
        let restrictions = (0..<records).map { index in
            PublisherRestriction(
                purposeId: index % 24 + 1, restrictionType: .notAllowed, vendorIds: IDSet(1...IDSet.maxID))
        }
        return try TCString(
            created: time, lastUpdated: time, cmpId: 300, cmpVersion: 1, consentScreen: 1, consentLanguage: "EN",
            vendorListVersion: 45, tcfPolicyVersion: 5, publisherRestrictions: restrictions
        ).encoded()
    }

    @Test("4,095 restrictions of vendors 1-65,535 decode within the bound, each a set of all of them",
          arguments: [4_095, 200, 1])
    func worstStringDecodesWithinTheBound(records: Int) throws {
        let string = try Self.worstString(records: records)
        let decoded = try TCString(decoding: string)
        #expect(decoded.publisherRestrictions.count == records)
        #expect(decoded.publisherRestrictions.allSatisfy { $0.vendorIds.count == IDSet.maxID && $0.vendorIds.contains(755) })
        #expect(decoded.memoryFootprint <= Self.bound(string),
                "\(string.utf8.count) characters decode into \(decoded.memoryFootprint) bytes")
        #expect(try decoded.encoded() == string)
    }

    @Test("a restriction of vendors 1-65,535 holds a few dozen bytes, not a bitset of 8 KB")
    func longRunIsHeldAsItsRun() {
        #expect(IDSet(1...IDSet.maxID).heapBytes < 100)
        #expect(IDSet([1, IDSet.maxID]).heapBytes < 100)
        // A dense set stays a bitset: 1,024 words, one bit per id.
        let everyOther = IDSet(stride(from: 1, through: IDSet.maxID, by: 2))
        #expect(everyOther.heapBytes >= 8 * 1_024)
    }

    @Test("a set is equal to, and hashes like, the same ids built any other way, whichever form it takes")
    func equalityIgnoresHowTheSetWasBuilt() {
        let cases: [[Int]] = [
            Array(1...IDSet.maxID), [1, IDSet.maxID], Array(100...4_000) + [9_000], Array(64...127), [755],
            Array(stride(from: 1, through: 5_000, by: 3)),
        ]
        for ids in cases {
            let byIds = IDSet(ids)
            let byRanges = IDSet(validIds: ids).ranges.reduce(IDSet()) { $0.union(IDSet($1)) }
            let byRemoval = IDSet(1...IDSet.maxID).subtracting(IDSet(1...IDSet.maxID).subtracting(byIds))
            for other in [byRanges, byRemoval] {
                #expect(other == byIds)
                #expect(other.hashValue == byIds.hashValue)
                #expect(other.count == ids.count)
                #expect(other.max == ids.max())
                #expect(Array(other) == ids.sorted())
            }
        }
        #expect(IDSet(1...IDSet.maxID) != IDSet(2...IDSet.maxID))
        #expect(IDSet([1, 70]) != IDSet([1, 71]))
    }

    @Test("the JSON form gives a restriction's vendors as ranges and reads them back, and single ids too")
    func restrictionVendorsAreRangesInJSON() throws {
        let restriction = PublisherRestriction(
            purposeId: 2, restrictionType: .requireConsent, vendorIds: IDSet(1...IDSet.maxID).subtracting([755]))
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let json = String(decoding: try encoder.encode(restriction), as: UTF8.self)
        #expect(json == #"{"purposeId":2,"restrictionType":1,"vendorIds":[[1,754],[756,65535]]}"#)
        #expect(try JSONDecoder().decode(PublisherRestriction.self, from: Data(json.utf8)) == restriction)
        let singles = #"{"purposeId":2,"restrictionType":1,"vendorIds":[3,[5,6],4]}"#
        #expect(try JSONDecoder().decode(PublisherRestriction.self, from: Data(singles.utf8)).vendorIds == [3, 4, 5, 6])
        for bad in ["[[0,5]]", "[[6,5]]", "[[1,65536]]", "[[1,2,3]]", "[70000]"] {
            let text = #"{"purposeId":2,"restrictionType":1,"vendorIds":\#(bad)}"#
            #expect(throws: DecodingError.self, "\(bad)") {
                try JSONDecoder().decode(PublisherRestriction.self, from: Data(text.utf8))
            }
        }
    }
}
