import Foundation

/// Where the parts of a JSON text lie, found without decoding it: the members of its top-level
/// object and the elements of an array, as byte ranges, so that each part can be decoded (and
/// refused) on its own.
///
/// Meant for text the decoder has accepted as JSON; for anything else it answers nil rather than
/// guess.
enum JSONSlices {
    /// The top-level object's members in order: each key (unescaped, repeats kept) and the byte
    /// range of its value. Nil when the text is not one object.
    static func members(of bytes: [UInt8]) -> [(key: String, value: Range<Int>)]? {
        var index = skipWhitespace(bytes, from: 0)
        guard index < bytes.count, bytes[index] == UInt8(ascii: "{") else { return nil }
        index = skipWhitespace(bytes, from: index + 1)
        var members: [(key: String, value: Range<Int>)] = []
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
        } else {
            while true {
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\""), let keyEnd = stringEnd(bytes, from: index),
                      let key = string(bytes[index..<keyEnd]) else { return nil }
                index = skipWhitespace(bytes, from: keyEnd)
                guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return nil }
                index = skipWhitespace(bytes, from: index + 1)
                guard let valueEnd = valueEnd(bytes, from: index) else { return nil }
                members.append((key, index..<valueEnd))
                index = skipWhitespace(bytes, from: valueEnd)
                guard index < bytes.count else { return nil }
                index += 1
                if bytes[index - 1] == UInt8(ascii: "}") { break }
                guard bytes[index - 1] == UInt8(ascii: ",") else { return nil }
                index = skipWhitespace(bytes, from: index)
            }
        }
        return skipWhitespace(bytes, from: index) == bytes.count ? members : nil
    }

    /// The byte ranges of the elements of the array that fills `range`, in order. Nil when
    /// `range` holds no array, or one this reading cannot split (an element missing between
    /// commas).
    static func elements(of bytes: [UInt8], in range: Range<Int>) -> [Range<Int>]? {
        guard range.lowerBound < range.upperBound, range.upperBound <= bytes.count,
              bytes[range.lowerBound] == UInt8(ascii: "[") else { return nil }
        var index = skipWhitespace(bytes, from: range.lowerBound + 1)
        var elements: [Range<Int>] = []
        if index < range.upperBound, bytes[index] == UInt8(ascii: "]") {
            return index + 1 == range.upperBound ? [] : nil
        }
        while true {
            guard let end = valueEnd(bytes, from: index), end < range.upperBound else { return nil }
            elements.append(index..<end)
            index = skipWhitespace(bytes, from: end)
            guard index < range.upperBound else { return nil }
            index += 1
            if bytes[index - 1] == UInt8(ascii: "]") { return index == range.upperBound ? elements : nil }
            guard bytes[index - 1] == UInt8(ascii: ",") else { return nil }
            index = skipWhitespace(bytes, from: index)
        }
    }

    /// Past the last byte of the value that starts at `start`; nil when none starts there.
    private static func valueEnd(_ bytes: [UInt8], from start: Int) -> Int? {
        guard start < bytes.count else { return nil }
        switch bytes[start] {
        case UInt8(ascii: "\""):
            return stringEnd(bytes, from: start)
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            var depth = 0
            var index = start
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: "\""):
                    guard let end = stringEnd(bytes, from: index) else { return nil }
                    index = end
                    continue
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth -= 1
                    if depth == 0 { return index + 1 }
                default:
                    break
                }
                index += 1
            }
            return nil
        case UInt8(ascii: ","), UInt8(ascii: ":"), UInt8(ascii: "}"), UInt8(ascii: "]"):
            return nil
        default:
            // A number, true, false or null: up to the next delimiter.
            var index = start
            while index < bytes.count, !isDelimiter(bytes[index]) { index += 1 }
            return index
        }
    }

    /// Past the closing quote of the string that opens at `start`; nil when it does not close.
    private static func stringEnd(_ bytes: [UInt8], from start: Int) -> Int? {
        var index = start + 1
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\\"): index += 2
            case UInt8(ascii: "\""): return index + 1
            default: index += 1
            }
        }
        return nil
    }

    /// A string's value from its quoted text, escapes resolved.
    private static func string(_ quoted: ArraySlice<UInt8>) -> String? {
        guard quoted.contains(UInt8(ascii: "\\")) else {
            return String(decoding: quoted.dropFirst().dropLast(), as: UTF8.self)
        }
        return try? JSONDecoder().decode(String.self, from: Data(quoted))
    }

    private static func skipWhitespace(_ bytes: [UInt8], from start: Int) -> Int {
        var index = start
        while index < bytes.count, isWhitespace(bytes[index]) { index += 1 }
        return index
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    private static func isDelimiter(_ byte: UInt8) -> Bool {
        isWhitespace(byte) || byte == UInt8(ascii: ",") || byte == UInt8(ascii: "]") || byte == UInt8(ascii: "}")
    }
}
