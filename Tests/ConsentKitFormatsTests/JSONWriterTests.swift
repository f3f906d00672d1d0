import Foundation
import Testing
import ConsentKitFormats

@Suite("JSONWriter")
struct JSONWriterTests {
    /// What the writer must produce for `text`, byte by byte: the reference its word-at-a-time
    /// scan is checked against.
    static func reference(_ text: String) -> String {
        var out: [UInt8] = [UInt8(ascii: "\"")]
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out += Array(#"\""#.utf8)
            case UInt8(ascii: "\\"): out += Array(#"\\"#.utf8)
            case UInt8(ascii: "\n"): out += Array(#"\n"#.utf8)
            case UInt8(ascii: "\r"): out += Array(#"\r"#.utf8)
            case UInt8(ascii: "\t"): out += Array(#"\t"#.utf8)
            case 0..<0x20, UInt8(ascii: "<"): out += Array(String(format: "\\u%04x", byte).utf8)
            default: out.append(byte)
            }
        }
        return String(decoding: out + [UInt8(ascii: "\"")], as: UTF8.self)
    }

    static func written(_ text: String) -> String {
        var writer = JSONWriter(capacity: 64)
        writer.string(text)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    @Test("a character that must be escaped is found at every offset of strings up to 40 bytes, among ASCII and non-ASCII neighbours")
    func escapesAtEveryOffset() throws {
        let specials: [Character] = ["\"", "\\", "<", "\n", "\r", "\t", "\u{0}", "\u{1}", "\u{1f}"]
        // Neighbours next to the boundaries of the checks: 0x1f/0x20, 0x21-0x23, 0x3b-0x3d,
        // 0x5b-0x5d, 0x7f, and multi-byte UTF-8 (bytes 0x80 and above).
        let fillers: [Character] = ["a", " ", "!", "#", ";", "=", "[", "]", "\u{7f}", "é", "😀"]
        for length in 0...40 {
            for filler in fillers {
                let plain = String(repeating: filler, count: length)
                #expect(Self.written(plain) == "\"" + plain + "\"", "\(length) × \(filler)")
                for offset in 0..<max(length, 1) where length > 0 {
                    for special in specials {
                        var characters = Array(plain)
                        characters[offset] = special
                        let text = String(characters)
                        let json = Self.written(text)
                        #expect(json == Self.reference(text), "length \(length), \(filler) with \(special.debugDescription) at \(offset)")
                        let decoded = try JSONSerialization.jsonObject(with: Data(json.utf8), options: .fragmentsAllowed) as? String
                        #expect(decoded == text)
                    }
                }
            }
        }
    }

    @Test("integers of every width, negative ones included")
    func integers() {
        for value in [0, 1, 9, 10, 42, 99, 100, 101, 999, 1000, 65535, -1, -10, -100, Int.max, Int.min + 1] {
            var writer = JSONWriter(capacity: 32)
            writer.integer(value)
            #expect(String(decoding: writer.bytes, as: UTF8.self) == String(value))
        }
    }
}
