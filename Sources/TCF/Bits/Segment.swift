/// The `.`-separated parts of a consent string, each base64url-decoded and read bit by bit.
///
/// A segment is decoded into temporary storage (on the stack when it is small) and read right
/// there, so decoding a string allocates nothing for its bytes.
package enum Segment {
    /// Decodes `text` as one segment, dots included (a dot is not in the base64 alphabet), and
    /// runs `body` with a reader positioned at its first bit.
    static func read<R>(
        _ text: Substring, index: Int, _ body: (inout BitReader) throws(TCFDecodingError) -> R
    ) throws(TCFDecodingError) -> R {
        var text = text
        let result = text.withUTF8 { buffer in
            Result { () throws(TCFDecodingError) in try read(buffer, index: index, body) }
        }
        return try result.get()
    }

    /// Decodes one segment's base64 `text` and runs `body` with a reader over the bytes.
    ///
    /// The reader's bit count is the whole bytes the characters carry (the TCF pads to bytes),
    /// or with `everyCharacterBit` six bits per character (GPP pads to six bits only).
    package static func read<R>(
        _ text: UnsafeBufferPointer<UInt8>, index: Int, everyCharacterBit: Bool = false,
        _ body: (inout BitReader) throws(TCFDecodingError) -> R
    ) throws(TCFDecodingError) -> R {
        guard !text.isEmpty else { throw TCFDecodingError(.empty, segment: index, bitOffset: 0) }
        let capacity = Base64URL.decodedCapacity(characters: text.count) + BitReader.slack
        let result = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { bytes in
            Result { () throws(TCFDecodingError) -> R in
                let wholeBytes = try Base64URL.decode(text, into: bytes, segment: index)
                let bitCount = everyCharacterBit ? characterBits(text) : wholeBytes
                var reader = BitReader(bytes: UnsafeBufferPointer(bytes), bitCount: bitCount, segment: index)
                return try body(&reader)
            }
        }
        return try result.get()
    }

    /// ``read(_:index:everyCharacterBit:_:)`` for a body that returns nothing: not generic, so a
    /// caller in another module (GPP) pays no generic metadata lookup per call.
    package static func withReader(
        _ text: UnsafeBufferPointer<UInt8>, index: Int, everyCharacterBit: Bool,
        _ body: (inout BitReader) throws(TCFDecodingError) -> Void
    ) throws(TCFDecodingError) {
        guard !text.isEmpty else { throw TCFDecodingError(.empty, segment: index, bitOffset: 0) }
        let capacity = Base64URL.decodedCapacity(characters: text.count) + BitReader.slack
        var failure: TCFDecodingError?
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { bytes in
            do throws(TCFDecodingError) {
                // Text of the alphabet only (no `=`), the usual case, is decoded as forEach decodes
                // a segment; anything else by the general path, which judges it.
                let run = Base64URL.decodePrefix(text, into: bytes)
                let bitCount: Int
                if run.characters == text.count {
                    UnsafeMutableBufferPointer(rebasing: bytes[run.bytes...]).update(repeating: 0)
                    bitCount = everyCharacterBit ? text.count * 6 : text.count * 6 / 8 * 8
                } else {
                    let wholeBytes = try Base64URL.decode(text, into: bytes, segment: index)
                    bitCount = everyCharacterBit ? characterBits(text) : wholeBytes
                }
                var reader = BitReader(bytes: UnsafeBufferPointer(bytes), bitCount: bitCount, segment: index)
                try body(&reader)
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
    }

    /// Runs `body` with a reader over each `separator`-delimited segment of `text` in turn, its
    /// index first: what ``withReader(_:index:everyCharacterBit:_:)`` does for each segment (the
    /// TCF's whole bytes), found and decoded in one pass.
    ///
    /// Each segment is decoded up to the first character out of the alphabet; when that is the
    /// separator or the text's end, the segment is done and its end found. Anything else (`=`
    /// padding, a bad character, an empty segment) sends the segment to the general path, which
    /// finds its end with ``firstIndex(of:in:from:)`` and decodes it, throwing what it throws.
    /// One buffer, sized for the whole text, serves every segment.
    package static func forEach(
        in text: UnsafeBufferPointer<UInt8>, separator: UInt8,
        _ body: (Int, inout BitReader) throws(TCFDecodingError) -> Void
    ) throws(TCFDecodingError) {
        guard !text.isEmpty else { throw TCFDecodingError(.empty, segment: 0, bitOffset: 0) }
        let capacity = Base64URL.decodedCapacity(characters: text.count) + BitReader.slack
        var failure: TCFDecodingError?
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { buffer in
            do throws(TCFDecodingError) {
                var start = 0, index = 0
                while true {
                    let rest = UnsafeBufferPointer(rebasing: text[start...])
                    let run = Base64URL.decodePrefix(rest, into: buffer)
                    var end = start &+ run.characters
                    let bytes: UnsafeMutableBufferPointer<UInt8>
                    let bitCount: Int
                    if run.characters > 0, end == text.count || text[end] == separator {
                        // The buffer as withReader's would be: its capacity, zeros after the run.
                        bytes = UnsafeMutableBufferPointer(
                            rebasing: buffer[..<(Base64URL.decodedCapacity(characters: run.characters) + BitReader.slack)])
                        UnsafeMutableBufferPointer(rebasing: bytes[run.bytes...]).update(repeating: 0)
                        bitCount = run.characters * 6 / 8 * 8
                    } else {
                        end = firstIndex(of: separator, in: text, from: start)
                        let segment = UnsafeBufferPointer(rebasing: text[start..<end])
                        guard !segment.isEmpty else { throw TCFDecodingError(.empty, segment: index, bitOffset: 0) }
                        bytes = UnsafeMutableBufferPointer(
                            rebasing: buffer[..<(Base64URL.decodedCapacity(characters: segment.count) + BitReader.slack)])
                        bitCount = try Base64URL.decode(segment, into: bytes, segment: index)
                    }
                    var reader = BitReader(bytes: UnsafeBufferPointer(bytes), bitCount: bitCount, segment: index)
                    try body(index, &reader)
                    guard end < text.count else { break }
                    start = end &+ 1
                    index &+= 1
                }
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
    }

    /// Six bits for each character of `text` before any `=` padding.
    package static func characterBits(_ text: UnsafeBufferPointer<UInt8>) -> Int {
        var end = text.count
        while end > 0, text[end - 1] == UInt8(ascii: "=") { end -= 1 }
        return end * 6
    }

    /// The index of the first `separator` byte in `text` at or after `start`, or `text.count`:
    /// the `.` between a consent string's segments, the `~` and `.` of a GPP string.
    ///
    /// Eight bytes at a time: a byte of `word ^ separator×8` is zero exactly where `word` holds
    /// the separator, and `(x - 0x01…01) & ~x & 0x80…80` flags zero bytes; only bytes above a real
    /// zero can be flagged falsely, so the lowest flag is exact.
    package static func firstIndex(of separator: UInt8, in text: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var index = start
        if let base = UnsafeRawPointer(text.baseAddress) {
            let pattern = 0x0101_0101_0101_0101 &* UInt64(separator)
            while index &+ 8 <= text.count {
                let word = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: index, as: UInt64.self)) ^ pattern
                let zeros = (word &- 0x0101_0101_0101_0101) & ~word & 0x8080_8080_8080_8080
                if zeros != 0 { return index &+ zeros.trailingZeroBitCount / 8 }
                index &+= 8
            }
        }
        while index < text.count, text[index] != separator { index += 1 }
        return index
    }
}
