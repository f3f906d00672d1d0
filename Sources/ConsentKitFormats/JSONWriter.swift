/// Compact JSON, written into bytes as it goes: the notice's document and the CMP API's
/// `TCData` (ConsentKit, ConsentKitUI), the payload of the app's web views, and consentd's stored
/// records and answers. Strings escape `"`, `\\` and every control character (`\n`, `\r`, `\t`,
/// the others as `\u00xx`); in ``Escaping/scriptSafe`` mode also `<` (so that neither `</script>`
/// nor `<!--` can appear) and U+2028 and U+2029 (line terminators in older JavaScript). Slashes
/// and other characters stay as they are. The caller writes each object's keys in the order it
/// wants them.
///
/// The bytes go into one buffer it owns, grown by doubling, rather than an `Array`: an append is a
/// bounds check and a store, without the uniqueness check each `Array.append` makes (the notice's
/// 813-vendor document is some 200,000 of them).
public struct JSONWriter: ~Copyable {
    /// Which characters of a string are written escaped besides `"`, `\\` and control characters.
    public enum Escaping: Sendable {
        /// Only what JSON requires: the text read back is the same, byte for byte, as the text
        /// written by any other minimal writer (consentd's stored records, which are hashed).
        case standard
        /// Also `<`, U+2028 and U+2029 as `\u` escapes, so that the text can be inlined in an
        /// HTML `<script>` or in JavaScript source as it is. They mean the same characters.
        case scriptSafe
    }

    private var buffer: UnsafeMutablePointer<UInt8>
    private var count = 0
    private var capacity: Int
    private var needsComma = false
    private let scriptSafe: Bool

    /// An empty writer whose buffer first holds `capacity` bytes (it grows as needed), escaping
    /// strings as `escaping` says (script-safe unless told otherwise).
    public init(capacity: Int = 1 << 19, escaping: Escaping = .scriptSafe) {
        self.capacity = Swift.max(capacity, 16)
        buffer = .allocate(capacity: self.capacity)
        scriptSafe = escaping == .scriptSafe
    }

    deinit {
        buffer.deallocate()
    }

    /// How many bytes were written so far.
    public var byteCount: Int { count }

    /// What was written so far.
    public var bytes: [UInt8] {
        Array(UnsafeBufferPointer(start: buffer, count: count))
    }

    /// What was written so far, as text.
    public var text: String {
        String(decoding: UnsafeBufferPointer(start: buffer, count: count), as: UTF8.self)
    }

    /// `text` as one JSON string (with its quotes), escaped as `escaping` says; `null` for nil.
    public static func quoted(_ text: String?, escaping: Escaping = .scriptSafe) -> String {
        var writer = JSONWriter(capacity: (text?.utf8.count ?? 0) + 8, escaping: escaping)
        if let text { writer.string(text) } else { writer.null() }
        return writer.text
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

    /// Opens an object (`{`), after a comma when a value came before it.
    public mutating func beginObject() {
        separate()
        append(UInt8(ascii: "{"))
        needsComma = false
    }

    /// Closes the object last opened (`}`).
    public mutating func endObject() {
        append(UInt8(ascii: "}"))
        needsComma = true
    }

    /// Opens an array (`[`), after a comma when a value came before it.
    public mutating func beginArray() {
        separate()
        append(UInt8(ascii: "["))
        needsComma = false
    }

    /// Closes the array last opened (`]`).
    public mutating func endArray() {
        append(UInt8(ascii: "]"))
        needsComma = true
    }

    /// Writes an object's key (escaped like a string) and its colon; the value comes next.
    public mutating func key(_ name: String) {
        string(name)
        append(UInt8(ascii: ":"))
        needsComma = false
    }

    /// Writes `null`.
    public mutating func null() {
        separate()
        append(ascii: "null")
        needsComma = true
    }

    /// Writes `value` as a JSON string, escaped as the writer's ``Escaping`` says.
    public mutating func string(_ value: String) {
        separate()
        append(UInt8(ascii: "\""))
        var text = value
        // A native string's UTF-8 is contiguous: scanned through a pointer (stepping through
        // `utf8` was most of the document's writing time). Most texts need no escape.
        text.withUTF8 { utf8 in
            if !Self.anyNeedsEscape(utf8, scriptSafe: scriptSafe) {
                append(contentsOf: utf8)
            } else {
                appendEscaping(utf8)
            }
        }
        append(UInt8(ascii: "\""))
        needsComma = true
    }

    /// Whether `byte` may need an escape: `"`, `\\`, below space, and in script-safe mode `<` and
    /// 0xE2 (the lead byte of U+2028 and U+2029, and of other characters, which the slow path
    /// writes as they are).
    @inline(__always)
    private static func mayNeedEscape(_ byte: UInt8, scriptSafe: Bool) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
            || (scriptSafe && (byte == UInt8(ascii: "<") || byte == 0xE2))
    }

    /// Whether any byte of `utf8` may need an escape, eight bytes at a time (a byte-by-byte
    /// scan was the largest part of writing the notice's 440 KB document). For a word `w`:
    /// `(w - 0x01…) & ~w & 0x80…` is non-zero exactly when some byte of `w` is zero, and
    /// `(w - 0x20…) & ~w & 0x80…` exactly when some byte is below 0x20. One loop per mode, so
    /// that neither tests the mode per word.
    private static func anyNeedsEscape(_ utf8: UnsafeBufferPointer<UInt8>, scriptSafe: Bool) -> Bool {
        scriptSafe ? anyNeedsEscape(utf8, alsoMatching: 0x3C, 0xE2) : anyNeedsEscape(utf8, alsoMatching: 0x22, 0x5C)
    }

    /// The word-at-a-time scan for a byte below 0x20, `"`, `\\`, `first` or `second` (which
    /// repeat `"` and `\\` in standard mode).
    @inline(__always)
    private static func anyNeedsEscape(_ utf8: UnsafeBufferPointer<UInt8>, alsoMatching first: UInt8, _ second: UInt8) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        func hasZeroByte(_ word: UInt64) -> Bool { (word &- ones) & ~word & highs != 0 }
        let quotes = 0x22 &* ones, backslashes = 0x5C &* ones, firsts = UInt64(first) &* ones, seconds = UInt64(second) &* ones
        let raw = UnsafeRawBufferPointer(utf8)
        var offset = 0
        while offset + 8 <= raw.count {
            let word = raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            if (word &- 0x20 &* ones) & ~word & highs != 0 || hasZeroByte(word ^ quotes) || hasZeroByte(word ^ backslashes)
                || hasZeroByte(word ^ firsts) || hasZeroByte(word ^ seconds) {
                return true
            }
            offset += 8
        }
        while offset < raw.count {
            let byte = raw[offset]
            if byte < 0x20 || byte == 0x22 || byte == 0x5C || byte == first || byte == second { return true }
            offset += 1
        }
        return false
    }

    /// Writes `utf8`, escaping what needs it: the runs between escapes are copied whole.
    private mutating func appendEscaping(_ utf8: UnsafeBufferPointer<UInt8>) {
        let hex: StaticString = "0123456789abcdef"
        var runStart = 0
        var index = 0
        while index < utf8.count {
            let byte = utf8[index]
            guard Self.mayNeedEscape(byte, scriptSafe: scriptSafe) else {
                index += 1
                continue
            }
            // 0xE2 starts an escape only as U+2028 (E2 80 A8) or U+2029 (E2 80 A9).
            if byte == 0xE2, !(index + 2 < utf8.count && utf8[index + 1] == 0x80 && utf8[index + 2] & 0xFE == 0xA8) {
                index += 1
                continue
            }
            append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
            switch byte {
            case UInt8(ascii: "\""): append(ascii: "\\\"")
            case UInt8(ascii: "\\"): append(ascii: "\\\\")
            case UInt8(ascii: "\n"): append(ascii: "\\n")
            case UInt8(ascii: "\r"): append(ascii: "\\r")
            case UInt8(ascii: "\t"): append(ascii: "\\t")
            case UInt8(ascii: "<"): append(ascii: "\\u003c")
            case 0xE2:
                append(ascii: "\\u202")
                append(utf8[index + 2] == 0xA8 ? UInt8(ascii: "8") : UInt8(ascii: "9"))
                index += 2
            default:
                append(ascii: "\\u00")
                append(hex.utf8Start[Int(byte >> 4)])
                append(hex.utf8Start[Int(byte & 0xf)])
            }
            index += 1
            runStart = index
        }
        append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<utf8.count]))
    }

    /// Text that is already JSON (a stored record, a document written before), written as it is.
    public mutating func raw(_ json: String) {
        separate()
        var json = json
        json.withUTF8 { append(contentsOf: $0) }
        needsComma = true
    }

    /// Writes `value` in decimal.
    public mutating func integer(_ value: Int) {
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

    /// Writes `value` in decimal, whatever its integer type.
    public mutating func integer<Integer: BinaryInteger>(_ value: Integer) {
        if let small = Int(exactly: value) { integer(small) } else { raw(String(value)) }
    }

    /// Writes `name` and `value` as a string, or `null`.
    public mutating func field(_ name: String, _ value: String?) {
        key(name)
        if let value { string(value) } else { null() }
    }

    /// Writes `name` and `value` as a number, or `null`.
    public mutating func field(_ name: String, _ value: Int?) {
        key(name)
        if let value { integer(value) } else { null() }
    }

    /// Writes `name` and `value` as `true` or `false`, or `null`.
    public mutating func field(_ name: String, _ value: Bool?) {
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
    public mutating func field(_ name: String, _ values: [String: Int]) {
        key(name)
        beginObject()
        if values.count < 2 {
            for (id, value) in values { field(id, value) }
        } else {
            for (id, value) in values.sorted(by: { $0.key < $1.key }) { field(id, value) }
        }
        endObject()
    }

    /// Writes `name` and `values` as an array of numbers.
    public mutating func field(_ name: String, _ values: [Int]) {
        key(name)
        beginArray()
        for value in values { integer(value) }
        endArray()
    }

    private mutating func separate() {
        if needsComma { append(UInt8(ascii: ",")) }
    }
}
