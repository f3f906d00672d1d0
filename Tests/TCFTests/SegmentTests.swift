import Testing
@testable import TCF

/// A TC string's segments are found and decoded in one pass (`Segment.forEach`, through
/// `Base64URL.decodePrefix`), and `Segment.withReader` decodes text of the alphabet only the same
/// way; each falls back to the general path (`firstIndex`, then `Base64URL.decode` in
/// `Segment.read`) for any other text. The fast and general paths must agree on every text: the
/// readers' bits, bit counts and segment indexes, and the error, whole or cut short.
@Suite struct SegmentTests {
    /// What one reader shows: its segment, its bit count and every 64-bit word from each byte
    /// up to the end of its bits, and the word after them (the partial byte and the zero fill).
    struct Seen: Equatable {
        var segment: Int, bitCount: Int, words: [UInt64]
    }

    static func seen(_ reader: inout BitReader) -> Seen {
        var words = [reader.peek64()]
        while reader.remaining >= 8 {
            reader.skip(8)
            words.append(reader.peek64())
        }
        reader.skip(reader.remaining)
        words.append(reader.peek64())
        return Seen(segment: reader.segment, bitCount: reader.bitCount, words: words)
    }

    /// The readers `forEach` gives for `text`, then its error, if any.
    static func onePass(_ text: [UInt8]) -> ([Seen], TCFDecodingError?) {
        var readers: [Seen] = []
        let error = text.withUnsafeBufferPointer { text -> TCFDecodingError? in
            do throws(TCFDecodingError) {
                try Segment.forEach(in: text, separator: UInt8(ascii: ".")) { (index: Int, reader: inout BitReader) throws(TCFDecodingError) in
                    #expect(index == readers.count)
                    readers.append(seen(&reader))
                }
                return nil
            } catch {
                return error
            }
        }
        return (readers, error)
    }

    /// What `withReader` gives for `text` as one segment (index 3), or its error.
    static func withReader(_ text: [UInt8], everyCharacterBit: Bool) -> Result<Seen, TCFDecodingError> {
        text.withUnsafeBufferPointer { text in
            var result: Seen?
            do throws(TCFDecodingError) {
                try Segment.withReader(text, index: 3, everyCharacterBit: everyCharacterBit) { (reader: inout BitReader) throws(TCFDecodingError) in
                    result = seen(&reader)
                }
                return .success(result!)
            } catch {
                return .failure(error)
            }
        }
    }

    /// What the general path gives for `text` as one segment (index 3), or its error.
    static func read(_ text: [UInt8], everyCharacterBit: Bool) -> Result<Seen, TCFDecodingError> {
        text.withUnsafeBufferPointer { text in
            Result { () throws(TCFDecodingError) in
                try Segment.read(text, index: 3, everyCharacterBit: everyCharacterBit) { (reader: inout BitReader) throws(TCFDecodingError) in
                    seen(&reader)
                }
            }
        }
    }

    /// The readers of the general path: each segment found by `firstIndex` and decoded alone.
    static func general(_ text: [UInt8]) -> ([Seen], TCFDecodingError?) {
        var readers: [Seen] = []
        let error = text.withUnsafeBufferPointer { text -> TCFDecodingError? in
            do throws(TCFDecodingError) {
                var start = 0, index = 0
                while true {
                    let end = Segment.firstIndex(of: UInt8(ascii: "."), in: text, from: start)
                    readers.append(try Segment.read(UnsafeBufferPointer(rebasing: text[start..<end]), index: index) {
                        (reader: inout BitReader) throws(TCFDecodingError) in seen(&reader)
                    })
                    guard end < text.count else { return nil }
                    start = end + 1
                    index += 1
                }
            } catch {
                return error
            }
        }
        return (readers, error)
    }

    static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// Segments of base64url, 0 to 60 characters each; now and then a standard-alphabet
    /// character, `=` padding (sometimes too much, sometimes in the middle), a bad byte.
    static func text(_ random: inout SplitMix64) -> [UInt8] {
        var text: [UInt8] = []
        for segment in 0..<random.int(1...4) {
            if segment > 0 { text.append(UInt8(ascii: ".")) }
            for _ in 0..<random.int(0...60) {
                switch random.int(0...99) {
                case 0: text.append(UInt8(ascii: "+"))
                case 1: text.append(UInt8(ascii: "/"))
                case 2: text.append(UInt8(ascii: "="))
                case 3: text.append([UInt8(ascii: "!"), UInt8(ascii: "~"), 0, 0xC3, 0xFF, UInt8(ascii: " ")][random.int(0...5)])
                default: text.append(alphabet[random.int(0...63)])
                }
            }
            if random.int(0...9) == 0 { text += Array(repeating: UInt8(ascii: "="), count: random.int(1...3)) }
        }
        return text
    }

    @Test func segments_found_while_decoding_read_as_the_general_path_reads_them() {
        var random = SplitMix64(seed: 0x5E6_0001)
        for _ in 0..<2_000 {
            let text = Self.text(&random)
            let (onePass, general) = (Self.onePass(text), Self.general(text))
            #expect(onePass.0 == general.0 && onePass.1 == general.1, "\(String(decoding: text, as: UTF8.self))")
        }
    }

    @Test func segments_cut_short_read_and_fail_as_the_general_path_has_them() {
        var random = SplitMix64(seed: 0x5E6_0002)
        for _ in 0..<150 {
            let text = Self.text(&random)
            for end in 0...text.count {
                let prefix = Array(text[..<end])
                let (onePass, general) = (Self.onePass(prefix), Self.general(prefix))
                #expect(onePass.0 == general.0 && onePass.1 == general.1, "\(String(decoding: prefix, as: UTF8.self))")
            }
        }
    }

    @Test func a_real_tc_string_and_its_prefixes_read_alike_either_way() {
        let string = Array("CQSbk4AQSbk4ANwAAAENAwCgAAAAAAAAAAYgACPAAAAA.IDKQA4AAgAKAGQAygAAA.YAAAAAAAAAAA".utf8)
        for end in 0...string.count {
            let prefix = Array(string[..<end])
            let (onePass, general) = (Self.onePass(prefix), Self.general(prefix))
            #expect(onePass.0 == general.0 && onePass.1 == general.1, "\(String(decoding: prefix, as: UTF8.self))")
        }
        #expect(Self.onePass(string).0.count == 3)
        #expect(Self.onePass(string).1 == nil)
    }

    @Test func one_segment_reads_in_with_reader_as_the_general_path_reads_it() {
        var random = SplitMix64(seed: 0x5E6_0003)
        for _ in 0..<300 {
            // The first segment only: withReader is given text without separators.
            let text = Array(Self.text(&random).prefix { $0 != UInt8(ascii: ".") })
            for end in 0...text.count {
                let prefix = Array(text[..<end])
                for everyCharacterBit in [false, true] {
                    #expect(
                        Self.withReader(prefix, everyCharacterBit: everyCharacterBit) == Self.read(prefix, everyCharacterBit: everyCharacterBit),
                        "\(String(decoding: prefix, as: UTF8.self)) \(everyCharacterBit)")
                }
            }
        }
    }
}
