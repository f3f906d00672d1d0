/// The base64url alphabet (RFC 4648 §5) that consent strings are written in.
///
/// Encoding always emits unpadded base64url. Decoding is lenient in the two ways real strings
/// need: it accepts trailing `=` padding and the standard alphabet's `+` and `/`, which some
/// SDKs emitted even though the specs forbid them.
public enum Base64URL {
    /// Encodes bytes as unpadded base64url.
    public static func encode(_ bytes: [UInt8]) -> String {
        encode(bytes, bitCount: bytes.count * 8)
    }

    /// Encodes the first `bitCount` bits of `bytes` as unpadded base64url, one character per six
    /// bits, the last character zero-filled.
    static func encode(_ bytes: [UInt8], bitCount: Int) -> String {
        let characterCount = (bitCount + 5) / 6
        var output = [UInt8]()
        output.reserveCapacity(characterCount)
        bytes.withUnsafeBufferPointer { buffer in
            for index in 0..<characterCount {
                let bit = index * 6
                let byte = bit >> 3
                let high = UInt16(buffer[byte]) << 8
                let low = byte + 1 < buffer.count ? UInt16(buffer[byte + 1]) : 0
                let sextet = Int(((high | low) >> (10 - (bit & 7))) & 0x3F)
                output.append(alphabet[sextet])
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Decodes base64url (or standard base64) text into bytes.
    ///
    /// - Returns: the decoded bytes, zero-filled to a whole byte, followed by `slack` zero bytes,
    ///   and the number of meaningful bits: the whole bytes the characters carry.
    /// - Throws: ``TCFDecodingError`` naming the first character that is not in either alphabet,
    ///   or padding that is followed by more text.
    static func decode(
        _ text: UnsafeBufferPointer<UInt8>, segment: Int, slack: Int = 0
    ) throws(TCFDecodingError) -> (bytes: [UInt8], bitCount: Int) {
        var end = text.count
        while end > 0, text[end - 1] == UInt8(ascii: "=") { end -= 1 }
        if text.count - end > 2 {
            throw TCFDecodingError(.invalidCharacter("="), segment: segment, bitOffset: end * 6)
        }
        // The spec pads the bits to whole bytes before encoding, so the bits of a last,
        // partial byte are base64's own fill, not data.
        let bitCount = end * 6 / 8 * 8
        var bytes = [UInt8](repeating: 0, count: bitCount / 8 + 1 + slack)
        try bytes.withUnsafeMutableBufferPointer { (out: inout UnsafeMutableBufferPointer<UInt8>) throws(TCFDecodingError) in
            var accumulator: UInt32 = 0
            var pending = 0
            var written = 0
            for index in 0..<end {
                let character = text[index]
                let value = decodingTable[Int(character)]
                if value == 0xFF {
                    throw TCFDecodingError(
                        .invalidCharacter(Character(Unicode.Scalar(character))),
                        segment: segment, bitOffset: index * 6)
                }
                accumulator = (accumulator << 6) | UInt32(value)
                pending += 6
                if pending >= 8 {
                    pending -= 8
                    out[written] = UInt8(truncatingIfNeeded: accumulator >> UInt32(pending))
                    written += 1
                }
            }
            if pending > 0 {
                out[written] = UInt8(truncatingIfNeeded: accumulator << UInt32(8 - pending))
            }
        }
        return (bytes, bitCount)
    }

    private static let alphabet: [UInt8] = Array(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    private static let decodingTable: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (value, character) in alphabet.enumerated() { table[Int(character)] = UInt8(value) }
        table[Int(UInt8(ascii: "+"))] = 62
        table[Int(UInt8(ascii: "/"))] = 63
        return table
    }()
}
