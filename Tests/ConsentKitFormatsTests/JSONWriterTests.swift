import Foundation
import Testing
import ConsentKitFormats

@Suite("JSONWriter")
struct JSONWriterTests {
    /// What the writer must produce for `text`, byte by byte: the reference its word-at-a-time
    /// scan is checked against.
    static func reference(_ text: String, _ escaping: JSONWriter.Escaping = .scriptSafe) -> String {
        var out: [UInt8] = [UInt8(ascii: "\"")]
        for scalar in text.unicodeScalars {
            if escaping == .scriptSafe, scalar == "\u{2028}" || scalar == "\u{2029}" {
                out += Array(String(format: "\\u%04x", scalar.value).utf8)
                continue
            }
            for byte in String(scalar).utf8 {
                switch byte {
                case UInt8(ascii: "\""): out += Array(#"\""#.utf8)
                case UInt8(ascii: "\\"): out += Array(#"\\"#.utf8)
                case UInt8(ascii: "\n"): out += Array(#"\n"#.utf8)
                case UInt8(ascii: "\r"): out += Array(#"\r"#.utf8)
                case UInt8(ascii: "\t"): out += Array(#"\t"#.utf8)
                case 0..<0x20: out += Array(String(format: "\\u%04x", byte).utf8)
                case UInt8(ascii: "<") where escaping == .scriptSafe: out += Array(String(format: "\\u%04x", byte).utf8)
                default: out.append(byte)
                }
            }
        }
        return String(decoding: out + [UInt8(ascii: "\"")], as: UTF8.self)
    }

    static func written(_ text: String, _ escaping: JSONWriter.Escaping = .scriptSafe) -> String {
        var writer = JSONWriter(capacity: 64, escaping: escaping)
        writer.string(text)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    @Test("in both modes, a character that must be escaped is found at every offset of strings up to 40 characters, among ASCII and non-ASCII neighbours")
    func escapesAtEveryOffset() throws {
        let specials: [Character] = ["\"", "\\", "<", "\n", "\r", "\t", "\u{0}", "\u{1}", "\u{1f}", "\u{2028}", "\u{2029}"]
        // Neighbours next to the boundaries of the checks: 0x1f/0x20, 0x21-0x23, 0x3b-0x3d,
        // 0x5b-0x5d, 0x7f, and multi-byte UTF-8 (bytes 0x80 and above; € and U+2027 start with
        // 0xE2, as U+2028 and U+2029 do).
        let fillers: [Character] = ["a", " ", "!", "#", ";", "=", "[", "]", "\u{7f}", "é", "😀", "€", "\u{2027}"]
        for length in 0...40 {
            for filler in fillers {
                let plain = String(repeating: filler, count: length)
                #expect(Self.written(plain) == "\"" + plain + "\"", "\(length) × \(filler)")
                #expect(Self.written(plain, .standard) == "\"" + plain + "\"", "\(length) × \(filler)")
                for offset in 0..<max(length, 1) where length > 0 {
                    for special in specials {
                        var characters = Array(plain)
                        characters[offset] = special
                        let text = String(characters)
                        for escaping in [JSONWriter.Escaping.scriptSafe, .standard] {
                            let json = Self.written(text, escaping)
                            #expect(json == Self.reference(text, escaping),
                                    "\(escaping): length \(length), \(filler) with \(special.debugDescription) at \(offset)")
                            let decoded = try JSONSerialization.jsonObject(with: Data(json.utf8), options: .fragmentsAllowed) as? String
                            #expect(decoded == text)
                        }
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
