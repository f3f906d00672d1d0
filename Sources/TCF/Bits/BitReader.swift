/// Reads big-endian bit fields, most significant bit first, from one decoded segment.
///
/// Every read is checked against the segment's bit count before it happens: a field that would
/// extend past the end throws ``TCFDecodingError/Reason/truncated(needed:available:)`` naming the
/// field and its offset. The buffer carries at least 16 zero bytes past the data, so the checked
/// reads can load whole words without touching memory they do not own.
package struct BitReader {
    package static let slack = 16

    private let bytes: UnsafeBufferPointer<UInt8>
    /// The number of meaningful bits in the segment.
    package let bitCount: Int
    /// Which segment of the string this is (0 = the first), for error messages.
    package let segment: Int
    /// The offset of the next bit to read.
    package private(set) var position = 0

    package init(bytes: UnsafeBufferPointer<UInt8>, bitCount: Int, segment: Int) {
        precondition(bytes.count >= (bitCount + 7) / 8 + BitReader.slack)
        self.bytes = bytes
        self.bitCount = bitCount
        self.segment = segment
    }

    /// The bits left to read.
    package var remaining: Int { bitCount - position }

    /// Reads an unsigned integer of `width` bits (at most 48).
    @inline(__always)
    package mutating func read(_ width: Int, _ field: StaticString) throws(TCFDecodingError) -> Int {
        try require(width, field)
        let value = Int(truncatingIfNeeded: load64(at: position) >> UInt64(64 - width))
        position += width
        return value
    }

    /// Reads one bit as a Boolean.
    @inline(__always)
    package mutating func readBool(_ field: StaticString) throws(TCFDecodingError) -> Bool {
        try read(1, field) == 1
    }

    /// Reads two 6-bit letters (A = 0 … Z = 25) as an upper-case code such as `EN` or `DE`.
    package mutating func readLetters(_ field: StaticString) throws(TCFDecodingError) -> String {
        let start = position
        // Both letters in one read when both are there; two reads otherwise, so that a code cut
        // short is reported as the second letter's truncation, as before.
        let first: Int, second: Int
        if 12 <= bitCount - position {
            let pair = try read(12, field)
            (first, second) = (pair >> 6, pair & 0x3F)
        } else {
            (first, second) = (try read(6, field), try read(6, field))
        }
        guard first < 26, second < 26 else {
            throw TCFDecodingError(
                .invalidLetter(first < 26 ? second : first), field: "\(field)", segment: segment,
                bitOffset: first < 26 ? start + 6 : start)
        }
        return Self.letterPairs[first * 26 + second]
    }

    /// Every code `AA` … `ZZ`, built once: two ASCII letters are a small string (no heap), and
    /// taking one from here costs a load where building it cost about 100 instructions (callgrind).
    private static let letterPairs: [String] = (0..<26 * 26).map { index in
        String(unsafeUninitializedCapacity: 2) { letters in
            letters[0] = UInt8(65 + index / 26)
            letters[1] = UInt8(65 + index % 26)
            return 2
        }
    }

    /// Reads `count` bits as a bitfield in which bit `i` (0-based) stands for id `i + 1`.
    ///
    /// Inlined for the common short field that is all there (a TC string's purposes and special
    /// features, a PublisherTC's): one load and a mask, and no call. Anything else, errors
    /// included, is ``readAnyBitfield(_:_:)``.
    @inline(__always)
    package mutating func readBitfield(_ count: Int, _ field: StaticString) throws(TCFDecodingError) -> IDSet {
        // A count of 0 takes this path too: the mask keeps no bit, the empty set.
        if count >= 0, count < 64, count <= bitCount - position {
            let word = load64(at: position) >> 1 & ~(UInt64.max >> UInt64(count + 1))
            position += count
            return IDSet(word0: word)
        }
        return try readAnyBitfield(count, field)
    }

    /// ``readBitfield(_:_:)`` for any `count`, and the error of a field cut short.
    package mutating func readAnyBitfield(_ count: Int, _ field: StaticString) throws(TCFDecodingError) -> IDSet {
        try require(count, field)
        guard count > 0 else { return IDSet() }
        if count < 64 {
            // Ids 1...count share word 0 with the nonexistent id 0: no storage to allocate.
            let word = load64(at: position) >> 1 & ~(UInt64.max >> UInt64(count + 1))
            position += count
            return IDSet(word0: word)
        }
        // Word 0 holds ids 0...63; id 0 does not exist, so it takes 63 bits, and every later
        // word 64. Bits past the field are masked off the last word.
        let wordCount = count >> 6 + 1
        let start = position
        let set = IDSet(wordCount: wordCount) { words in
            words[0] = load64(at: start) >> 1
            var bit = start + 63
            for index in 1..<wordCount {
                words[index] = load64(at: bit)
                bit += 64
            }
            let usedInLast = (count + 1) & 63
            if usedInLast != 0 { words[wordCount - 1] &= ~(UInt64.max >> UInt64(usedInLast)) }
        }
        position += count
        return set
    }

    /// The next 64 bits, most significant first, without moving. Only the first ``remaining``
    /// of them are the segment's; check that before relying on more.
    @inline(__always)
    package func peek64() -> UInt64 { load64(at: position) }

    /// Moves past `width` bits that ``peek64()`` has read.
    @inline(__always)
    package mutating func skip(_ width: Int) {
        precondition(width <= remaining)
        position += width
    }

    /// Throws unless `width` more bits are available.
    @inline(__always)
    package func require(_ width: Int, _ field: StaticString) throws(TCFDecodingError) {
        guard width <= bitCount - position else {
            throw TCFDecodingError(
                .truncated(needed: width, available: bitCount - position),
                field: "\(field)", segment: segment, bitOffset: position)
        }
    }

    /// The error for a field that was read but holds an invalid value; `offset` is where it starts.
    package func error(_ reason: TCFDecodingError.Reason, _ field: StaticString, at offset: Int) -> TCFDecodingError {
        TCFDecodingError(reason, field: "\(field)", segment: segment, bitOffset: offset)
    }

    /// The 64 bits starting at bit `offset`, most significant first (reads into the slack).
    @inline(__always)
    private func load64(at offset: Int) -> UInt64 {
        let byte = offset >> 3
        let raw = UnsafeRawPointer(bytes.baseAddress! + byte).loadUnaligned(as: UInt64.self)
        let shift = UInt64(offset & 7)
        // No branch for a shift of 0: a byte shifted right by 8 is 0, which `&>>` (no overshift
        // check) gives as well as `>>`. `byte + 8` is within the slack.
        return UInt64(bigEndian: raw) &<< shift | UInt64(bytes[byte &+ 8]) &>> (8 &- shift)
    }
}
