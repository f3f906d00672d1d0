// The id sections every TCF string shares: `MaxVendorId`, an encoding flag, then either a
// bitfield or a list of range entries. One reader and one writer serve v1 vendor consents, the
// v2 vendor consent and legitimate-interest sections, DisclosedVendors, AllowedVendors, and the
// publisher restrictions' vendor lists.

extension BitReader {
    /// Reads a v2 vendor section: `MaxVendorId` (16), `IsRangeEncoding` (1), then a bitfield of
    /// `MaxVendorId` bits or `NumEntries` (12) range entries with ids in `1...MaxVendorId`.
    package mutating func readVendorSection(_ section: StaticString) throws(TCFDecodingError) -> IDSet {
        try prefixingErrors(with: section) { (reader: inout BitReader) throws(TCFDecodingError) in
            let maxVendorId = try reader.read(16, "MaxVendorId")
            if try reader.readBool("IsRangeEncoding") {
                return try reader.readRangeEntries(maxVendorId: maxVendorId)
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
            let listed = try reader.readRangeEntries(maxVendorId: maxVendorId)
            guard defaultConsent else { return (maxVendorId, listed) }
            var all = IDSet.Builder(capacityFor: maxVendorId)
            all.insert(1, through: maxVendorId)
            all.subtract(listed)
            return (maxVendorId, all.build())
        }
    }

    /// Reads `NumEntries` (12) and that many entries: `IsARange` (1), `StartOrOnlyVendorId` (16)
    /// and, for a range, `EndVendorId` (16). With `maxVendorId` nil (publisher restrictions)
    /// ids need only be at least 1.
    ///
    /// The entries are gathered as runs and the set takes whichever form is smaller straight from
    /// them, so that a set never spells out a bitset its entries do not pay for, and a few ranges
    /// under a large `MaxVendorId` cost no bitset on the way (see ``IDSet/Runs``).
    package mutating func readRangeEntries(maxVendorId: Int?) throws(TCFDecodingError) -> IDSet {
        let count = try read(12, "NumEntries")
        guard count > 0 else { return IDSet() }
        // At most 4,095 entries: 16 KB of temporary storage. The set is built from the runs
        // themselves, in whichever form is smaller, without a bitset in between.
        return try withUnsafeTemporaryAllocation(of: UInt32.self, capacity: count) { (runs) throws(TCFDecodingError) in
            for index in 0..<count {
                let entry = try readRangeEntry(maxVendorId: maxVendorId)
                (runs.baseAddress! + index).initialize(to: IDSet.Runs.pack(entry.lowerBound, entry.upperBound))
            }
            return IDSet(packedRuns: runs)
        }
    }

    /// Reads one range entry, an id or a range of ids, each in `1...(maxVendorId ?? IDSet.maxID)`.
    @inline(__always)
    private mutating func readRangeEntry(maxVendorId: Int?) throws(TCFDecodingError) -> ClosedRange<Int> {
        // The common case in one load: a whole entry is there and its ids are valid.
        let upper = maxVendorId ?? IDSet.maxID
        if remaining >= 33 {
            let bits = peek64()
            let start = Int(truncatingIfNeeded: bits >> 47 & 0xFFFF)
            let end = bits >> 63 == 1 ? Int(truncatingIfNeeded: bits >> 31 & 0xFFFF) : start
            if start >= 1, start <= end, end <= upper {
                skip(bits >> 63 == 0 ? 17 : 33)
                return start...end
            }
        }
        return try readRangeEntryFieldByField(maxVendorId: maxVendorId)
    }

    /// ``readRangeEntry(maxVendorId:)`` one field at a time, for the entries whose errors need
    /// the field and offset: a truncated entry, an id out of range, a range ending before it starts.
    private mutating func readRangeEntryFieldByField(maxVendorId: Int?) throws(TCFDecodingError) -> ClosedRange<Int> {
        let upper = maxVendorId ?? IDSet.maxID
        let isRange = try readBool("IsARange")
        let startOffset = position
        let start = try read(16, "StartOrOnlyVendorId")
        guard start >= 1, start <= upper else {
            throw error(.idOutOfRange(id: start, maxVendorId: maxVendorId ?? 0), "StartOrOnlyVendorId", at: startOffset)
        }
        guard isRange else { return start...start }
        let endOffset = position
        let end = try read(16, "EndVendorId")
        guard end >= start else {
            throw error(.rangeEndBeforeStart(start: start, end: end), "EndVendorId", at: endOffset)
        }
        guard end <= upper else {
            throw error(.idOutOfRange(id: end, maxVendorId: upper), "EndVendorId", at: endOffset)
        }
        return start...end
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

extension BitWriter {
    /// Writes a v2 vendor section for `ids`, choosing whichever of bitfield and range encoding
    /// is shorter (the bitfield on a tie). `MaxVendorId` is the largest id in the set.
    package mutating func writeVendorSection(_ ids: IDSet) {
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
        complement.subtract(ids)
        let refused = complement.build()
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
    package mutating func writeRangeEntries(_ ranges: [ClosedRange<Int>]) {
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
    package var rangeEntriesBitCount: Int {
        let (runs, singles) = runCounts
        return 12 + 17 * singles + 33 * (runs - singles)
    }
}
