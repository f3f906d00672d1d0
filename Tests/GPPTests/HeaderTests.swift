import Testing
import TCF
@testable import GPP

/// The header: Type 3, Version 1, the section ids as a Range(Fibonacci), in string order
/// (Core/Consent String Specification.md, "Header Examples").
@Suite struct HeaderTests {
    @Test func header_example_1_lists_the_EU_TCF_section() throws {
        #expect(bits("000011 000001 000000 000001 001100") == "DBABM")
        let gpp = try GPPString(decoding: "DBABM~CPXxRfAPXxRfAAfKABENB-CgAAAAAAAAAAYgAAAAAAAA")
        #expect(gpp.sectionIds == [2])
    }

    @Test func header_example_2_lists_EU_TCF_and_US_Privacy() throws {
        #expect(bits("000011 000001 000000 000010 001101 011000") == "DBACNY")
        let gpp = try GPPString(decoding: "DBACNY~CPXxRfAPXxRfAAfKABENB-CgAAAAAAAAAAYgAAAAAAAA~1YNN")
        #expect(gpp.sectionIds == [2, 6])
    }

    @Test func header_example_3_is_a_group_of_Canada_and_US_Privacy() throws {
        #expect(bits("000011 000001 000000 000001 100011 110000") == "DBABjw")
        // The spec's example puts an EU TC string in section 5; it is not a Canadian one (its
        // Version is 2), so decoding fails in that section and says so.
        #expect {
            try GPPString(decoding: "DBABjw~CPXxRfAPXxRfAAfKABENB-CgAAAAAAAAAAYgAAAAAAAA~1YNN")
        } throws: { error in
            let error = error as! GPPDecodingError
            return error.sectionId == 5 && error.reason == .tcf(.unsupportedVersion(2)) && error.field == "Version"
        }
    }

    @Test func the_encoder_writes_the_spec_headers() throws {
        let tc = try TCString(decoding: "CPXxRfAPXxRfAAfKABENB-CgAAAAAAAAAAYgAAAAAAAA")
        let usp = USPrivacyV1(notice: .yes, optOutSale: .no, lspaCovered: .no)
        #expect(try GPPString(sections: [.tcfeuv2(tc)]).encoded().hasPrefix("DBABM~"))
        #expect(try GPPString(sections: [.uspv1(usp), .tcfeuv2(tc)]).encoded().hasPrefix("DBACNY~"))
        let header = try GPPString(sections: [.uspv1(usp), .unknown(id: 5, text: "x")]).encoded()
        #expect(header.hasPrefix("DBABjw~"))
    }

    @Test func the_range_fibonacci_example_encodes_3_5_to_8() {
        var writer = BitWriter()
        writer.writeFibonacciRange(IDSet([3, 5, 6, 7, 8]))
        let expected = "000000000010" + "0" + "0011" + "1" + "011" + "0011"
        let written = bitString(Substring(writer.base64URL(alignment: 6)))
        #expect(written.hasPrefix(expected))
    }

    @Test func fibonacci_codes_are_the_specs() {
        let expected = [1: "11", 2: "011", 3: "0011", 4: "1011", 5: "00011", 7: "01011", 12: "101011"]
        for (value, code) in expected {
            var writer = BitWriter()
            writer.writeFibonacci(value)
            #expect(writer.bitCount == code.count, "\(value)")
            #expect(bitString(Substring(writer.base64URL(alignment: 6))).hasPrefix(code), "\(value)")
        }
    }

    @Test func a_header_of_five_characters_from_Google_UMP_decodes() throws {
        #expect(try GPPString(decoding: "DBABL~BVQqAAAAAg").sectionIds == [7])
    }

    @Test func trailing_zero_padding_of_any_length_is_accepted() throws {
        for header in ["DBABM", "DBABMA", "DBABMAA", "DBABMAAAA"] {
            #expect(try GPPString(decoding: header + "~CPXxRfAPXxRfAAfKABENB-CgAAAAAAAAAAYgAAAAAAAA").sectionIds == [2])
        }
    }

    @Test func an_empty_header_is_a_string_without_sections() throws {
        #expect(try GPPString(decoding: "DBAA").sections.isEmpty)
        #expect(try GPPString().encoded() == "DBAA")
    }

    @Test func unknown_section_ids_are_kept_as_text() throws {
        let text = "DBACDY~CPXxRfAPXxRfAAfKABENB-CgAAAAAAAAAAYgAAAAAAAA~hello"
        let gpp = try GPPString(decoding: try GPPString(sections: [
            .tcfeuv2(try TCString(decoding: "CPXxRfAPXxRfAAfKABENB-CgAAAAAAAAAAYgAAAAAAAA")), .unknown(id: 40, text: "hello"),
        ]).encoded())
        #expect(gpp.sectionIds == [2, 40])
        #expect(gpp.section(40) == .unknown(id: 40, text: "hello"))
        #expect(text.hasPrefix("DBAC"))
    }
}
