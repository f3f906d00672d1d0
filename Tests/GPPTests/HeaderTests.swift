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

    // GPPString reads a header of at most ten characters whose ids are below 64 out of one word
    // (smallHeader), and any other with the bit reader. A header followed by `=` is read by the
    // bit reader (padding is not in the short path's alphabet) and holds the same bits, so the
    // two must agree on every header, whole or cut short.

    @Test func a_header_read_out_of_one_word_lists_the_ids_the_bit_reader_lists() throws {
        var random = SplitMix64(seed: 28)
        for _ in 0..<400 {
            let ids = random.idSet(in: 28...90)
            let header = Self.header(ids)
            let tail = String(repeating: "~x", count: ids.count)
            #expect(try GPPString(decoding: header + tail).sectionIds == ids.sorted(), "\(header)")
            #expect(try GPPString(decoding: header + "=" + tail).sectionIds == ids.sorted(), "\(header)=")
        }
    }

    @Test func a_header_cut_short_fails_alike_in_one_word_and_in_the_bit_reader() {
        var random = SplitMix64(seed: 29)
        for _ in 0..<300 {
            let ids = random.idSet(in: 1...70)
            let header = Self.header(ids)
            let tail = String(repeating: "~x", count: ids.count)
            for end in 1...header.count {
                let prefix = String(header.prefix(end))
                #expect(Self.outcome(prefix + tail) == Self.outcome(prefix + "=" + tail), "\(prefix)")
            }
        }
    }

    @Test func a_header_listing_ids_63_and_64_is_read_alike_either_way() throws {
        for ids in [[63], [64], [62, 63], [63, 64], [1, 63], [30, 31, 32, 33], [28, 40, 50, 60, 61, 62, 63]] {
            let header = Self.header(IDSet(ids))
            let tail = String(repeating: "~x", count: ids.count)
            let both = [Self.outcome(header + tail), Self.outcome(header + "=" + tail)]
            #expect(both[0] == both[1], "\(ids)")
        }
    }

    // With the common header, the sections' texts are cut at the `~`s found while counting them;
    // otherwise at those Parts finds. A header followed by `=` takes the second way: the two
    // must decode the same sections, or fail with the same error, whole or cut short.

    @Test func sections_cut_while_counted_decode_as_sections_cut_one_by_one() {
        var random = SplitMix64(seed: 30)
        let texts = ["x", "", "1YNN", "BVVVkkkkkpFY.YA", "CQSbk4AQSbk4ANwAAAENAwCgAAAAAAAAAAYgACPAAAAA.IDKQA4AAgAKAGQAygAAA", "a.b", "1Y"]
        for _ in 0..<300 {
            let ids = random.idSet(in: 1...70)
            let header = Self.header(ids)
            // As many texts as ids, or one fewer or more.
            let count = max(0, ids.count + Int.random(in: -1...1, using: &random))
            let tail = (0..<count).map { _ in "~" + texts[Int.random(in: 0..<texts.count, using: &random)] }.joined()
            for end in stride(from: 0, through: tail.count, by: max(1, tail.count / 12)) {
                let cut = String(tail.prefix(end))
                #expect(Self.decoded(header + cut) == Self.decoded(header + "=" + cut), "\(header + cut)")
            }
            #expect(Self.decoded(header + tail) == Self.decoded(header + "=" + tail), "\(header + tail)")
        }
    }

    /// `text` decoded, or its error.
    static func decoded(_ text: String) -> Result<GPPString, GPPDecodingError> {
        Result { () throws(GPPDecodingError) in try GPPString(decoding: text) }
    }

    /// A header listing `ids`: Type 3, Version 1, the Range(Fibonacci).
    static func header(_ ids: IDSet) -> String {
        var writer = BitWriter()
        writer.write(3, 6)
        writer.write(1, 6)
        writer.writeFibonacciRange(ids)
        return writer.base64URL(alignment: 6)
    }

    /// The section ids of `text` decoded, or its error.
    static func outcome(_ text: String) -> Result<[Int], GPPDecodingError> {
        Result { () throws(GPPDecodingError) in try GPPString(decoding: text).sectionIds }
    }
}

/// A small seeded generator (SplitMix64), so that a failure repeats.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ z >> 30) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ z >> 27) &* 0x94D0_49BB_1331_11EB
        return z ^ z >> 31
    }

    /// One to six ids of `range`, some of them runs (which the header writes as groups).
    mutating func idSet(in range: ClosedRange<Int>) -> IDSet {
        var ids = Set<Int>()
        for _ in 0..<Int.random(in: 1...4, using: &self) {
            let first = Int.random(in: range, using: &self)
            let last = Swift.min(range.upperBound, first + (Bool.random(using: &self) ? 0 : Int.random(in: 1...3, using: &self)))
            ids.formUnion(first...last)
        }
        return IDSet(ids)
    }
}
