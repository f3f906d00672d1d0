import Testing
@testable import TCF
@testable import GPP

/// What a GPP string decodes into is bounded by the string's length: a Fibonacci group of ids
/// 1-65,535 takes some 30 bits of the string and must not become a set spelled out id by id.
@Suite struct MemoryBoundTests {
    /// The bound: 32 bytes for each character of the string, plus 64 KB for fixed parts.
    static func bound(_ string: String) -> Int { 32 * string.utf8.count + 65_536 }

    @Test(arguments: [4_095, 200, 1])
    func Canadian_restrictions_of_vendors_1_to_65535_decode_within_the_bound(records: Int) throws {
        let time = TCFTimestamp(deciseconds: 16_000_000_000)
        let all = IDSet(1...IDSet.maxID)
        let section = TCFCanadaSection(
            created: time, lastUpdated: time, cmpId: 300, cmpVersion: 1, consentScreen: 1, consentLanguage: "FR",
            vendorListVersion: 45, tcfPolicyVersion: 2, vendorExpressConsent: all, vendorImpliedConsent: all,
            pubRestrictions: (0..<records).map { PublisherRestriction(purposeId: $0 % 24 + 1, restrictionType: .notAllowed, vendorIds: all) },
            disclosedVendors: all)
        let string = try GPPString(sections: [.tcfcav1(section)]).encoded()
        let decoded = try #require(try GPPString(decoding: string).tcfcav1)
        #expect(decoded == section)
        let sets = [decoded.vendorExpressConsent, decoded.vendorImpliedConsent, decoded.disclosedVendors!]
            + decoded.pubRestrictions.map(\.vendorIds)
        let footprint = sets.map(\.heapBytes).reduce(0, +) + decoded.pubRestrictions.capacity * MemoryLayout<PublisherRestriction>.stride
        #expect(footprint <= Self.bound(string), "\(string.utf8.count) characters decode into \(footprint) bytes")
    }

    @Test func a_header_listing_65535_sections_fails_on_the_count_without_listing_them() {
        // One group: offset 1 (`11`), length 65,534 (Fibonacci 46368 + 17711 + 1597 + 987 … coded).
        var writer = BitWriter()
        writer.write(3, 6)
        writer.write(1, 6)
        writer.writeFibonacciRange(IDSet(1...IDSet.maxID))
        let header = writer.base64URL(alignment: 6)
        #expect(header.count < 10)
        #expect(throws: GPPDecodingError(.sectionCountMismatch(header: 65_535, found: 1), field: "Sections")) {
            try GPPString(decoding: header + "~x")
        }
    }
}
