import Testing
@testable import TCF

/// The worked examples of the v1.1 and v2.3 specs: decoded field by field and re-encoded to the
/// very same text.
@Suite struct SpecExampleTests {
    static let v1Example = "BOEFEAyOEFEAyAHABDENAI4AAAB9vABAASA"
    static let v2Core = "CQSbk4AQSbk4ANwAAAENAwCgAAAAAAAAAAYgACPAAAAA"
    static let v2Disclosed = "IDKQA4AAgAKAGQAygAAA"
    static let v2PublisherTC = "YAAAAAAAAAAA"

    @Test func theV1ExampleDecodesToTheSpecsFields() throws {
        let value = try ConsentStringV1(decoding: Self.v1Example)
        #expect(value.version == 1)
        #expect(value.created == TCFTimestamp(deciseconds: 15_100_821_554))
        #expect(value.created.iso8601 == "2017-11-07T19:15:55.400Z")
        #expect(value.lastUpdated == value.created)
        #expect(value.cmpId == 7)
        #expect(value.cmpVersion == 1)
        #expect(value.consentScreen == 3)
        #expect(value.consentLanguage == "EN")
        #expect(value.vendorListVersion == 8)
        #expect(value.purposesAllowed == [1, 2, 3])
        #expect(value.maxVendorId == 2011)
        #expect(value.vendorConsents.count == 2010)
        #expect(!value.vendorConsents.contains(9))
        #expect(value.vendorConsents.contains(8) && value.vendorConsents.contains(10) && value.vendorConsents.contains(2011))
        #expect(!value.vendorConsents.contains(2012))
    }

    @Test func theV1ExampleReencodesByteForByte() throws {
        #expect(try ConsentStringV1(decoding: Self.v1Example).encoded() == Self.v1Example)
    }

    @Test func theV2ExampleDecodesToTheSpecsFields() throws {
        let value = try TCString(decoding: "\(Self.v2Core).\(Self.v2Disclosed).\(Self.v2PublisherTC)")
        #expect(value.cmpId == 880)
        #expect(value.vendorListVersion == 48)
        #expect(value.tcfPolicyVersion == 2)
        #expect(value.publisherCC == "DE")
        #expect(value.consentLanguage == "EN")
        #expect(value.created.iso8601 == "2025-06-03T00:00:00.000Z")
        #expect(value.vendorConsents == [1, 2, 3, 4])
        #expect(value.disclosedVendors == [1, 2, 3, 4, 5, 100, 404])
        #expect(value.publisherTC == PublisherTC())
        #expect(value.allowedVendors == nil)
    }

    @Test(arguments: [
        "\(v2Core).\(v2Disclosed)",
        "\(v2Core).\(v2Disclosed).\(v2PublisherTC)",
    ])
    func theV2ExamplesReencodeByteForByte(example: String) throws {
        #expect(try TCString(decoding: example).encoded() == example)
    }

    @Test func segmentsMayComeInAnyOrder() throws {
        let canonical = try TCString(decoding: "\(Self.v2Core).\(Self.v2Disclosed).\(Self.v2PublisherTC)")
        let reordered = try TCString(decoding: "\(Self.v2Core).\(Self.v2PublisherTC).\(Self.v2Disclosed)")
        #expect(reordered == canonical)
    }

    @Test func theRetiredAllowedVendorsSegmentDecodesAndIsKept() throws {
        let string = "COw4XqLOw4XqLAAAAAENAXCAAAAAAAAAAAAAAAAAAAAA.IFukWSQgAIQwgI0QEByFAAAAeIAACAIgSAAQAIAgEQACEABAAAgAQFAEAIAAAGBAAgAAAAQAIFAAMCQAAgAAQiRAEQAAAAANAAIAAggAIYQFAAARmggBC3ZCYzU2yIA.QFukWSQgAIQwgI0QEByFAAAAeIAACAIgSAAQAIAgEQACEABAAAgAQFAEAIAAAGBAAgAAAAQAIFAAMCQAAgAAQiRAEQAAAAANAAIAAggAIYQFAAARmggBC3ZCYzU2yIA.YAAAAAAAAAAAAAAAAAA"
        let value = try TCString(decoding: string)
        let allowed = try #require(value.allowedVendors)
        #expect(allowed.max == 733)
        #expect(allowed == value.disclosedVendors)
        #expect(value.validation.contains { $0.code == .allowedVendorsRetired })
        #expect(try TCString(decoding: value.encoded()) == value)
    }
}
