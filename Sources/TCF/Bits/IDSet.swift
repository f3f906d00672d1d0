/// A set of 1-based ids (vendors, purposes, special features) with O(1) membership.
///
/// Stored as a bitset, one bit per id up to the largest member, so `vendorConsents.contains(755)`
/// is a shift and a mask. Iteration yields the ids in increasing order. Ids live in
/// `1...IDSet.maxID`, the range a TCF 16-bit vendor id can hold.
public struct IDSet: Sendable, Hashable, Sequence, CustomStringConvertible {
    /// The largest id a set can hold: the TCF encodes vendor ids in 16 bits.
    public static let maxID = 65_535

    /// Bit `id` of the set is bit `63 - id % 64` of `words[id / 64]` (most significant first,
    /// the same order as the consent string's bitfields). Bit 0 is never set. Trailing zero
    /// words are trimmed, so equal sets have equal storage.
    var words: [UInt64]

    /// The empty set.
    public init() { words = [] }

    /// A set holding the given ids.
    ///
    /// - Precondition: every id is in `1...IDSet.maxID`; validate untrusted input first.
    public init<S: Sequence>(_ ids: S) where S.Element == Int {
        var builder = Builder()
        for id in ids {
            precondition(id >= 1 && id <= IDSet.maxID, "IDSet ids must be in 1...\(IDSet.maxID), got \(id)")
            builder.insert(id)
        }
        self = builder.build()
    }

    init(words: [UInt64]) {
        self.words = words
        trimTrailingZeroWords()
    }

    /// Whether `id` is in the set.
    @inline(__always)
    public func contains(_ id: Int) -> Bool {
        let index = id &>> 6
        guard id > 0, index < words.count else { return false }
        return words[index] & (1 &<< UInt64(63 - (id & 63))) != 0
    }

    /// Whether the set has no members.
    public var isEmpty: Bool { words.isEmpty }

    /// The number of ids in the set.
    public var count: Int { words.reduce(0) { $0 + $1.nonzeroBitCount } }

    /// The largest id in the set, or 0 when it is empty (the TCF's `MaxVendorId` for it).
    public var max: Int {
        guard let last = words.last else { return 0 }
        return (words.count - 1) * 64 + 63 - last.trailingZeroBitCount
    }

    /// The ids as a sorted array.
    public var sorted: [Int] { Array(self) }

    /// The maximal runs of consecutive ids, in increasing order, as the TCF's range entries.
    public var ranges: [ClosedRange<Int>] {
        var result: [ClosedRange<Int>] = []
        var start = 0
        for index in words.indices {
            var (starts, ends) = edges(ofWord: index)
            // Take the edges in id order (most significant bit first); a single id is both a
            // start and an end, and its start comes first.
            while starts | ends != 0 {
                let nextStart = starts.leadingZeroBitCount, nextEnd = ends.leadingZeroBitCount
                if nextStart <= nextEnd {
                    start = index * 64 + nextStart
                    starts &= ~(1 &<< UInt64(63 - nextStart))
                } else {
                    result.append(start...(index * 64 + nextEnd))
                    ends &= ~(1 &<< UInt64(63 - nextEnd))
                }
            }
        }
        return result
    }

    /// How many runs ``ranges`` holds and how many of them are a single id, counted without
    /// building them: what choosing between bitfield and range encoding needs.
    var runCounts: (runs: Int, singles: Int) {
        var runs = 0, singles = 0
        for index in words.indices {
            let (starts, ends) = edges(ofWord: index)
            runs &+= starts.nonzeroBitCount
            singles &+= (starts & ends).nonzeroBitCount
        }
        return (runs, singles)
    }

    /// The ids of word `index` that start a run (the id before is absent) and that end one (the
    /// id after is absent), as masks in the word's bit order.
    @inline(__always)
    private func edges(ofWord index: Int) -> (starts: UInt64, ends: UInt64) {
        let word = words[index]
        // The id before a word's first is the last bit of the previous word, and vice versa.
        let previousLast = index > 0 ? words[index - 1] << 63 : 0
        let nextFirst = index + 1 < words.count ? words[index + 1] >> 63 : 0
        return (word & ~(word >> 1 | previousLast), word & ~(word << 1 | nextFirst))
    }

    /// A short description: the ids as ranges, like `1-4, 9, 755`.
    public var description: String {
        ranges.map { $0.count == 1 ? "\($0.lowerBound)" : "\($0.lowerBound)-\($0.upperBound)" }
            .joined(separator: ", ")
    }

    /// Iterates the ids in increasing order.
    public struct Iterator: IteratorProtocol {
        private let words: [UInt64]
        private var index = 0
        private var current: UInt64

        init(words: [UInt64]) {
            self.words = words
            current = words.first ?? 0
        }

        /// The next id, or nil at the end.
        public mutating func next() -> Int? {
            while current == 0 {
                index += 1
                guard index < words.count else { return nil }
                current = words[index]
            }
            let bit = current.leadingZeroBitCount
            current &= ~(1 &<< UInt64(63 - bit))
            return index * 64 + bit
        }
    }

    /// An iterator over the ids in increasing order.
    public func makeIterator() -> Iterator { Iterator(words: words) }

    /// The capacity of the set's storage in bytes (for memory accounting).
    var storageByteCount: Int { words.capacity * 8 }

    private mutating func trimTrailingZeroWords() {
        while let last = words.last, last == 0 { words.removeLast() }
    }

    /// Collects ids and ranges, then freezes them into an ``IDSet``.
    struct Builder {
        var words: [UInt64] = []

        init() {}

        /// A builder starting from the ids of `set`.
        init(_ set: IDSet) { words = set.words }

        /// Allocates storage for ids up to `maxID` at once, so inserting them never grows it.
        init(capacityFor maxID: Int) {
            words = [UInt64](repeating: 0, count: maxID / 64 + 1)
        }

        mutating func insert(_ id: Int) {
            grow(toHold: id)
            words[id >> 6] |= 1 &<< UInt64(63 - (id & 63))
        }

        /// Inserts every id in `first...last`.
        mutating func insert(_ first: Int, through last: Int) {
            guard first <= last else { return }
            grow(toHold: last)
            let firstWord = first >> 6, lastWord = last >> 6
            let head = UInt64.max >> UInt64(first & 63)
            let tail = UInt64.max << UInt64(63 - (last & 63))
            if firstWord == lastWord {
                words[firstWord] |= head & tail
                return
            }
            words[firstWord] |= head
            for index in (firstWord + 1)..<lastWord { words[index] = .max }
            words[lastWord] |= tail
        }

        private mutating func grow(toHold id: Int) {
            let needed = id >> 6 + 1
            // A plain loop: `append(contentsOf: repeatElement(…))` cost more than the inserts.
            while words.count < needed { words.append(0) }
        }

        func build() -> IDSet { IDSet(words: words) }
    }
}

extension IDSet: ExpressibleByArrayLiteral {
    /// A set holding the listed ids.
    public init(arrayLiteral elements: Int...) { self.init(elements) }
}
