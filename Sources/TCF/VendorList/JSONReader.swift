/// A pull reader over JSON text that decodes straight into the vendor-list model.
///
/// The decoder asks for the value it expects next (`readObject`, `readInt`, `readString`...),
/// so no intermediate tree of `Any` values is built: that keeps loading a 900 KB vendor list in
/// single-digit milliseconds. The reader keeps the path of the value being read, so every error
/// says where it is. It follows RFC 8259: no comments, no trailing commas, strings must be valid
/// UTF-8 and escapes complete. Nesting is iterative where the schema is unknown (``skipValue()``),
/// so deeply nested input cannot exhaust the stack.
struct JSONReader {
    private let bytes: [UInt8]
    /// The offset of the next byte to read.
    private(set) var offset = 0
    /// The keys and indices leading to the value being read.
    private var path: [PathElement] = []

    private enum PathElement {
        case key(String)
        case index(Int)
    }

    /// A reader at the start of `bytes`.
    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    // MARK: Documents and containers

    /// Reads one complete document with `body`, then checks that only whitespace follows.
    mutating func readDocument<T>(_ body: (inout JSONReader) throws(VendorListError) -> T) throws(VendorListError) -> T {
        skipWhitespace()
        let value = try body(&self)
        skipWhitespace()
        guard offset == bytes.count else { throw error(.invalidJSON(expected: "end of input"), at: offset) }
        return value
    }

    /// Reads an object, calling `body` once per member with the reader positioned at its value.
    /// `body` must consume the value (read it or ``skipValue()``).
    mutating func readObject(_ body: (inout JSONReader, String) throws(VendorListError) -> Void) throws(VendorListError) {
        try open(UInt8(ascii: "{"), "an object")
        skipWhitespace()
        if peek() == UInt8(ascii: "}") { offset += 1; return }
        while true {
            skipWhitespace()
            guard peek() == UInt8(ascii: "\"") else { throw error(.invalidJSON(expected: "a string key"), at: offset) }
            let key = try readStringToken()
            skipWhitespace()
            guard peek() == UInt8(ascii: ":") else { throw error(.invalidJSON(expected: "':' after a key"), at: offset) }
            offset += 1
            skipWhitespace()
            path.append(.key(key))
            try body(&self, key)
            path.removeLast()
            guard try closeOrContinue(UInt8(ascii: "}")) else { return }
        }
    }

    /// Reads an array, calling `body` once per element with the reader positioned at it.
    mutating func readArray(_ body: (inout JSONReader) throws(VendorListError) -> Void) throws(VendorListError) {
        try open(UInt8(ascii: "["), "an array")
        skipWhitespace()
        if peek() == UInt8(ascii: "]") { offset += 1; return }
        var index = 0
        while true {
            skipWhitespace()
            path.append(.index(index))
            try body(&self)
            path.removeLast()
            index += 1
            guard try closeOrContinue(UInt8(ascii: "]")) else { return }
        }
    }

    /// Whether the next value is an object (so a caller can accept an object or an array).
    func nextIsObject() -> Bool { peek() == UInt8(ascii: "{") }

    private mutating func open(_ bracket: UInt8, _ expected: String) throws(VendorListError) {
        guard peek() == bracket else { throw mismatch(expected) }
        offset += 1
    }

    /// After a member or element: consumes `,` (returns true) or the closing `bracket` (false).
    private mutating func closeOrContinue(_ bracket: UInt8) throws(VendorListError) -> Bool {
        skipWhitespace()
        switch peek() {
        case UInt8(ascii: ","): offset += 1; return true
        case bracket: offset += 1; return false
        default:
            throw error(.invalidJSON(expected: "',' or '\(Character(Unicode.Scalar(bracket)))'"), at: offset)
        }
    }

    // MARK: Scalars

    /// Reads a string value.
    mutating func readString() throws(VendorListError) -> String {
        guard peek() == UInt8(ascii: "\"") else { throw mismatch("a string") }
        return try readStringToken()
    }

    /// Reads `null` and returns true, or returns false without consuming anything.
    mutating func readNull() throws(VendorListError) -> Bool {
        guard peek() == UInt8(ascii: "n") else { return false }
        try literal("null")
        return true
    }

    /// Reads `true` or `false`.
    mutating func readBool() throws(VendorListError) -> Bool {
        switch peek() {
        case UInt8(ascii: "t"): try literal("true"); return true
        case UInt8(ascii: "f"): try literal("false"); return false
        default: throw mismatch("true or false")
        }
    }

    /// Reads a number that holds an integer. `7776000`, `-1`, `1e3` and `90.0` are integers;
    /// `0.5` and numbers beyond ±2^53 are not.
    mutating func readInt() throws(VendorListError) -> Int {
        let start = offset
        guard let first = peek(), first == UInt8(ascii: "-") || isDigit(first) else { throw mismatch("an integer") }
        let negative = first == UInt8(ascii: "-")
        if negative { offset += 1 }
        let digitsStart = offset
        var value = 0
        var overflow = false
        while let byte = peek(), isDigit(byte) {
            let (times10, o1) = value.multipliedReportingOverflow(by: 10)
            let (sum, o2) = times10.addingReportingOverflow(Int(byte &- 48))
            overflow = overflow || o1 || o2
            value = sum
            offset += 1
        }
        guard offset > digitsStart else { throw error(.invalidJSON(expected: "a digit"), at: offset) }
        guard peek() == UInt8(ascii: ".") || peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") else {
            guard !overflow, value <= 1 << 53 else { throw error(.invalidValue("\(text(start..<offset)) is too large"), at: start) }
            return negative ? -value : value
        }
        try skipFractionAndExponent()
        let literal = text(start..<offset)
        guard let double = Double(literal), double.rounded() == double, abs(double) <= 0x1p53 else {
            throw error(.invalidValue("\(literal) is not an integer"), at: start)
        }
        return Int(double)
    }

    // MARK: Skipping

    /// Reads and discards one value of any kind, checking that it is valid JSON.
    mutating func skipValue() throws(VendorListError) {
        // A stack of open brackets instead of recursion: nesting depth is bounded by memory only.
        var open: [UInt8] = []
        repeat {
            skipWhitespace()
            switch peek() {
            case UInt8(ascii: "{"):
                offset += 1
                skipWhitespace()
                if peek() == UInt8(ascii: "}") { offset += 1 } else {
                    open.append(UInt8(ascii: "}"))
                    try skipKey()
                    continue
                }
            case UInt8(ascii: "["):
                offset += 1
                skipWhitespace()
                if peek() == UInt8(ascii: "]") { offset += 1 } else {
                    open.append(UInt8(ascii: "]"))
                    continue
                }
            case UInt8(ascii: "\""): _ = try readStringToken()
            case UInt8(ascii: "t"): try literal("true")
            case UInt8(ascii: "f"): try literal("false")
            case UInt8(ascii: "n"): try literal("null")
            case let byte? where byte == UInt8(ascii: "-") || isDigit(byte): try skipNumber()
            default: throw error(.invalidJSON(expected: "a value"), at: offset)
            }
            // A value is complete: close every container that ends here.
            while let bracket = open.last {
                if try closeOrContinue(bracket) {
                    if bracket == UInt8(ascii: "}") { try skipKey() }
                    break
                }
                open.removeLast()
            }
        } while !open.isEmpty
    }

    /// Skips `"key" :` inside an object being skipped.
    private mutating func skipKey() throws(VendorListError) {
        skipWhitespace()
        guard peek() == UInt8(ascii: "\"") else { throw error(.invalidJSON(expected: "a string key"), at: offset) }
        _ = try readStringToken()
        skipWhitespace()
        guard peek() == UInt8(ascii: ":") else { throw error(.invalidJSON(expected: "':' after a key"), at: offset) }
        offset += 1
    }

    private mutating func skipNumber() throws(VendorListError) {
        if peek() == UInt8(ascii: "-") { offset += 1 }
        let digitsStart = offset
        while let byte = peek(), isDigit(byte) { offset += 1 }
        guard offset > digitsStart else { throw error(.invalidJSON(expected: "a digit"), at: offset) }
        try skipFractionAndExponent()
    }

    private mutating func skipFractionAndExponent() throws(VendorListError) {
        if peek() == UInt8(ascii: ".") {
            offset += 1
            try skipDigits()
        }
        if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
            offset += 1
            if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { offset += 1 }
            try skipDigits()
        }
    }

    private mutating func skipDigits() throws(VendorListError) {
        let start = offset
        while let byte = peek(), isDigit(byte) { offset += 1 }
        guard offset > start else { throw error(.invalidJSON(expected: "a digit"), at: offset) }
    }

    // MARK: Tokens

    /// Reads a string token starting at its opening quote.
    private mutating func readStringToken() throws(VendorListError) -> String {
        let quote = offset
        offset += 1
        let start = offset
        var ascii = true
        while offset < bytes.count {
            let byte = bytes[offset]
            if byte == UInt8(ascii: "\"") {
                offset += 1
                return try makeString(bytes[start..<(offset - 1)], ascii: ascii, at: start)
            }
            if byte == UInt8(ascii: "\\") { return try readEscapedString(from: start, quote: quote) }
            if byte < 0x20 { throw error(.invalidJSON(expected: "a control character to be escaped"), at: offset) }
            if byte >= 0x80 { ascii = false }
            offset += 1
        }
        throw error(.invalidJSON(expected: "a closing quote"), at: quote)
    }

    /// The slow path of ``readStringToken()``: the string has escapes, so it is rebuilt.
    private mutating func readEscapedString(from start: Int, quote: Int) throws(VendorListError) -> String {
        var buffer = Array(bytes[start..<offset])
        while offset < bytes.count {
            let byte = bytes[offset]
            switch byte {
            case UInt8(ascii: "\""):
                offset += 1
                return try makeString(buffer[...], ascii: false, at: start)
            case UInt8(ascii: "\\"):
                let escape = offset
                offset += 1
                guard let kind = peek() else { break }
                offset += 1
                switch kind {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): buffer.append(kind)
                case UInt8(ascii: "b"): buffer.append(0x08)
                case UInt8(ascii: "f"): buffer.append(0x0C)
                case UInt8(ascii: "n"): buffer.append(0x0A)
                case UInt8(ascii: "r"): buffer.append(0x0D)
                case UInt8(ascii: "t"): buffer.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try readHex4(escape: escape)
                    if (0xD800..<0xDC00).contains(scalar) {
                        // A high surrogate must be followed by an escaped low surrogate.
                        guard peek() == UInt8(ascii: "\\"), offset + 1 < bytes.count, bytes[offset + 1] == UInt8(ascii: "u")
                        else { throw error(.invalidJSON(expected: "a low surrogate after \\u\(hex(scalar))"), at: escape) }
                        offset += 2
                        let low = try readHex4(escape: escape)
                        guard (0xDC00..<0xE000).contains(low) else {
                            throw error(.invalidJSON(expected: "a low surrogate after \\u\(hex(scalar))"), at: escape)
                        }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    } else if (0xDC00..<0xE000).contains(scalar) {
                        throw error(.invalidJSON(expected: "a high surrogate before \\u\(hex(scalar))"), at: escape)
                    }
                    buffer.append(contentsOf: String(Character(Unicode.Scalar(scalar)!)).utf8)
                default:
                    throw error(.invalidJSON(expected: "an escape (\\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)"), at: escape)
                }
            default:
                if byte < 0x20 { throw error(.invalidJSON(expected: "a control character to be escaped"), at: offset) }
                buffer.append(byte)
                offset += 1
            }
        }
        throw error(.invalidJSON(expected: "a closing quote"), at: quote)
    }

    private mutating func readHex4(escape: Int) throws(VendorListError) -> UInt32 {
        guard offset + 4 <= bytes.count else { throw error(.invalidJSON(expected: "four hex digits after \\u"), at: escape) }
        var value: UInt32 = 0
        for byte in bytes[offset..<(offset + 4)] {
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw error(.invalidJSON(expected: "four hex digits after \\u"), at: escape)
            }
            value = value << 4 | UInt32(digit)
        }
        offset += 4
        return value
    }

    /// A `String` of UTF-8 `utf8`, rejecting invalid UTF-8 rather than repairing it.
    private func makeString(_ utf8: ArraySlice<UInt8>, ascii: Bool, at start: Int) throws(VendorListError) -> String {
        let string = String(decoding: utf8, as: UTF8.self)
        // Decoding replaces invalid sequences with U+FFFD, which changes the bytes.
        guard ascii || string.utf8.elementsEqual(utf8) else {
            throw error(.invalidValue("string is not valid UTF-8"), at: start)
        }
        return string
    }

    private mutating func literal(_ word: StaticString) throws(VendorListError) {
        let count = word.utf8CodeUnitCount
        let matches = offset + count <= bytes.count && word.withUTF8Buffer { expected in
            bytes[offset..<(offset + count)].elementsEqual(expected)
        }
        guard matches else { throw error(.invalidJSON(expected: "\(word)"), at: offset) }
        offset += count
    }

    // MARK: Bytes

    @inline(__always)
    private func peek() -> UInt8? { offset < bytes.count ? bytes[offset] : nil }

    @inline(__always)
    private func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }

    @inline(__always)
    private mutating func skipWhitespace() {
        while offset < bytes.count {
            switch bytes[offset] {
            case 0x20, 0x0A, 0x0D, 0x09: offset += 1
            default: return
            }
        }
    }

    private func text(_ range: Range<Int>) -> String { String(decoding: bytes[range], as: UTF8.self) }

    private func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    // MARK: Errors

    /// An error for the value at `offset`, at the current path.
    func error(_ reason: VendorListError.Reason, at offset: Int) -> VendorListError {
        var rendered = ""
        for element in path {
            switch element {
            case .key(let key): rendered += rendered.isEmpty ? key : ".\(key)"
            case .index(let index): rendered += "[\(index)]"
            }
        }
        let before = bytes[..<min(offset, bytes.count)]
        let line = before.reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
        let lineStart = before.lastIndex(of: 0x0A).map { $0 + 1 } ?? 0
        return VendorListError(reason, path: rendered, offset: offset, line: line, column: offset - lineStart + 1)
    }

    /// A type mismatch at the next value, or invalid JSON when no value starts there.
    private func mismatch(_ expected: String) -> VendorListError {
        guard let byte = peek() else {
            return error(.invalidJSON(expected: "\(expected), not the end of input"), at: offset)
        }
        switch byte {
        case UInt8(ascii: "{"), UInt8(ascii: "["), UInt8(ascii: "\""), UInt8(ascii: "t"), UInt8(ascii: "f"),
             UInt8(ascii: "n"), UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return error(.typeMismatch(expected: expected), at: offset)
        default:
            return error(.invalidJSON(expected: expected), at: offset)
        }
    }
}
