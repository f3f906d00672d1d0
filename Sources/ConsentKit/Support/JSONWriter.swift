/// Compact JSON, written into bytes as it goes: the notice's document (ConsentKitUI) and the CMP
/// API's `TCData`. Strings escape `"`, `\\`, control characters and `<` (so that `</script>` never
/// ends a script the text is inlined in); slashes and other characters stay as they are. The
/// caller writes each object's keys in the order it wants them.
package struct JSONWriter {
    package private(set) var bytes: [UInt8] = []
    private var needsComma = false

    package init(capacity: Int = 1 << 19) {
        bytes.reserveCapacity(capacity)
    }

    package mutating func beginObject() {
        separate()
        bytes.append(UInt8(ascii: "{"))
        needsComma = false
    }

    package mutating func endObject() {
        bytes.append(UInt8(ascii: "}"))
        needsComma = true
    }

    package mutating func beginArray() {
        separate()
        bytes.append(UInt8(ascii: "["))
        needsComma = false
    }

    package mutating func endArray() {
        bytes.append(UInt8(ascii: "]"))
        needsComma = true
    }

    package mutating func key(_ name: String) {
        string(name)
        bytes.append(UInt8(ascii: ":"))
        needsComma = false
    }

    package mutating func null() {
        separate()
        bytes.append(contentsOf: "null".utf8)
        needsComma = true
    }

    package mutating func string(_ value: String) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        var text = value
        // A native string's UTF-8 is contiguous: scanned through a pointer (stepping through
        // `utf8` was most of the document's writing time). Most texts need no escape.
        text.withUTF8 { utf8 in
            if !Self.anyNeedsEscape(utf8) {
                bytes.append(contentsOf: utf8)
            } else {
                for byte in utf8 { appendEscaping(byte) }
            }
        }
        bytes.append(UInt8(ascii: "\""))
        needsComma = true
    }

    /// Whether `byte` is written escaped: `"`, `\\`, below space, and `<` (so that `</script>`
    /// never ends a script the text is inlined in).
    @inline(__always)
    private static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte == UInt8(ascii: "<")
    }

    /// Whether any byte of `utf8` is written escaped, eight bytes at a time (a byte-by-byte
    /// scan was the largest part of writing the notice's 440 KB document). For a word `w`:
    /// `(w - 0x01…) & ~w & 0x80…` is non-zero exactly when some byte of `w` is zero, and
    /// `(w - 0x20…) & ~w & 0x80…` exactly when some byte is below 0x20.
    private static func anyNeedsEscape(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        func hasZeroByte(_ word: UInt64) -> Bool { (word &- ones) & ~word & highs != 0 }
        let raw = UnsafeRawBufferPointer(utf8)
        var offset = 0
        while offset + 8 <= raw.count {
            let word = raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            if (word &- 0x20 &* ones) & ~word & highs != 0 || hasZeroByte(word ^ (0x22 &* ones))
                || hasZeroByte(word ^ (0x5C &* ones)) || hasZeroByte(word ^ (0x3C &* ones)) {
                return true
            }
            offset += 8
        }
        while offset < raw.count {
            if needsEscape(raw[offset]) { return true }
            offset += 1
        }
        return false
    }

    private mutating func appendEscaping(_ byte: UInt8) {
        switch byte {
        case UInt8(ascii: "\""): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
        case UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
        case UInt8(ascii: "\n"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
        case UInt8(ascii: "\r"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
        case UInt8(ascii: "\t"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
        case 0..<0x20, UInt8(ascii: "<"):
            let hex = Array("0123456789abcdef".utf8)
            bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                                      hex[Int(byte >> 4)], hex[Int(byte & 0xf)]])
        default: bytes.append(byte)
        }
    }

    package mutating func integer(_ value: Int) {
        separate()
        needsComma = true
        // Ids and most counts: one or two digits.
        if value >= 0, value < 100 {
            if value >= 10 { bytes.append(UInt8(ascii: "0") + UInt8(value / 10)) }
            bytes.append(UInt8(ascii: "0") + UInt8(value % 10))
            return
        }
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                     UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        withUnsafeMutableBytes(of: &digits) { buffer in
            repeat {
                buffer[count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
                count += 1
            } while magnitude > 0
            for index in stride(from: count - 1, through: 0, by: -1) { bytes.append(buffer[index]) }
        }
        needsComma = true
    }

    package mutating func field(_ name: String, _ value: String?) {
        key(name)
        if let value { string(value) } else { null() }
    }

    package mutating func field(_ name: String, _ value: Int?) {
        key(name)
        if let value { integer(value) } else { null() }
    }

    package mutating func field(_ name: String, _ value: Bool?) {
        key(name)
        switch value {
        case true?: bytes.append(contentsOf: [UInt8(ascii: "t"), UInt8(ascii: "r"), UInt8(ascii: "u"), UInt8(ascii: "e")])
        case false?: bytes.append(contentsOf: [UInt8(ascii: "f"), UInt8(ascii: "a"), UInt8(ascii: "l"), UInt8(ascii: "s"), UInt8(ascii: "e")])
        case nil: bytes.append(contentsOf: [UInt8(ascii: "n"), UInt8(ascii: "u"), UInt8(ascii: "l"), UInt8(ascii: "l")])
        }
        needsComma = true
    }

    package mutating func field(_ name: String, _ values: [String: Int]) {
        key(name)
        beginObject()
        for (id, value) in values { field(id, value) }
        endObject()
    }

    package mutating func field(_ name: String, _ values: [Int]) {
        key(name)
        beginArray()
        for value in values { integer(value) }
        endArray()
    }

    private mutating func separate() {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
    }
}
