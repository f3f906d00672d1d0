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
    package static func encode(_ bytes: [UInt8], bitCount: Int) -> String {
        precondition(bitCount <= bytes.count * 8)
        let characterCount = (bitCount + 5) / 6
        return alphabet.withUnsafeBufferPointer { alphabet in
            bytes.withUnsafeBufferPointer { input in
                String(unsafeUninitializedCapacity: characterCount) { output in
                    // Whole groups: three bytes make four characters. When four more characters
                    // are due, the bit count guarantees the three bytes they come from.
                    var index = 0, byte = 0
                    while index + 4 <= characterCount {
                        let group = UInt32(input[byte]) << 16 | UInt32(input[byte + 1]) << 8 | UInt32(input[byte + 2])
                        output[index] = alphabet[Int(group >> 18)]
                        output[index + 1] = alphabet[Int(group >> 12 & 0x3F)]
                        output[index + 2] = alphabet[Int(group >> 6 & 0x3F)]
                        output[index + 3] = alphabet[Int(group & 0x3F)]
                        index += 4
                        byte += 3
                    }
                    // One to three characters left, each from the one or two bytes its bits are in.
                    while index < characterCount {
                        let bit = index * 6
                        let byte = bit >> 3
                        let high = UInt16(input[byte]) << 8
                        let low = byte + 1 < input.count ? UInt16(input[byte + 1]) : 0
                        output[index] = alphabet[Int(((high | low) >> (10 - (bit & 7))) & 0x3F)]
                        index += 1
                    }
                    return characterCount
                }
            }
        }
    }

    /// The bytes ``decode(_:into:segment:)`` needs for `characters` characters of text: the
    /// decoded bytes, the last partial one, and two that its 8-byte stores run over.
    package static func decodedCapacity(characters: Int) -> Int { characters * 6 / 8 + 3 }

    /// Decodes base64url (or standard base64) text into `out`.
    ///
    /// `out` receives the decoded bytes, zero-filled to a whole byte and then to its end; it must
    /// hold at least ``decodedCapacity(characters:)`` bytes for `text`.
    ///
    /// - Returns: the number of meaningful bits: the whole bytes the characters carry.
    /// - Throws: ``TCFDecodingError`` naming the first character that is not in either alphabet,
    ///   or padding that is followed by more text.
    package static func decode(
        _ text: UnsafeBufferPointer<UInt8>, into out: UnsafeMutableBufferPointer<UInt8>, segment: Int
    ) throws(TCFDecodingError) -> Int {
        precondition(out.count >= decodedCapacity(characters: text.count))
        var end = text.count
        while end > 0, text[end - 1] == UInt8(ascii: "=") { end -= 1 }
        if text.count - end > 2 {
            throw TCFDecodingError(.invalidCharacter("="), segment: segment, bitOffset: end * 6)
        }
        // Characters outside the alphabet map to 0xFF; valid ones to 0...63. One OR per
        // character collects the verdict, so the loops have no exit but their end.
        var invalid: UInt8 = 0
        var written = 0
        decodingTable.withUnsafeBufferPointer { table in
            let input = text.baseAddress!, output = out.baseAddress!
            var read = 0
            // Eight characters make six bytes, written with one 8-byte store whose last two
            // bytes the next store or the tail overwrites (the capacity has room for them).
            while read &+ 8 <= end {
                let a = table[Int(input[read])], b = table[Int(input[read &+ 1])]
                let c = table[Int(input[read &+ 2])], d = table[Int(input[read &+ 3])]
                let e = table[Int(input[read &+ 4])], f = table[Int(input[read &+ 5])]
                let g = table[Int(input[read &+ 6])], h = table[Int(input[read &+ 7])]
                invalid |= a | b | c | d | e | f | g | h
                let group = UInt64(a) << 58 | UInt64(b) << 52 | UInt64(c) << 46 | UInt64(d) << 40
                    | UInt64(e) << 34 | UInt64(f) << 28 | UInt64(g) << 22 | UInt64(h) << 16
                UnsafeMutableRawPointer(output + written).storeBytes(of: group.bigEndian, as: UInt64.self)
                read &+= 8
                written &+= 6
            }
            if read &+ 4 <= end {
                let a = table[Int(input[read])], b = table[Int(input[read &+ 1])]
                let c = table[Int(input[read &+ 2])], d = table[Int(input[read &+ 3])]
                invalid |= a | b | c | d
                let group = UInt32(a) << 18 | UInt32(b) << 12 | UInt32(c) << 6 | UInt32(d)
                output[written] = UInt8(truncatingIfNeeded: group >> 16)
                output[written &+ 1] = UInt8(truncatingIfNeeded: group >> 8)
                output[written &+ 2] = UInt8(truncatingIfNeeded: group)
                read &+= 4
                written &+= 3
            }
            // One to three characters left: whole bytes, then the partial byte's fill.
            var accumulator: UInt32 = 0
            var pending = 0
            while read < end {
                let value = table[Int(text[read])]
                invalid |= value
                accumulator = accumulator << 6 | UInt32(value & 0x3F)
                pending += 6
                if pending >= 8 {
                    pending -= 8
                    out[written] = UInt8(truncatingIfNeeded: accumulator >> UInt32(pending))
                    written += 1
                }
                read += 1
            }
            if pending > 0 {
                out[written] = UInt8(truncatingIfNeeded: accumulator << UInt32(8 - pending))
                written += 1
            }
        }
        guard invalid & 0xC0 == 0 else {
            // The slow path, taken only to name the offending character.
            let index = text[..<end].firstIndex { decodingTable[Int($0)] == 0xFF } ?? 0
            throw TCFDecodingError(
                .invalidCharacter(Character(Unicode.Scalar(text[index]))), segment: segment, bitOffset: index * 6)
        }
        UnsafeMutableBufferPointer(rebasing: out[written...]).update(repeating: 0)
        // The spec pads the bits to whole bytes before encoding, so the bits of a last,
        // partial byte are base64's own fill, not data.
        return end * 6 / 8 * 8
    }

    /// Decodes the longest run of alphabet characters at the start of `text` (either alphabet;
    /// `=` and every other character end it) into `out`, for a caller that finds where a segment
    /// ends while decoding it: the run ends at a separator, the text's end or a character that
    /// ``decode(_:into:segment:)`` must then judge.
    ///
    /// The run's bytes are what ``decode(_:into:segment:)`` writes for the same characters, the
    /// last partial byte included; `out` past them is left to the caller, who zero-fills it. `out`
    /// must hold at least ``decodedCapacity(characters:)`` bytes for all of `text`.
    ///
    /// - Returns: the run's length in characters and the bytes written.
    package static func decodePrefix(
        _ text: UnsafeBufferPointer<UInt8>, into out: UnsafeMutableBufferPointer<UInt8>
    ) -> (characters: Int, bytes: Int) {
        precondition(out.count >= decodedCapacity(characters: text.count))
        guard let input = text.baseAddress, let output = out.baseAddress else { return (0, 0) }
        let end = text.count
        return groupTables.withUnsafeBufferPointer { groupTables in
            var read = 0, written = 0
            let place0 = groupTables.baseAddress!, place1 = place0 + 256, place2 = place0 + 512, place3 = place0 + 768
            // Eight characters, two groups of four: each group is four loads from groupTables
            // OR-ed together, the verdict in bit 31; one 8-byte store writes the six bytes (its
            // last two the next store or the tail overwrites, as in decode). A group holding a
            // character out of the alphabet is left to the loops below, which stop at it.
            while read &+ 8 <= end {
                let high = place0[Int(input[read])] | place1[Int(input[read &+ 1])]
                    | place2[Int(input[read &+ 2])] | place3[Int(input[read &+ 3])]
                let low = place0[Int(input[read &+ 4])] | place1[Int(input[read &+ 5])]
                    | place2[Int(input[read &+ 6])] | place3[Int(input[read &+ 7])]
                guard (high | low) & Self.outsideAlphabet == 0 else { break }
                let group = UInt64(high) << 40 | UInt64(low) << 16
                UnsafeMutableRawPointer(output + written).storeBytes(of: group.bigEndian, as: UInt64.self)
                read &+= 8
                written &+= 6
            }
            if read &+ 4 <= end {
                let group = place0[Int(input[read])] | place1[Int(input[read &+ 1])]
                    | place2[Int(input[read &+ 2])] | place3[Int(input[read &+ 3])]
                if group & Self.outsideAlphabet == 0 {
                    // Three bytes in a 4-byte store: the fourth is within the capacity, and past
                    // the run's bytes, which the caller zero-fills, or the tail overwrites.
                    UnsafeMutableRawPointer(output + written).storeBytes(of: (group << 8).bigEndian, as: UInt32.self)
                    read &+= 4
                    written &+= 3
                }
            }
            return decodingTable.withUnsafeBufferPointer { table in
                // At most seven characters more (of a group cut short, or the run's last ones), one at
                // a time: whole bytes, then the partial byte.
                var accumulator: UInt32 = 0
                var pending = 0
                while read < end {
                    let value = table[Int(input[read])]
                    guard value & 0xC0 == 0 else { break }
                    accumulator = accumulator << 6 | UInt32(value)
                    pending &+= 6
                    if pending >= 8 {
                        pending &-= 8
                        output[written] = UInt8(truncatingIfNeeded: accumulator >> UInt32(pending))
                        written &+= 1
                    }
                    read &+= 1
                }
                if pending > 0 {
                    output[written] = UInt8(truncatingIfNeeded: accumulator << UInt32(8 - pending))
                    written &+= 1
                }
                return (read, written)
            }
        }
    }

    /// The bits of a short text, at most ten characters, left-aligned in one word: the first
    /// character's six bits are the most significant, the bits after the last character zero.
    /// Nil for a longer text or one with any character outside both alphabets (`=` included):
    /// those take ``decode(_:into:segment:)``, which reports the character.
    ///
    /// For a GPP header (six characters for two sections), read without a buffer or a reader.
    package static func word(_ text: UnsafeBufferPointer<UInt8>) -> UInt64? {
        guard text.count <= 10 else { return nil }
        return decodingTable.withUnsafeBufferPointer { table in
            var word: UInt64 = 0, invalid: UInt8 = 0
            for character in text {
                let value = table[Int(character)]
                invalid |= value
                word = word << 6 | UInt64(value & 0x3F)
            }
            guard invalid & 0xC0 == 0 else { return nil }
            return text.isEmpty ? 0 : word << UInt64(64 - 6 * text.count)
        }
    }

    /// The bit set in a ``groupTables`` entry of a byte outside the alphabets.
    private static let outsideAlphabet: UInt32 = 0x8000_0000

    /// ``decodingTable`` four times over, each value already in its place in a group of four
    /// characters: entry `256 * k + byte` is the byte's six bits shifted to the place of the
    /// group's character `k` (left by 18, 12, 6 or 0), or ``outsideAlphabet`` (0x8000_0000) for
    /// a byte outside the alphabets. A group is then four loads OR-ed, with no shift and no
    /// second verdict to collect (about 40% fewer instructions per character than
    /// decodingTable's loop, callgrind). 4 KB, written out like decodingTable so that the
    /// compiler lays it out statically (a computed table cost a `swift_once` check per segment);
    /// Base64URLTests checks it against decodingTable.
    static let groupTables: [UInt32] = [
        0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000,
        0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000,
        0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000,
        0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000,
        0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000,
        0x80000000, 0x80000000, 0x80000000, 0x00F80000, 0x80000000, 0x00F80000, 0x80000000, 0x00FC0000,
        0x00D00000, 0x00D40000, 0x00D80000, 0x00DC0000, 0x00E00000, 0x00E40000, 0x00E80000, 0x00EC0000,
        0x00F00000, 0x00F40000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000,
        0x80000000, 0x00000000, 0x00040000, 0x00080000, 0x000C0000, 0x00100000, 0x00140000, 0x00180000,
        0x001C0000, 0x00200000, 0x00240000, 0x00280000, 0x002C0000, 0x00300000, 0x00340000, 0x00380000,
        0x003C0000, 0x00400000, 0x00440000, 0x00480000, 0x004C0000, 0x00500000, 0x00540000, 0x00580000,
        0x005C0000, 0x00600000, 0x00640000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x00FC0000,
        0x80000000, 0x00680000, 0x006C0000, 0x00700000, 0x00740000, 0x00780000, 0x007C0000, 0x00800000,
        0x00840000, 0x00880000, 0x008C0000, 0x00900000, 0x00940000, 0x00980000, 0x009C0000, 0x00A00000,
        0x00A40000, 0x00A80000, 0x00AC0000, 0x00B00000, 0x00B40000, 0x00B80000, 0x00BC0000, 0x00C00000,
        0x00C40000, 0x00C80000, 0x00CC0000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000,
        0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000,
        0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000,
        0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000,
        0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000,
        0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000,
        0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000,
        0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000,
        0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000,
        0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000,
        0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000,
        0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000,
        0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000,
        0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000,
        0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000,
        0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000,
        0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000,
        0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000,
        0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000,
        0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000,
        0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000,
        0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000,
        0x80000000, 0x80000000, 0x80000000, 0x0003E000, 0x80000000, 0x0003E000, 0x80000000, 0x0003F000,
        0x00034000, 0x00035000, 0x00036000, 0x00037000, 0x00038000, 0x00039000, 0x0003A000, 0x0003B000,
        0x0003C000, 0x0003D000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000,
        0x80000000, 0x00000000, 0x00001000, 0x00002000, 0x00003000, 0x00004000, 0x00005000, 0x00006000,
        0x00007000, 0x00008000, 0x00009000, 0x0000A000, 0x0000B000, 0x0000C000, 0x0000D000, 0x0000E000,
        0x0000F000, 0x00010000, 0x00011000, 0x00012000, 0x00013000, 0x00014000, 0x00015000, 0x00016000,
        0x00017000, 0x00018000, 0x00019000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x0003F000,
        0x80000000, 0x0001A000, 0x0001B000, 0x0001C000, 0x0001D000, 0x0001E000, 0x0001F000, 0x00020000,
        0x00021000, 0x00022000, 0x00023000, 0x00024000, 0x00025000, 0x00026000, 0x00027000, 0x00028000,
        0x00029000, 0x0002A000, 0x0002B000, 0x0002C000, 0x0002D000, 0x0002E000, 0x0002F000, 0x00030000,
        0x00031000, 0x00032000, 0x00033000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000,
        0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000,
        0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000,
        0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000,
        0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000,
        0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000,
        0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000,
        0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000,
        0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000,
        0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000,
        0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000,
        0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000,
        0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000,
        0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000,
        0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000,
        0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000,
        0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000,
        0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000,
        0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000,
        0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000,
        0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000,
        0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000,
        0x80000000, 0x80000000, 0x80000000, 0x00000F80, 0x80000000, 0x00000F80, 0x80000000, 0x00000FC0,
        0x00000D00, 0x00000D40, 0x00000D80, 0x00000DC0, 0x00000E00, 0x00000E40, 0x00000E80, 0x00000EC0,
        0x00000F00, 0x00000F40, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000,
        0x80000000, 0x00000000, 0x00000040, 0x00000080, 0x000000C0, 0x00000100, 0x00000140, 0x00000180,
        0x000001C0, 0x00000200, 0x00000240, 0x00000280, 0x000002C0, 0x00000300, 0x00000340, 0x00000380,
        0x000003C0, 0x00000400, 0x00000440, 0x00000480, 0x000004C0, 0x00000500, 0x00000540, 0x00000580,
        0x000005C0, 0x00000600, 0x00000640, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x00000FC0,
        0x80000000, 0x00000680, 0x000006C0, 0x00000700, 0x00000740, 0x00000780, 0x000007C0, 0x00000800,
        0x00000840, 0x00000880, 0x000008C0, 0x00000900, 0x00000940, 0x00000980, 0x000009C0, 0x00000A00,
        0x00000A40, 0x00000A80, 0x00000AC0, 0x00000B00, 0x00000B40, 0x00000B80, 0x00000BC0, 0x00000C00,
        0x00000C40, 0x00000C80, 0x00000CC0, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000,
        0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000,
        0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000,
        0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000,
        0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000,
        0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000,
        0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000,
        0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000,
        0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000,
        0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000,
        0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000,
        0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000,
        0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000,
        0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000,
        0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000,
        0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000,
        0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000,
        0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000,
        0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000,
        0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000,
        0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000,
        0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000,
        0x80000000, 0x80000000, 0x80000000, 0x0000003E, 0x80000000, 0x0000003E, 0x80000000, 0x0000003F,
        0x00000034, 0x00000035, 0x00000036, 0x00000037, 0x00000038, 0x00000039, 0x0000003A, 0x0000003B,
        0x0000003C, 0x0000003D, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000,
        0x80000000, 0x00000000, 0x00000001, 0x00000002, 0x00000003, 0x00000004, 0x00000005, 0x00000006,
        0x00000007, 0x00000008, 0x00000009, 0x0000000A, 0x0000000B, 0x0000000C, 0x0000000D, 0x0000000E,
        0x0000000F, 0x00000010, 0x00000011, 0x00000012, 0x00000013, 0x00000014, 0x00000015, 0x00000016,
        0x00000017, 0x00000018, 0x00000019, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x0000003F,
        0x80000000, 0x0000001A, 0x0000001B, 0x0000001C, 0x0000001D, 0x0000001E, 0x0000001F, 0x00000020,
        0x00000021, 0x00000022, 0x00000023, 0x00000024, 0x00000025, 0x00000026, 0x00000027, 0x00000028,
        0x00000029, 0x0000002A, 0x0000002B, 0x0000002C, 0x0000002D, 0x0000002E, 0x0000002F, 0x00000030,
        0x00000031, 0x00000032, 0x00000033, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000,
        0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000,
        0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000,
        0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000,
        0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000,
        0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000,
        0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000,
        0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000,
        0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000,
        0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000,
        0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000,
        0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000,
        0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000,
        0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000,
        0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000,
        0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000,
        0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000,
    ]

    private static let alphabet: [UInt8] = Array(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// Each byte's six bits: `alphabet`'s characters and the standard alphabet's `+` and `/`
    /// map to 0...63, every other byte to 0xFF. Written out rather than computed from
    /// `alphabet`, so that the compiler lays it out statically: a computed table is initialised
    /// lazily, and every decode paid a `swift_once` check to reach it (Base64URLTests checks
    /// it against the alphabet).
    static let decodingTable: [UInt8] = [
        0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
        0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
        0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 62, 0xFF, 62, 0xFF, 63,
        52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
        0xFF, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14,
        15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 0xFF, 0xFF, 0xFF, 0xFF, 63,
        0xFF, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40,
        41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
        0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
        0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
        0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
        0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
        0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
        0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
        0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
        0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
    ]
}
