import ConsentKitFormats
import Foundation
import Testing

@Suite("JSONWriter escaping")
struct JSONWriterEscapingTests {
    static func written(_ text: String, _ escaping: JSONWriter.Escaping) -> String {
        var writer = JSONWriter(capacity: 16, escaping: escaping)
        writer.string(text)
        return writer.text
    }

    @Test("every control character is escaped, in both modes, and reads back as itself")
    func controlCharacters() throws {
        for value in UInt8(0)..<0x20 {
            let text = "a" + String(UnicodeScalar(value)) + "b"
            let expected: String = switch value {
            case 0x0A: #""a\nb""#
            case 0x0D: #""a\rb""#
            case 0x09: #""a\tb""#
            default: "\"a" + String(format: "\\u%04x", value) + "b\""
            }
            for escaping in [JSONWriter.Escaping.standard, .scriptSafe] {
                let json = Self.written(text, escaping)
                #expect(json == expected, "0x\(String(value, radix: 16))")
                #expect(try JSONSerialization.jsonObject(with: Data(json.utf8), options: .fragmentsAllowed) as? String == text)
            }
        }
        #expect(Self.written("\u{7f}", .scriptSafe) == "\"\u{7f}\"")
    }

    @Test("quotes and backslashes are escaped; slashes and other characters are not")
    func quotes() {
        #expect(Self.written(#"a"b\c/d é €"#, .standard) == #""a\"b\\c/d é €""#)
        #expect(Self.written(#"a"b\c/d é €"#, .scriptSafe) == #""a\"b\\c/d é €""#)
    }

    @Test("script-safe mode writes <, U+2028 and U+2029 as escapes, so </script> and <!-- cannot appear")
    func scriptSafe() throws {
        for text in ["</script><script>alert(1)</script>", "<!-- x -->", "a\u{2028}b\u{2029}c", "€\u{2028}", "\u{2029}"] {
            let json = Self.written(text, .scriptSafe)
            #expect(!json.contains("</script") && !json.contains("<!--") && !json.contains("\u{2028}") && !json.contains("\u{2029}"), "\(json)")
            #expect(try JSONSerialization.jsonObject(with: Data(json.utf8), options: .fragmentsAllowed) as? String == text)
        }
        #expect(Self.written("x</script>", .scriptSafe) == #""x\u003c/script>""#)
        #expect(Self.written("a\u{2028}b\u{2029}c", .scriptSafe) == #""a\u2028b\u2029c""#)
        // A long text takes the word-at-a-time scan; the escapes are the same.
        let long = String(repeating: "abcdefgh", count: 4) + "\u{2028}<!--" + String(repeating: "€", count: 9)
        #expect(Self.written(long, .scriptSafe) == "\"" + String(repeating: "abcdefgh", count: 4) + #"\u2028\u003c!--"#
            + String(repeating: "€", count: 9) + "\"")
    }

    @Test("standard mode leaves <, U+2028 and U+2029 as they are, as any minimal writer does")
    func standard() {
        #expect(Self.written("</script>\u{2028}", .standard) == "\"</script>\u{2028}\"")
    }

    @Test("other characters led by the byte 0xE2 are written as they are in script-safe mode")
    func otherE2Characters() {
        for text in ["€", "\u{2027}", "\u{202A}", "\u{2000}", "…", "€€€€€€€€€€€"] {
            #expect(Self.written(text, .scriptSafe) == "\"" + text + "\"", "\(text)")
        }
    }

    @Test("a nil text is quoted as null, and raw JSON is written as it is, after a comma")
    func quotedAndRaw() {
        #expect(JSONWriter.quoted(nil) == "null")
        #expect(JSONWriter.quoted("<b>") == #""\u003cb>""#)
        #expect(JSONWriter.quoted("<b>", escaping: .standard) == #""<b>""#)
        var writer = JSONWriter(capacity: 16)
        writer.beginArray()
        writer.integer(1)
        writer.raw(#"{"a":[2]}"#)
        writer.endArray()
        #expect(writer.text == #"[1,{"a":[2]}]"#)
    }
}
