import Foundation
import Testing
import TCF
@testable import ConsentKit
import ConsentKitFormats

/// `TCData`: the CMP API's object for a TC string, checked against the decoder on the 512
/// real-world strings and on strings built for one field at a time.
@Suite struct TCDataTests {
    /// The bounds the values are cut to: the real GVL v3 #45's vendors and purposes.
    static let bounds = TCData.Bounds(vendorList: Fixtures.vendorList)

    /// The 512 strings of `vectors/real-world-v2.txt`, in file order.
    static func realWorldStrings() throws -> [String] {
        String(decoding: try Fixtures.data("vectors/real-world-v2.txt"), as: UTF8.self).split(separator: "\n").map(String.init)
    }

    /// The JSON object `data.json()` reads back as.
    static func object(_ data: TCData) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(data.json().utf8)) as? [String: Any])
    }

    /// The ids a JSON id map holds `true` for, after checking that it has exactly the keys
    /// "1" ... "<largest true id>".
    static func ids(_ map: [String: Bool], _ label: String) -> IDSet {
        var members: [Int] = []
        var keys: [Int] = []
        var malformed: [String] = []
        for (key, member) in map {
            guard let id = Int(key) else {
                malformed.append(key)
                continue
            }
            keys.append(id)
            if member { members.append(id) }
        }
        #expect(malformed.isEmpty, "\(label): keys that are not ids: \(malformed)")
        // Distinct keys, all at least 1, as many as the largest, which is the largest true id:
        // exactly 1...max.
        let largest = keys.max() ?? 0
        #expect(largest == members.max() ?? 0 && keys.count == largest && keys.allSatisfy { $0 >= 1 }, "\(label): keys are not 1...max")
        return IDSet(members)
    }

    /// The TCData JSON as read back with `JSONDecoder`, field by field (a missing field or a
    /// value of another type fails the decoding).
    struct ReadBack: Decodable {
        struct Pair: Decodable {
            let consents: [String: Bool]
            let legitimateInterests: [String: Bool]
        }
        struct Vendor: Decodable {
            let consents: [String: Bool]
            let legitimateInterests: [String: Bool]
            let disclosedVendors: [String: Bool]
        }
        struct Publisher: Decodable {
            let consents: [String: Bool]
            let legitimateInterests: [String: Bool]
            let customPurpose: Pair
            let restrictions: [String: [String: Int]]
        }
        let tcString: String
        let tcfPolicyVersion: Int
        let cmpId: Int
        let cmpVersion: Int
        let gdprApplies: Bool
        let isServiceSpecific: Bool
        let useNonStandardTexts: Bool
        let publisherCC: String
        let purposeOneTreatment: Bool
        let purpose: Pair
        let vendor: Vendor
        let specialFeatureOptins: [String: Bool]
        let publisher: Publisher
        let addtlConsent: String?
    }

    /// A TC string with nothing set but what each test passes.
    static func tcString(
        restrictions: [PublisherRestriction] = [], disclosedVendors: IDSet? = nil, publisherTC: PublisherTC? = nil
    ) -> TCString {
        TCString(
            created: TCFTimestamp(testDate), lastUpdated: TCFTimestamp(testDate), cmpId: 10, cmpVersion: 2, consentScreen: 1,
            consentLanguage: "EN", vendorListVersion: 130, tcfPolicyVersion: 5, purposesConsent: [1, 3],
            vendorConsents: [2, 755], publisherRestrictions: restrictions, disclosedVendors: disclosedVendors,
            publisherTC: publisherTC)
    }

    @Test("every real-world string's TCData holds the decoder's fields, sets and restrictions")
    func realWorldStringsMatchTheDecoder() throws {
        let strings = try Self.realWorldStrings()
        #expect(strings.count == 512)
        let decoder = JSONDecoder()
        for text in strings {
            let label = String(text.prefix(30))
            let tc = try TCString(decoding: text)
            let data = TCData(tcString: text, decoded: tc, addtlConsent: nil, cmp: testCMP, bounds: Self.bounds)
            let json = try decoder.decode(ReadBack.self, from: Data(data.json().utf8))
            #expect(json.tcString == text, "\(label)")
            #expect(json.cmpId == testCMP.cmpId && json.cmpVersion == testCMP.cmpVersion, "\(label)")
            #expect(json.gdprApplies, "\(label)")
            #expect(json.tcfPolicyVersion == tc.tcfPolicyVersion, "\(label)")
            #expect(json.isServiceSpecific == tc.isServiceSpecific, "\(label)")
            #expect(json.useNonStandardTexts == tc.useNonStandardTexts, "\(label)")
            #expect(json.publisherCC == tc.publisherCC, "\(label)")
            #expect(json.purposeOneTreatment == tc.purposeOneTreatment, "\(label)")
            #expect(json.addtlConsent == nil, "\(label)")

            #expect(Self.ids(json.purpose.consents, "purpose.consents") == tc.purposesConsent, "\(label)")
            #expect(Self.ids(json.purpose.legitimateInterests, "purpose.legitimateInterests") == tc.purposesLITransparency, "\(label)")
            let listedVendors = Self.bounds.vendorIds
            #expect(Self.ids(json.vendor.consents, "vendor.consents") == tc.vendorConsents.intersection(listedVendors), "\(label)")
            #expect(Self.ids(json.vendor.legitimateInterests, "vendor.legitimateInterests") == tc.vendorLegitimateInterests.intersection(listedVendors),
                    "\(label)")
            #expect(Self.ids(json.vendor.disclosedVendors, "vendor.disclosedVendors") == (tc.disclosedVendors ?? []).intersection(listedVendors), "\(label)")
            #expect(Self.ids(json.specialFeatureOptins, "specialFeatureOptins") == tc.specialFeatureOptIns, "\(label)")

            let publisherTC = tc.publisherTC ?? PublisherTC()
            #expect(Self.ids(json.publisher.consents, "publisher.consents") == publisherTC.pubPurposesConsent, "\(label)")
            #expect(Self.ids(json.publisher.legitimateInterests, "publisher.legitimateInterests") == publisherTC.pubPurposesLITransparency, "\(label)")
            #expect(Self.ids(json.publisher.customPurpose.consents, "customPurpose.consents") == publisherTC.customPurposesConsent, "\(label)")
            #expect(Self.ids(json.publisher.customPurpose.legitimateInterests, "customPurpose.legitimateInterests")
                == publisherTC.customPurposesLITransparency, "\(label)")

            // Restrictions: every (purpose, vendor) the JSON lists is the decoder's answer, and
            // every listed vendor a restriction of a listed purpose names whose last entry is
            // defined is listed.
            var listed = 0
            for (purpose, vendors) in json.publisher.restrictions {
                for (vendorKey, type) in vendors {
                    listed += 1
                    let expected = tc.restrictionType(vendorId: Int(vendorKey) ?? 0, purposeId: Int(purpose) ?? 0)
                    #expect(expected?.rawValue == type, "\(label): purpose \(purpose) vendor \(vendorKey)")
                }
            }
            var expectedPairs = Set<[Int]>()
            for restriction in tc.publisherRestrictions where Self.bounds.purposeIds.contains(restriction.purposeId) {
                for vendorId in restriction.vendorIds.intersection(listedVendors)
                where tc.restrictionType(vendorId: vendorId, purposeId: restriction.purposeId) != .undefined {
                    expectedPairs.insert([restriction.purposeId, vendorId])
                }
            }
            #expect(listed == expectedPairs.count, "\(label)")
        }
    }

    /// What `JSONEncoder` writes for `data` with the options `json()` promises to match.
    static func encoderJSON(_ data: TCData) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(data), as: UTF8.self)
    }

    @Test("an id map lists every id from 1 to the largest once, in code-point order")
    func idMapOrder() {
        for max in [1, 2, 9, 10, 11, 19, 20, 99, 100, 101, 109, 110, 999, 1000, 1001, 1358, 9999, 65535] {
            var writer = JSONWriter(capacity: 64)
            writer.idMap("m", IDSet([max]), .objects)
            let text = String(decoding: writer.bytes, as: UTF8.self)
            let keys = text.dropFirst(#""m":{"#.count).dropLast().split(separator: ",").map { $0.split(separator: "\"")[0] }.map(String.init)
            #expect(keys == (1...max).map(String.init).sorted(), "max \(max)")
        }
    }

    #if os(Linux)
    // On Apple platforms JSONEncoder may keep its older numeric, case-insensitive order; Linux's is code-point order.
    @Test("json() is exactly what JSONEncoder writes on Linux with sorted keys and unescaped slashes")
    func jsonMatchesTheEncoder() throws {
        // Line 152: restrictions of all three types, a DisclosedVendors segment, vendor ids above 1000.
        let text = try Fixtures.realWorldString(line: 152)
        let hostile = "2~1.35~dv.9/8 \"quoted\" back\\slash </script> \u{2028}\u{2029} \u{1}\u{8}\u{c}\n\r\t\u{1f}\u{7f} é 😀"
        let built = Self.tcString(
            restrictions: [PublisherRestriction(purposeId: 10, restrictionType: .requireConsent, vendorIds: [9, 10, 100])],
            disclosedVendors: [1, 12], publisherTC: PublisherTC(pubPurposesConsent: [2], numCustomPurposes: 11, customPurposesConsent: [11]))
        let values = [
            TCData(tcString: text, decoded: try TCString(decoding: text), addtlConsent: "2~1.35~dv.9", cmp: testCMP, bounds: Self.bounds),
            TCData(tcString: try built.encoded(), decoded: built, addtlConsent: hostile, cmp: testCMP, bounds: Self.bounds),
            TCData(tcString: try built.encoded(), decoded: built, addtlConsent: nil, cmp: .development, bounds: Self.bounds),
            TCData.notApplicable(cmp: testCMP, tcfPolicyVersion: 4),
        ]
        for data in values {
            let expected = try Self.encoderJSON(data)
            let json = try data.json()
            guard data.addtlConsent != hostile else {
                // The writer escapes `<` (and writes \b, \f as \u escapes): the same value, other text.
                #expect(!json.contains("</script>") && json.contains(#"\u003c/script>"#))
                let read = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? NSDictionary
                #expect(read == (try JSONSerialization.jsonObject(with: Data(expected.utf8)) as? NSDictionary))
                continue
            }
            let same = zip(json, expected).prefix { $0 == $1 }.count
            #expect(json == expected, "first difference at \(same): \(json.dropFirst(same).prefix(80)) | \(expected.dropFirst(same).prefix(80))")
        }
    }
    #endif

    @Test("keys are in code-point order, field names and ids alike")
    func keysAreSorted() throws {
        let built = Self.tcString(
            restrictions: [PublisherRestriction(purposeId: 10, restrictionType: .requireConsent, vendorIds: [9, 10]),
                           PublisherRestriction(purposeId: 2, restrictionType: .notAllowed, vendorIds: [9])],
            disclosedVendors: [1, 12])
        let json = try TCData(tcString: try built.encoded(), decoded: built, addtlConsent: "2~~dv.", cmp: testCMP, bounds: Self.bounds).json()
        let fields = ["addtlConsent", "cmpId", "cmpVersion", "gdprApplies", "isServiceSpecific", "publisher", "publisherCC", "purpose",
                      "purposeOneTreatment", "specialFeatureOptins", "tcString", "tcfPolicyVersion", "useNonStandardTexts", "vendor"]
        let positions = try fields.map { try #require(json.range(of: "\"\($0)\":")?.lowerBound, "\($0)") }
        #expect(positions == positions.sorted())
        #expect(json.contains(#""restrictions":{"10":{"10":1,"9":1},"2":{"9":0}}"#))
        #expect(json.contains(#""disclosedVendors":{"1":true,"10":false,"11":false,"12":true,"2":false,"3":false,"4":false,"5":false,"6":false,"7":false,"8":false,"9":false}"#))
        #expect(!json.contains(" ") && !json.contains("\n"))
    }

    @Test("the JSON reads back with JSONSerialization, slashes unescaped")
    func jsonReadsBack() throws {
        let tc = Self.tcString()
        let data = TCData(tcString: try tc.encoded(), decoded: tc, addtlConsent: "2~1.35~dv.9/8", cmp: testCMP, bounds: Self.bounds)
        #expect(try data.json().contains("9/8"))
        #expect(try Self.object(data)["addtlConsent"] as? String == "2~1.35~dv.9/8")
    }

    @Test("the TC string is kept exactly as given, never re-encoded")
    func tcStringIsKeptAsGiven() throws {
        let tc = Self.tcString()
        let encoded = try tc.encoded()
        // The same value written with a different (longer) text: the field must be the given text.
        let given = encoded + ".YAAAAAAAAAAA"
        let data = TCData(tcString: given, decoded: tc, addtlConsent: nil, cmp: testCMP, bounds: Self.bounds)
        #expect(data.tcString == given)
        #expect(try Self.object(data)["tcString"] as? String == given)
    }

    @Test("cmpId and cmpVersion are the answering CMP's, not the string's")
    func cmpIsTheAnsweringOne() throws {
        let tc = Self.tcString()
        let json = try Self.object(TCData(tcString: try tc.encoded(), decoded: tc, addtlConsent: nil, cmp: testCMP, bounds: Self.bounds))
        #expect(tc.cmpId == 10)
        #expect(json["cmpId"] as? Int == 300)
        #expect(json["cmpVersion"] as? Int == 7)
    }

    @Test("when GDPR does not apply, only gdprApplies, tcfPolicyVersion, cmpId and cmpVersion are written")
    func notApplicableShape() throws {
        let data = TCData.notApplicable(cmp: testCMP, tcfPolicyVersion: 5)
        #expect(try data.json() == #"{"cmpId":300,"cmpVersion":7,"gdprApplies":false,"tcfPolicyVersion":5}"#)
    }

    @Test("a string without a DisclosedVendors segment gives an empty disclosedVendors object")
    func absentDisclosedVendorsIsEmpty() throws {
        let tc = Self.tcString()
        #expect(tc.disclosedVendors == nil)
        let json = try TCData(tcString: try tc.encoded(), decoded: tc, addtlConsent: nil, cmp: testCMP, bounds: Self.bounds).json()
        #expect(json.contains(#""disclosedVendors":{}"#))
        #expect(json.contains(#""vendor":{"consents":{"#))
    }

    @Test("a DisclosedVendors segment lists every id up to the largest, true for the disclosed")
    func disclosedVendorsAreAMap() throws {
        let tc = Self.tcString(disclosedVendors: [1, 4])
        let json = try TCData(tcString: try tc.encoded(), decoded: tc, addtlConsent: nil, cmp: testCMP, bounds: Self.bounds).json()
        #expect(json.contains(#""disclosedVendors":{"1":true,"2":false,"3":false,"4":true}"#))
    }

    @Test("empty sets and no PublisherTC segment give empty objects")
    func emptySetsAreEmptyObjects() throws {
        let tc = Self.tcString()
        let json = try TCData(tcString: try tc.encoded(), decoded: tc, addtlConsent: nil, cmp: testCMP, bounds: Self.bounds).json()
        #expect(json.contains(#""specialFeatureOptins":{}"#))
        #expect(json.contains(#""publisher":{"consents":{},"customPurpose":{"consents":{},"legitimateInterests":{}},"legitimateInterests":{},"restrictions":{}}"#))
        #expect(json.contains(#""purpose":{"consents":{"1":true,"2":false,"3":true},"legitimateInterests":{}}"#))
    }

    @Test("restrictions map purpose to vendor to type, the last entry for a vendor winning; a last entry of type 3 leaves the vendor out")
    func restrictionsLastEntryWins() throws {
        let tc = Self.tcString(restrictions: [
            PublisherRestriction(purposeId: 7, restrictionType: .requireConsent, vendorIds: [2, 755]),
            PublisherRestriction(purposeId: 2, restrictionType: .notAllowed, vendorIds: [10]),
            PublisherRestriction(purposeId: 7, restrictionType: .requireLegitimateInterest, vendorIds: [755]),
            PublisherRestriction(purposeId: 3, restrictionType: .undefined, vendorIds: [4]),
            PublisherRestriction(purposeId: 2, restrictionType: .requireConsent, vendorIds: [11]),
            PublisherRestriction(purposeId: 2, restrictionType: .undefined, vendorIds: [11]),
        ])
        let data = TCData(tcString: try tc.encoded(), decoded: tc, addtlConsent: nil, cmp: testCMP, bounds: Self.bounds)
        #expect(data.publisher?.restrictions == [7: [2: .requireConsent, 755: .requireLegitimateInterest], 2: [10: .notAllowed]])
        #expect(try data.json().contains(#""restrictions":{"2":{"10":0},"7":{"2":1,"755":2}}"#))
    }

    @Test("the PublisherTC segment fills publisher's sets")
    func publisherSegment() throws {
        let tc = Self.tcString(publisherTC: PublisherTC(
            pubPurposesConsent: [1], pubPurposesLITransparency: [2], numCustomPurposes: 2,
            customPurposesConsent: [2], customPurposesLITransparency: [1]))
        let json = try TCData(tcString: try tc.encoded(), decoded: tc, addtlConsent: nil, cmp: testCMP, bounds: Self.bounds).json()
        #expect(json.contains(#""publisher":{"consents":{"1":true},"customPurpose":{"consents":{"1":false,"2":true},"legitimateInterests":{"1":true}},"legitimateInterests":{"1":false,"2":true},"#))
    }

    @Test("the Additional Consent string is written when given and left out when nil")
    func addtlConsent() throws {
        let tc = Self.tcString()
        let text = try tc.encoded()
        #expect(try TCData(tcString: text, decoded: tc, addtlConsent: "2~1.35~dv.9", cmp: testCMP, bounds: Self.bounds).json().contains(#""addtlConsent":"2~1.35~dv.9""#))
        #expect(try !TCData(tcString: text, decoded: tc, addtlConsent: nil, cmp: testCMP, bounds: Self.bounds).json().contains("addtlConsent"))
    }

    /// `object` with each id map written as a binary string ("101") expanded into the object form.
    static func expandingBinaryStrings(_ object: [String: Any]) -> [String: Any] {
        func expanded(_ value: Any?) -> Any? {
            guard let bits = value as? String else { return value }
            var map: [String: Bool] = [:]
            for (offset, bit) in bits.enumerated() { map[String(offset + 1)] = bit == "1" }
            return map
        }
        var out = object
        out["specialFeatureOptins"] = expanded(object["specialFeatureOptins"])
        for (field, maps) in [("purpose", ["consents", "legitimateInterests"]), ("vendor", ["consents", "legitimateInterests", "disclosedVendors"]),
                              ("publisher", ["consents", "legitimateInterests"])] {
            guard var inner = object[field] as? [String: Any] else { continue }
            for name in maps { inner[name] = expanded(inner[name]) }
            if var custom = inner["customPurpose"] as? [String: Any] {
                for name in ["consents", "legitimateInterests"] { custom[name] = expanded(custom[name]) }
                inner["customPurpose"] = custom
            }
            out[field] = inner
        }
        return out
    }

    @Test("with binaryStrings each id map is its set's binary string and everything else is as json() writes it")
    func binaryStringsAreTheSameObject() throws {
        let text = try Fixtures.realWorldString(line: 152)
        let built = Self.tcString(
            restrictions: [PublisherRestriction(purposeId: 10, restrictionType: .requireConsent, vendorIds: [9, 10, 100])],
            disclosedVendors: [1, 12], publisherTC: PublisherTC(pubPurposesConsent: [2], numCustomPurposes: 11, customPurposesConsent: [11]))
        for data in [
            TCData(tcString: text, decoded: try TCString(decoding: text), addtlConsent: "2~1.35~dv.9", cmp: testCMP, bounds: Self.bounds),
            TCData(tcString: try built.encoded(), decoded: built, addtlConsent: nil, cmp: testCMP, bounds: Self.bounds),
            TCData.notApplicable(cmp: testCMP, tcfPolicyVersion: 4),
        ] {
            let compact = try #require(JSONSerialization.jsonObject(with: Data(data.json(idMaps: .binaryStrings).utf8)) as? [String: Any])
            #expect(NSDictionary(dictionary: Self.expandingBinaryStrings(compact)) == NSDictionary(dictionary: try Self.object(data)))
        }
    }

    @Test("a binary string has a character per id up to the largest, '1' for members; an empty set is an empty string")
    func binaryStringShape() throws {
        let tc = Self.tcString(disclosedVendors: [1, 4])
        let json = try TCData(tcString: try tc.encoded(), decoded: tc, addtlConsent: nil, cmp: testCMP, bounds: Self.bounds).json(idMaps: .binaryStrings)
        #expect(json.contains(#""disclosedVendors":"1001""#))
        #expect(json.contains(#""purpose":{"consents":"101","legitimateInterests":""}"#))
        #expect(json.contains(#""publisher":{"consents":"","customPurpose":{"consents":"","legitimateInterests":""},"legitimateInterests":"","restrictions":{}}"#))
    }
}
