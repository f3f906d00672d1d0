import Foundation
import Testing
import TCF
@testable import ConsentKit

/// `TCData` cut to the vendor list in use (issue 24, H1): the security review's 637-character
/// string made a 43.7 MB object; no string may make one larger than its vendor list allows.
@Suite struct TCDataBoundsTests {
    /// The bounds of the bundled vendor list (GVL v3 #45).
    static let bounds = TCData.Bounds(vendorList: Fixtures.vendorList)

    /// The JSON of `text`'s TCData under the bundled list's bounds, read back.
    static func json(_ text: String) throws -> (text: String, object: [String: Any]) {
        let data = TCData(tcString: text, decoded: try TCString(decoding: text), addtlConsent: "2~89~dv.", cmp: testCMP, bounds: bounds)
        let json = try data.json()
        return (json, try #require(JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]))
    }

    /// The ids a JSON id map holds `true` for, and its largest key.
    static func members(_ value: Any?) throws -> (ids: Set<Int>, largestKey: Int) {
        let map = try #require(value as? [String: Bool])
        let keys = map.keys.compactMap { Int($0) }
        #expect(keys.count == map.count)
        return (Set(map.filter(\.value).keys.compactMap { Int($0) }), keys.max() ?? 0)
    }

    /// Checks that `object` names only the bundled list's vendors and purposes.
    static func expectOnlyListed(_ object: [String: Any], _ label: String) throws {
        let listed = Set(Fixtures.vendorList.vendors.keys), purposes = Set(Fixtures.vendorList.purposes.keys)
        let vendor = try #require(object["vendor"] as? [String: Any])
        for name in ["consents", "legitimateInterests", "disclosedVendors"] {
            let (ids, largest) = try members(vendor[name])
            #expect(ids.isSubset(of: listed), "\(label) vendor.\(name) names vendors not on the list")
            #expect(largest <= Self.bounds.maxVendorId, "\(label) vendor.\(name) runs to \(largest)")
        }
        let publisher = try #require(object["publisher"] as? [String: Any])
        let restrictions = try #require(publisher["restrictions"] as? [String: [String: Int]])
        for (purpose, vendors) in restrictions {
            #expect(purposes.contains(Int(purpose) ?? -1), "\(label) a restriction of purpose \(purpose)")
            #expect(Set(vendors.keys.compactMap { Int($0) }).isSubset(of: listed) && vendors.keys.allSatisfy { Int($0) != nil },
                    "\(label) restriction of purpose \(purpose) names vendors not on the list")
        }
    }

    @Test("h1: the review's 637-character string gives a TCData of at most 1 MB naming only the bundled list's vendors")
    func h1TCDataBoundedToVendorList() throws {
        let text = HostileTCString.review()
        #expect(text.count == 637)
        let (json, object) = try Self.json(text)
        #expect(json.utf8.count <= 1_000_000, "\(json.utf8.count) bytes")
        try Self.expectOnlyListed(object, "review")
        // Everything the string grants, for the list's vendors only: every vendor consents.
        let vendor = try #require(object["vendor"] as? [String: Any])
        #expect(try Self.members(vendor["consents"]).ids == Set(Fixtures.vendorList.vendors.keys))
        // Restrictions: the list's 11 purposes, each of every listed vendor, type 1.
        let restrictions = try #require((object["publisher"] as? [String: Any])?["restrictions"] as? [String: [String: Int]])
        #expect(Set(restrictions.keys) == Set(Fixtures.vendorList.purposes.keys.map(String.init)))
        #expect(restrictions.values.allSatisfy { $0.count == Fixtures.vendorList.vendors.count && $0.values.allSatisfy { $0 == 1 } })
        #expect(object["tcString"] as? String == text, "the string itself is kept as given")
    }

    @Test("h1: every purpose id under every type, single ids, ranges and bitfields to 65,535: at most 1 MB, only listed vendors")
    func h1EveryRangeFormStaysBounded() throws {
        for (label, text) in [("every form", HostileTCString.everyForm()), ("1,845 restrictions", HostileTCString.manyRestrictions())] {
            let (json, object) = try Self.json(text)
            #expect(json.utf8.count <= 1_000_000, "\(label): \(json.utf8.count) bytes")
            try Self.expectOnlyListed(object, label)
        }
    }

    @Test("a restriction of a purpose id the list does not define is left out, and the string stays valid and kept as given")
    func undefinedPurposeIdsAreIgnored() throws {
        let text = HostileTCString.tc(restrictions: [
            HostileTCString.Restriction(purposeId: 0, type: 0, vendors: [755...755]),
            HostileTCString.Restriction(purposeId: 63, type: 1, vendors: [755...755]),
            HostileTCString.Restriction(purposeId: 2, type: 0, vendors: [755...755]),
        ])
        let decoded = try TCString(decoding: text)
        #expect(decoded.publisherRestrictions.map(\.purposeId) == [0, 63, 2], "the decoder reads every 6-bit purpose id")
        let data = TCData(tcString: text, decoded: decoded, addtlConsent: nil, cmp: testCMP, bounds: Self.bounds)
        #expect(data.publisher?.restrictions == [2: [755: .notAllowed]])
        #expect(data.tcString == text)
    }

    @Test("a restriction's vendors not on the list are left out; among listed ones the last entry still wins")
    func unlistedVendorsAreLeftOut() throws {
        let bounds = TCData.Bounds(vendorIds: [2, 755], purposeIds: IDSet(1...11))
        let tc = TCString(
            created: TCFTimestamp(testDate), lastUpdated: TCFTimestamp(testDate), cmpId: 10, cmpVersion: 2, consentScreen: 1,
            consentLanguage: "EN", vendorListVersion: 45, tcfPolicyVersion: 4, vendorConsents: [2, 3, 755, 60_000],
            publisherRestrictions: [
                PublisherRestriction(purposeId: 7, restrictionType: .requireConsent, vendorIds: [2, 3, 755, 65_535]),
                PublisherRestriction(purposeId: 7, restrictionType: .undefined, vendorIds: [2]),
                PublisherRestriction(purposeId: 7, restrictionType: .requireLegitimateInterest, vendorIds: [3]),
            ],
            disclosedVendors: [1, 755, 60_000])
        let data = TCData(tcString: try tc.encoded(), decoded: tc, addtlConsent: nil, cmp: testCMP, bounds: bounds)
        #expect(data.publisher?.restrictions == [7: [755: .requireConsent]])
        #expect(data.vendor?.consents == [2, 755])
        #expect(data.vendor?.disclosedVendors == [755])
    }

    @Test("json() refuses to pass 1 MiB with a typed error naming the field, whatever the bounds")
    func jsonHasACeiling() throws {
        // Bounds no real list has: every 16-bit vendor id, every 6-bit purpose id.
        let everything = TCData.Bounds(vendorIds: IDSet(1...IDSet.maxID), purposeIds: IDSet(1...63))
        let text = HostileTCString.review()
        let data = TCData(tcString: text, decoded: try TCString(decoding: text), addtlConsent: nil, cmp: testCMP, bounds: everything)
        #expect(throws: TCDataTooLarge(limit: TCData.maximumJSONSize, field: "publisher.restrictions")) { try data.json() }
    }
}
