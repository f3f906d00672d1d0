// The id sections every TCF string shares: `MaxVendorId`, an encoding flag, then either a
// bitfield or a list of range entries. One reader and one writer serve v1 vendor consents, the
// v2 vendor consent and legitimate-interest sections, DisclosedVendors, AllowedVendors, and the
// publisher restrictions' vendor lists.

extension BitReader {
    /// Reads a v2 vendor section: `MaxVendorId` (16), `IsRangeEncoding` (1), then a bitfield of
    /// `MaxVendorId` bits or `NumEntries` (12) range entries with ids in `1...MaxVendorId`.
    mutating func readVendorSection(_ section: StaticString) throws(TCFDecodingError) -> IDSet {
        try prefixingErrors(with: section) { (reader: inout BitReader) throws(TCFDecodingError) in
            let maxVendorId = try reader.read(16, "MaxVendorId")
            if try reader.readBool("IsRangeEncoding") {
                var builder = IDSet.Builder(capacityFor: maxVendorId)
                try reader.readRangeEntries(into: &builder, maxVendorId: maxVendorId)
                return builder.build()
            }
            return try reader.readBitfield(maxVendorId, "BitField")
        }
    }

    /// Reads the v1 vendor section: `MaxVendorId` (16), `EncodingType` (1), then a bitfield, or
    /// `DefaultConsent` (1), `NumEntries` (12) and range entries that carry the opposite value.
    mutating func readVersion1VendorSection(_ section: StaticString) throws(TCFDecodingError) -> (maxVendorId: Int, ids: IDSet) {
        try prefixingErrors(with: section) { (reader: inout BitReader) throws(TCFDecodingError) in
            let maxVendorId = try reader.read(16, "MaxVendorId")
            guard try reader.readBool("EncodingType") else {
                return (maxVendorId, try reader.readBitfield(maxVendorId, "BitField"))
            }
            let defaultConsent = try reader.readBool("DefaultConsent")
            var listed = IDSet.Builder(capacityFor: maxVendorId)
            try reader.readRangeEntries(into: &listed, maxVendorId: maxVendorId)
            guard defaultConsent else { return (maxVendorId, listed.build()) }
            var all = IDSet.Builder(capacityFor: maxVendorId)
            all.insert(1, through: maxVendorId)
            return (maxVendorId, all.subtracting(listed).build())
        }
    }

    /// Reads `NumEntries` (12) and that many entries: `IsARange` (1), `StartOrOnlyVendorId` (16)
    /// and, for a range, `EndVendorId` (16). With `maxVendorId` nil (publisher restrictions)
    /// ids need only be at least 1.
    mutating func readRangeEntries(into builder: inout IDSet.Builder, maxVendorId: Int?) throws(TCFDecodingError) {
        let count = try read(12, "NumEntries")
        let upper = maxVendorId ?? IDSet.maxID
        for _ in 0..<count {
            let isRange = try readBool("IsARange")
            let startOffset = position
            let start = try read(16, "StartOrOnlyVendorId")
            guard start >= 1, start <= upper else {
                throw error(.idOutOfRange(id: start, maxVendorId: maxVendorId ?? 0), "StartOrOnlyVendorId", at: startOffset)
            }
            guard isRange else {
                builder.insert(start)
                continue
            }
            let endOffset = position
            let end = try read(16, "EndVendorId")
            guard end >= start else {
                throw error(.rangeEndBeforeStart(start: start, end: end), "EndVendorId", at: endOffset)
            }
            guard end <= upper else {
                throw error(.idOutOfRange(id: end, maxVendorId: upper), "EndVendorId", at: endOffset)
            }
            builder.insert(start, through: end)
        }
    }

    /// Runs `body`, prefixing the field of any error it throws with `section` and a dot.
    private mutating func prefixingErrors<T>(
        with section: StaticString, _ body: (inout BitReader) throws(TCFDecodingError) -> T
    ) throws(TCFDecodingError) -> T {
        do {
            return try body(&self)
        } catch {
            var error = error
            error.field = "\(section).\(error.field)"
            throw error
        }
    }
}

extension IDSet.Builder {
    /// Removes every id of `other` from this builder.
    func subtracting(_ other: IDSet.Builder) -> IDSet.Builder {
        var result = self
        for index in 0..<Swift.min(result.words.count, other.words.count) {
            result.words[index] &= ~other.words[index]
        }
        return result
    }
}

extension BitWriter {
    /// Writes a v2 vendor section for `ids`, choosing whichever of bitfield and range encoding
    /// is shorter (the bitfield on a tie). `MaxVendorId` is the largest id in the set.
    mutating func writeVendorSection(_ ids: IDSet) {
        let maxVendorId = ids.max
        write(maxVendorId, 16)
        if ids.rangeEntriesBitCount < maxVendorId {
            write(true)
            writeRangeEntries(ids.ranges)
        } else {
            write(false)
            writeBitfield(ids, count: maxVendorId)
        }
    }

    /// Writes the v1 vendor section for `ids` below `maxVendorId`, choosing the shortest of the
    /// bitfield, ranges of consented vendors (`DefaultConsent` 0) and ranges of the vendors
    /// without consent (`DefaultConsent` 1). Ties prefer the bitfield, then `DefaultConsent` 0.
    mutating func writeVersion1VendorSection(_ ids: IDSet, maxVendorId: Int) {
        write(maxVendorId, 16)
        var complement = IDSet.Builder(capacityFor: maxVendorId)
        complement.insert(1, through: maxVendorId)
        let refused = complement.subtracting(IDSet.Builder(ids)).build()
        let consentedBits = 1 + ids.rangeEntriesBitCount
        let refusedBits = 1 + refused.rangeEntriesBitCount
        if maxVendorId <= Swift.min(consentedBits, refusedBits) {
            write(false)
            writeBitfield(ids, count: maxVendorId)
        } else {
            write(true)
            let defaultConsent = refusedBits < consentedBits
            write(defaultConsent)
            writeRangeEntries(defaultConsent ? refused.ranges : ids.ranges)
        }
    }

    /// Writes `NumEntries` and one entry per range.
    mutating func writeRangeEntries(_ ranges: [ClosedRange<Int>]) {
        write(ranges.count, 12)
        for range in ranges {
            let isRange = range.lowerBound != range.upperBound
            write(isRange)
            write(range.lowerBound, 16)
            if isRange { write(range.upperBound, 16) }
        }
    }

}

extension IDSet {
    /// The bits `writeRangeEntries` takes for the set's ``ranges``: `NumEntries`, then 17 bits
    /// per single id and 33 per range.
    var rangeEntriesBitCount: Int {
        let (runs, singles) = runCounts
        return 12 + 17 * singles + 33 * (runs - singles)
    }
}
