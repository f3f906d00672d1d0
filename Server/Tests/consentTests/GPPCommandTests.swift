import Foundation
import Testing

/// `consent gpp decode` and `consent gpp encode`, run as a user would run them.
@Suite struct GPPCommandTests {
    /// The GPP spec's "GPP String Example 2": tcfeuv2 and uspv1.
    static let specExample2 = "DBACNY~CPXxRfAPXxRfAAfKABENB-CgAAAAAAAAAAYgAAAAAAAA~1YNN"
    /// Google UMP's usnat string, v1 layout (12 and 2 list entries).
    static let umpUsnat = "DBABL~BVQqAAAAAg"

    private func object(_ line: some StringProtocol) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }

    @Test func decodeJSONPrintsEachStringsSectionsInStringOrderAndFailsAtTheEnd() throws {
        let result = try Consent.run(["gpp", "decode", "--json"], input: "\(Self.specExample2)\nDBABjw\n\(Self.umpUsnat)\n")
        #expect(result.status == 1)
        let lines = result.output.split(separator: "\n")
        try #require(lines.count == 3)
        #expect(lines[0].hasPrefix("{\"tcfeuv2\":{\"Version\":2,"))
        #expect(lines[0].hasSuffix(",\"uspv1\":{\"Version\":1,\"Notice\":\"Y\",\"OptOutSale\":\"N\",\"LspaCovered\":\"N\"}}"))
        let tcf = try #require(try object(lines[0])["tcfeuv2"] as? [String: Any])
        #expect(tcf["CmpId"] as? Int == 31)
        #expect(tcf["PublisherCC"] as? String == "DE")
        #expect(tcf["Created"] as? String == "2022-04-20T22:00:00.000Z")
        let error = try #require(try object(lines[1])["error"] as? [String: Any])
        #expect(error["code"] as? String == "section-count-mismatch")
        let usnat = try #require(try object(lines[2])["usnat"] as? [String: Any])
        #expect(usnat["SensitiveDataProcessing"] as? [Int] == Array(repeating: 0, count: 12))
        #expect(usnat["KnownChildSensitiveDataConsents"] as? [Int] == [0, 0])
        #expect(usnat["MspaCoveredTransaction"] as? Int == 2)
    }

    @Test func decodeJSONErrorNamesTheSectionFieldAndBitOffset() throws {
        // Spec example 3 carries a TCF EU string (Version 2) where section 5, tcfcav1, needs Version 1.
        let example3 = "DBABjw~CPXxRfAPXxRfAAfKABENB-CgAAAAAAAAAAYgAAAAAAAA~1YNN"
        let result = try Consent.run(["gpp", "decode", "--json", example3])
        #expect(result.status == 1)
        let error = try #require(try object(result.output.trimmingCharacters(in: .newlines))["error"] as? [String: Any])
        #expect(error["section"] as? String == "tcfcav1")
        #expect(error["field"] as? String == "Version")
        #expect(error["bitOffset"] as? Int == 0)
        #expect((error["message"] as? String)?.contains("tcfcav1") == true)
    }

    @Test func decodeJSONErrorOfAnEmptyStringHasNoPlace() throws {
        let result = try Consent.run(["gpp", "decode", "--json", ""])
        #expect(result.status == 1)
        let error = try #require(try object(result.output.trimmingCharacters(in: .newlines))["error"] as? [String: Any])
        #expect(error["code"] as? String == "empty")
        #expect(Set(error.keys) == ["code", "message"])
    }

    @Test func decodeSummaryListsEachSectionWithItsPrefixIdAndFields() throws {
        let result = try Consent.run(["gpp", "decode", Self.specExample2])
        #expect(result.status == 0, "\(result.error)")
        let lines = result.output.split(separator: "\n").map(String.init)
        #expect(lines.first == "GPP string \(Self.specExample2)")
        #expect(lines.contains("  sections: 2, 6"))
        #expect(lines.contains("  uspv1 (6): {\"Version\":1,\"Notice\":\"Y\",\"OptOutSale\":\"N\",\"LspaCovered\":\"N\"}"))
        #expect(lines.contains { $0.hasPrefix("  tcfeuv2 (2): {\"Version\":2,") })
    }

    @Test func decodeSummaryReportsAFailureOnStandardError() throws {
        let result = try Consent.run(["gpp", "decode", "DBABjw"])
        #expect(result.status == 1)
        #expect(result.output.isEmpty)
        #expect(result.error.hasPrefix("DBABjw: header lists 2 sections, the string has 0"))
    }

    @Test func encodeOfDecodesJSONGivesTheSameJSONAgain() throws {
        for string in [Self.specExample2, Self.umpUsnat] {
            let json = try Consent.run(["gpp", "decode", "--json", string]).output
            let encoded = try Consent.run(["gpp", "encode"], input: json)
            #expect(encoded.status == 0, "\(encoded.error)")
            let again = try Consent.run(["gpp", "decode", "--json", encoded.output.trimmingCharacters(in: .newlines)])
            #expect(again.output == json, "\(string) → \(encoded.output)")
        }
    }

    @Test func encodeKeepsUsnatsV1LayoutAndItsBits() throws {
        let json = try Consent.run(["gpp", "decode", "--json", Self.umpUsnat]).output.trimmingCharacters(in: .newlines)
        let encoded = try Consent.run(["gpp", "encode", json])
        #expect(encoded.status == 0, "\(encoded.error)")
        #expect(encoded.output == "\(Self.umpUsnat)\n")
    }

    @Test func encodeReportsAMissingFieldWithItsPathAndEncodesTheRest() throws {
        let result = try Consent.run(["gpp", "encode"], input: "{\"usnat\":{\"Version\":1}}\n{\"uspv1\":{\"Version\":1,\"Notice\":\"Y\",\"OptOutSale\":\"N\",\"LspaCovered\":\"N\"}}\n")
        #expect(result.status == 1)
        #expect(result.error.contains("line 1: missing field \"SharingNotice\" in usnat"), "\(result.error)")
        // The header padded to whole characters, as the spec pads it (iabgpp-java writes DBABTA).
        #expect(result.output == "DBABT~1YNN\n")
    }
}
