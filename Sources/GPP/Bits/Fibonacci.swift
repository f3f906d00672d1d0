// The GPP's Fibonacci coding: an integer as Zeckendorf bits, least significant first (the bit
// for 1, for 2, for 3, for 5, …), ended by a second 1 (`11`); and Range(Fibonacci), a count
// followed by single ids and groups whose numbers are offsets from the previous id.

import TCF

/// Fibonacci numbers 1, 2, 3, 5, 8, …: the value of each bit of a Fibonacci-coded integer.
private let fibonacci: [Int] = {
    var values = [1, 2]
    while values.count < 64 { values.append(values[values.count - 1] + values[values.count - 2]) }
    return values
}()

/// The longest Fibonacci code read, terminator included: 32 bits reach 5.7 million, far above
/// any id, so a longer code is reported as an id out of range.
private let maximumFibonacciBits = 32

extension BitReader {
    /// Reads one Fibonacci-coded integer (at least 1).
    mutating func readFibonacci(_ field: StaticString) throws(TCFDecodingError) -> Int {
        let start = position
        let word = peek64()
        // Bit k of the code is bit 63 - k of `word`; `word & word << 1` marks each k whose bit
        // and the next are both 1, and the first such k is the last bit before the terminator.
        let pairs = word & (word << 1)
        let last = pairs.leadingZeroBitCount
        // A code that has not ended within the string is truncated; one that runs on past 32
        // bits is a number beyond any id.
        try require(Swift.min(last + 2, maximumFibonacciBits + 1), field)
        guard last + 2 <= maximumFibonacciBits else {
            throw error(.idOutOfRange(id: fibonacci[maximumFibonacciBits - 1] - 1, maxVendorId: IDSet.maxID), field, at: start)
        }
        var bits = word >> UInt64(63 - last) // the code's bits 0...last, bit 0 the most significant
        var value = 0, index = last
        while bits != 0 {
            if bits & 1 == 1 { value += fibonacci[index] }
            bits >>= 1
            index -= 1
        }
        skip(last + 2)
        return value
    }

    /// Reads a Range(Fibonacci): `count` Int(12), then per item a Boolean (group or single), the
    /// offset from the previous id and, for a group, its length. Groups are kept as runs, so a
    /// group of 65,535 ids costs no more memory than its bits.
    mutating func readFibonacciRange(_ field: StaticString) throws(TCFDecodingError) -> IDSet {
        let count = try read(12, field)
        guard count > 0 else { return IDSet() }
        return try withUnsafeTemporaryAllocation(of: UInt32.self, capacity: count) { (runs) throws(TCFDecodingError) in
            var previous = 0
            for index in 0..<count {
                let start = position
                let isGroup = try readBool(field)
                let first = previous + (try readFibonacci(field))
                let last = isGroup ? first + (try readFibonacci(field)) : first
                guard last <= IDSet.maxID else {
                    throw error(.idOutOfRange(id: last, maxVendorId: IDSet.maxID), field, at: start)
                }
                (runs.baseAddress! + index).initialize(to: IDSet.packedRun(first, last))
                previous = last
            }
            return IDSet(packedRuns: runs)
        }
    }

    /// Reads an OptimizedRange: `MaxId` Int(16), a Boolean, then a Range(Fibonacci) (true) or a
    /// bitfield of `MaxId` bits (false).
    mutating func readOptimizedRange(_ field: StaticString) throws(TCFDecodingError) -> IDSet {
        let maxId = try read(16, field)
        return try readBool(field) ? try readFibonacciRange(field) : try readBitfield(maxId, field)
    }
}

extension BitWriter {
    /// Writes `value` (at least 1) Fibonacci-coded.
    mutating func writeFibonacci(_ value: Int) {
        precondition(value >= 1, "Fibonacci coding starts at 1")
        var highest = 0
        while highest + 1 < fibonacci.count, fibonacci[highest + 1] <= value { highest += 1 }
        var rest = value, code = 0
        for index in stride(from: highest, through: 0, by: -1) {
            // Bit `index` of the code goes to bit position `highest - index` from the right end,
            // so that bit 0 is written first.
            if fibonacci[index] <= rest {
                rest -= fibonacci[index]
                code |= 1 << (highest - index)
            }
        }
        write(code << 1 | 1, highest + 2)
    }

    /// Writes `ids` as a Range(Fibonacci): its maximal runs in order, single ids as singles.
    mutating func writeFibonacciRange(_ ids: IDSet) {
        let ranges = ids.ranges
        write(ranges.count, 12)
        var previous = 0
        for range in ranges {
            let isGroup = range.lowerBound != range.upperBound
            write(isGroup)
            writeFibonacci(range.lowerBound - previous)
            if isGroup { writeFibonacci(range.upperBound - range.lowerBound) }
            previous = range.upperBound
        }
    }

    /// Writes `ids` as an OptimizedRange: the Range(Fibonacci) when it takes no more bits than
    /// the bitfield, else the bitfield.
    mutating func writeOptimizedRange(_ ids: IDSet) {
        let maxId = ids.max
        write(maxId, 16)
        if ids.fibonacciRangeBitCount <= maxId {
            write(true)
            writeFibonacciRange(ids)
        } else {
            write(false)
            writeBitfield(ids, count: maxId)
        }
    }
}

extension IDSet {
    /// The bits ``BitWriter/writeFibonacciRange(_:)`` writes for this set.
    var fibonacciRangeBitCount: Int {
        var bits = 12, previous = 0
        for range in ranges {
            bits += 1 + Self.fibonacciBitCount(range.lowerBound - previous)
            if range.lowerBound != range.upperBound { bits += Self.fibonacciBitCount(range.upperBound - range.lowerBound) }
            previous = range.upperBound
        }
        return bits
    }

    /// The bits of `value`'s Fibonacci code, terminator included.
    static func fibonacciBitCount(_ value: Int) -> Int {
        var highest = 0
        while highest + 1 < fibonacci.count, fibonacci[highest + 1] <= value { highest += 1 }
        return highest + 2
    }
}
