/// Appends big-endian bit fields, most significant bit first, and emits them as base64url.
package struct BitWriter {
    package private(set) var bytes: [UInt8] = []
    /// Bits not yet flushed to `bytes`, left-aligned in the high `pendingCount` bits.
    private var pending: UInt64 = 0
    private var pendingCount = 0

    package init(capacity: Int = 64) { bytes.reserveCapacity(capacity) }

    /// The number of bits written so far.
    package var bitCount: Int { bytes.count * 8 + pendingCount }

    /// Writes the low `width` bits of `value` (at most 56 bits per call).
    ///
    /// - Precondition: `value` fits in `width` bits; callers check ranges with
    ///   ``TCFEncodingError`` before writing.
    @inline(__always)
    package mutating func write(_ value: Int, _ width: Int) {
        guard width > 0 else { return }
        pending |= (UInt64(truncatingIfNeeded: value) << UInt64(64 - width)) >> UInt64(pendingCount)
        pendingCount += width
        while pendingCount >= 8 {
            bytes.append(UInt8(truncatingIfNeeded: pending >> 56))
            pending <<= 8
            pendingCount -= 8
        }
    }

    /// Writes all 64 bits of `word`, most significant first.
    @inline(__always)
    package mutating func write(word: UInt64) {
        // Fewer than 8 bits are ever pending between calls, so 8 whole bytes are due.
        let out = pending | word >> UInt64(pendingCount)
        withUnsafeBytes(of: out.bigEndian) { bytes.append(contentsOf: $0) }
        pending = pendingCount == 0 ? 0 : word << UInt64(64 - pendingCount)
    }

    /// Writes one bit.
    @inline(__always)
    package mutating func write(_ flag: Bool) { write(flag ? 1 : 0, 1) }

    /// Writes a two-letter code (A = 0 … Z = 25), already validated as upper-case A-Z.
    package mutating func writeLetters(_ code: String) {
        for letter in code.utf8 { write(Int(letter) - 65, 6) }
    }

    /// Writes ids `1...count` of `set` as a bitfield, bit `i` standing for id `i + 1`.
    package mutating func writeBitfield(_ set: IDSet, count: Int) {
        set.withWords { words in
            var remaining = count
            var index = 0
            while remaining > 0 {
                // Word 0 starts at id 0, which the bitfield does not carry.
                let word = index < words.count ? words[index] : 0
                if index > 0, remaining >= 64 {
                    write(word: word)
                    remaining -= 64
                    index += 1
                    continue
                }
                let available = index == 0 ? 63 : 64
                let aligned = index == 0 ? word << 1 : word
                let take = Swift.min(remaining, available)
                // Write in two halves: `write` takes at most 56 bits.
                let high = Swift.min(take, 32)
                write(Int(truncatingIfNeeded: aligned >> 32) >> (32 - high), high)
                if take > 32 {
                    let low = take - 32
                    write(Int(truncatingIfNeeded: aligned & 0xFFFF_FFFF) >> (32 - low), low)
                }
                remaining -= take
                index += 1
            }
        }
    }

    /// The written bits, zero-filled to a multiple of `alignment` bits, as unpadded base64url
    /// (the last character zero-filled when `alignment` is not a multiple of 6).
    ///
    /// The v1.1 spec pads to whole bytes (`alignment` 8). TCF v2 implementations, the IAB's own
    /// among them, pad each segment to 24 bits, so it ends on a whole base64 quantum; the v2.3
    /// spec examples are written that way.
    package func base64URL(alignment: Int = 8) -> String {
        var all = bytes
        if pendingCount > 0 { all.append(UInt8(truncatingIfNeeded: pending >> 56)) }
        let alignedBits = (bitCount + alignment - 1) / alignment * alignment
        all.append(contentsOf: repeatElement(0, count: (alignedBits + 7) / 8 - all.count))
        return Base64URL.encode(all, bitCount: alignedBits)
    }
}
