/// Compact JSON, written into bytes as it goes: the notice's document (ConsentKitUI) and the CMP
/// API's `TCData`. Strings escape `"`, `\\`, control characters and `<` (so that `</script>` never
/// ends a script the text is inlined in); slashes and other characters stay as they are. The
/// caller writes each object's keys in the order it wants them.
///
/// The bytes go into one buffer it owns, grown by doubling, rather than an `Array`: an append is a
/// bounds check and a store, without the uniqueness check each `Array.append` makes (the notice's
/// 813-vendor document is some 200,000 of them).
package struct JSONWriter: ~Copyable {
    private var buffer: UnsafeMutablePointer<UInt8>
    private var count = 0
    private var capacity: Int
    private var needsComma = false

    package init(capacity: Int = 1 << 19) {
        self.capacity = Swift.max(capacity, 16)
        buffer = .allocate(capacity: self.capacity)
    }

    deinit {
        buffer.deallocate()
    }

    /// How many bytes were written so far.
    package var byteCount: Int { count }

    /// What was written so far.
    package var bytes: [UInt8] {
        Array(UnsafeBufferPointer(start: buffer, count: count))
    }

    @inline(__always)
    private mutating func reserve(_ extra: Int) {
        if count + extra > capacity { grow(toFit: count + extra) }
    }

    private mutating func grow(toFit needed: Int) {
        var newCapacity = capacity * 2
        while newCapacity < needed { newCapacity *= 2 }
        let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        grown.initialize(from: buffer, count: count)
        buffer.deallocate()
        buffer = grown
        capacity = newCapacity
    }

    @inline(__always)
    private mutating func append(_ byte: UInt8) {
        reserve(1)
        buffer[count] = byte
        count += 1
    }

    private mutating func append(contentsOf bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        reserve(bytes.count)
        (buffer + count).initialize(from: source, count: bytes.count)
        count += bytes.count
    }

    /// Appends ASCII text that needs no escape (the literals true, false, null, escapes).
    private mutating func append(ascii text: StaticString) {
        append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    package mutating func beginObject() {
        separate()
        append(UInt8(ascii: "{"))
        needsComma = false
    }

    package mutating func endObject() {
        append(UInt8(ascii: "}"))
        needsComma = true
    }

    package mutating func beginArray() {
        separate()
        append(UInt8(ascii: "["))
        needsComma = false
    }

    package mutating func endArray() {
        append(UInt8(ascii: "]"))
        needsComma = true
    }

    package mutating func key(_ name: String) {
        string(name)
        append(UInt8(ascii: ":"))
        needsComma = false
    }

    package mutating func null() {
        separate()
        append(ascii: "null")
        needsComma = true
    }

    package mutating func string(_ value: String) {
        separate()
        append(UInt8(ascii: "\""))
        var text = value
        // A native string's UTF-8 is contiguous: scanned through a pointer (stepping through
        // `utf8` was most of the document's writing time). Most texts need no escape.
        text.withUTF8 { utf8 in
            if !Self.anyNeedsEscape(utf8) {
                append(contentsOf: utf8)
            } else {
                for byte in utf8 { appendEscaping(byte) }
            }
        }
        append(UInt8(ascii: "\""))
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
        case UInt8(ascii: "\""): append(ascii: "\\\"")
        case UInt8(ascii: "\\"): append(ascii: "\\\\")
        case UInt8(ascii: "\n"): append(ascii: "\\n")
        case UInt8(ascii: "\r"): append(ascii: "\\r")
        case UInt8(ascii: "\t"): append(ascii: "\\t")
        case 0..<0x20, UInt8(ascii: "<"):
            let hex: StaticString = "0123456789abcdef"
            append(ascii: "\\u00")
            append(hex.utf8Start[Int(byte >> 4)])
            append(hex.utf8Start[Int(byte & 0xf)])
        default: append(byte)
        }
    }

    package mutating func integer(_ value: Int) {
        separate()
        needsComma = true
        // Ids and most counts: one or two digits.
        if value >= 0, value < 100 {
            if value >= 10 { append(UInt8(ascii: "0") + UInt8(value / 10)) }
            append(UInt8(ascii: "0") + UInt8(value % 10))
            return
        }
        if value < 0 { append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        var digits = 0
        var rest = magnitude
        repeat {
            digits += 1
            rest /= 10
        } while rest > 0
        reserve(digits)
        var position = count + digits
        repeat {
            position -= 1
            buffer[position] = UInt8(ascii: "0") + UInt8(magnitude % 10)
            magnitude /= 10
        } while magnitude > 0
        count += digits
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
        case true?: append(ascii: "true")
        case false?: append(ascii: "false")
        case nil: append(ascii: "null")
        }
        needsComma = true
    }

    /// An object of integers, its keys in code-point order (so that the same values always make
    /// the same text).
    package mutating func field(_ name: String, _ values: [String: Int]) {
        key(name)
        beginObject()
        if values.count < 2 {
            for (id, value) in values { field(id, value) }
        } else {
            for (id, value) in values.sorted(by: { $0.key < $1.key }) { field(id, value) }
        }
        endObject()
    }

    package mutating func field(_ name: String, _ values: [Int]) {
        key(name)
        beginArray()
        for value in values { integer(value) }
        endArray()
    }

    private mutating func separate() {
        if needsComma { append(UInt8(ascii: ",")) }
    }
}
