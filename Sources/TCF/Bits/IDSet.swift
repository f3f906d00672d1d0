/// A set of 1-based ids (vendors, purposes, special features) with O(1) membership.
///
/// Stored as a bitset, one bit per id up to the largest member, so `vendorConsents.contains(755)`
/// is a shift and a mask. Iteration yields the ids in increasing order. Ids live in
/// `1...IDSet.maxID`, the range a TCF 16-bit vendor id can hold.
public struct IDSet: Sendable, Hashable, Sequence, CustomStringConvertible {
    /// The largest id a set can hold: the TCF encodes vendor ids in 16 bits.
    public static let maxID = 65_535

    /// The set's bits, most significant first (the order of the consent string's bitfields),
    /// in one of two forms, so that the small sets a string is full of (purposes, special
    /// features: ids below 64) need no heap storage:
    ///
    /// - `large` empty: id `i` is bit `63 - i` of `small`;
    /// - otherwise (some id is 64 or more): id `i` is bit `63 - i % 64` of `large[i / 64]`,
    ///   trailing zero words are trimmed, and `small` is 0.
    ///
    /// Bit 0 is never set. Each set has exactly one representation, so equal sets have equal
    /// storage and the synthesized `==` and `hash(into:)` are right.
    private var small: UInt64
    private var large: [UInt64]

    /// The empty set.
    public init() {
        small = 0
        large = []
    }

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

    /// The set whose word `i` is `words[i]`, in the canonical form.
    init(words: [UInt64]) {
        var count = words.count
        while count > 0, words[count - 1] == 0 { count -= 1 }
        if count <= 1 {
            small = count == 0 ? 0 : words[0]
            large = []
        } else {
            var trimmed = words
            // In place: the storage is kept, not copied.
            trimmed.removeLast(words.count - count)
            small = 0
            large = trimmed
        }
    }

    /// The set of ids below 64 whose bits are `word0`.
    init(word0: UInt64) {
        small = word0
        large = []
    }

    /// How many 64-bit words the set spans: none when it is empty.
    var wordCount: Int { large.isEmpty ? (small == 0 ? 0 : 1) : large.count }

    /// The word holding ids `64 * index ..< 64 * (index + 1)`; zero past the end.
    @inline(__always)
    func word(_ index: Int) -> UInt64 {
        if large.isEmpty { return index == 0 ? small : 0 }
        return index < large.count ? large[index] : 0
    }

    /// Whether `id` is in the set.
    @inline(__always)
    public func contains(_ id: Int) -> Bool {
        guard id > 0 else { return false }
        return word(id &>> 6) & (1 &<< UInt64(63 - (id & 63))) != 0
    }

    /// Whether the set has no members.
    public var isEmpty: Bool { small == 0 && large.isEmpty }

    /// The number of ids in the set.
    public var count: Int { large.isEmpty ? small.nonzeroBitCount : large.reduce(0) { $0 + $1.nonzeroBitCount } }

    /// The largest id in the set, or 0 when it is empty (the TCF's `MaxVendorId` for it).
    public var max: Int {
        let count = wordCount
        guard count > 0 else { return 0 }
        return (count - 1) * 64 + 63 - word(count - 1).trailingZeroBitCount
    }

    /// The ids as a sorted array.
    public var sorted: [Int] { Array(self) }

    /// The maximal runs of consecutive ids, in increasing order, as the TCF's range entries.
    public var ranges: [ClosedRange<Int>] {
        var result: [ClosedRange<Int>] = []
        var start = 0
        for index in 0..<wordCount {
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
        for index in 0..<wordCount {
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
        let current = word(index)
        // The id before a word's first is the last bit of the previous word, and vice versa.
        let previousLast = index > 0 ? word(index - 1) << 63 : 0
        let nextFirst = word(index + 1) >> 63
        return (current & ~(current >> 1 | previousLast), current & ~(current << 1 | nextFirst))
    }

    /// A short description: the ids as ranges, like `1-4, 9, 755`.
    public var description: String {
        ranges.map { $0.count == 1 ? "\($0.lowerBound)" : "\($0.lowerBound)-\($0.upperBound)" }
            .joined(separator: ", ")
    }

    /// Iterates the ids in increasing order.
    public struct Iterator: IteratorProtocol {
        private let set: IDSet
        private let wordCount: Int
        private var index = 0
        private var current: UInt64

        init(_ set: IDSet) {
            self.set = set
            wordCount = set.wordCount
            current = set.word(0)
        }

        /// The next id, or nil at the end.
        public mutating func next() -> Int? {
            while current == 0 {
                index += 1
                guard index < wordCount else { return nil }
                current = set.word(index)
            }
            let bit = current.leadingZeroBitCount
            current &= ~(1 &<< UInt64(63 - bit))
            return index * 64 + bit
        }
    }

    /// An iterator over the ids in increasing order.
    public func makeIterator() -> Iterator { Iterator(self) }

    /// Collects ids and ranges, then freezes them into an ``IDSet``.
    struct Builder {
        var words: [UInt64] = []

        init() {}

        /// A builder starting from the ids of `set`.
        init(_ set: IDSet) { words = (0..<set.wordCount).map(set.word) }

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
