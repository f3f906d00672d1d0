/// A set of 1-based ids (vendors, purposes, special features) with fast membership.
///
/// Stored as a bitset, one bit per id up to the largest member, so `vendorConsents.contains(755)`
/// is a shift and a mask; or, when the set is a few long runs of ids, as the list of those runs,
/// so that `1-65535`, which a consent string writes in 33 bits, takes 4 bytes and not 8 KB. The
/// set's memory is thereby bounded by the bits it was decoded from, whatever the string.
/// Iteration yields the ids in increasing order. Ids live in `1...IDSet.maxID`, the range a TCF
/// 16-bit vendor id can hold.
public struct IDSet: Sendable, Hashable, Sequence, CustomStringConvertible {
    /// The largest id a set can hold: the TCF encodes vendor ids in 16 bits.
    public static let maxID = 65_535

    /// The set's ids in one of three forms, so that the small sets a string is full of
    /// (purposes, special features: ids below 64) need no heap storage, and a set of long runs
    /// needs little:
    ///
    /// - `storage` nil: id `i` is bit `63 - i` of `small` (most significant first, the order of
    ///   the consent string's bitfields);
    /// - `storage` a ``Words`` (`small` is 0; some id is 64 or more): id `i` is bit
    ///   `63 - i % 64` of word `i / 64`; at least two words and no trailing zero word;
    /// - `storage` a ``Runs`` (`small` is 1; some id is 64 or more, and
    ///   ``Runs/isPreferred(runCount:wordCount:)`` holds for the set's maximal runs and the words
    ///   a bitset would take): the maximal runs in increasing order.
    ///
    /// One reference, not one per form: copying a set retains one object. Bit 0 is never set.
    /// The form follows from the ids alone, so each set has exactly one representation, and `==`
    /// and `hash(into:)` compare the stored words or runs and nothing else.
    private let small: UInt64
    // Unchecked: `Words` and `Runs` cannot be `Sendable` (no `ManagedBuffer` is), but a set's
    // storage never changes once it holds it, so sharing it between threads is safe.
    nonisolated(unsafe) private let storage: AnyObject?

    /// The bitset's words, when the set is held as a bitset of two words or more.
    @inline(__always)
    private var large: Words? {
        guard let storage, small == 0 else { return nil }
        return unsafeDowncast(storage, to: Words.self)
    }

    /// The runs, when the set is held as runs.
    @inline(__always)
    private var runs: Runs? {
        guard let storage, small != 0 else { return nil }
        return unsafeDowncast(storage, to: Runs.self)
    }

    /// The empty set.
    public init() {
        self.init(small: 0, large: nil, runs: nil)
    }

    /// The set with exactly this storage (at most one of them), which must be in the canonical form.
    private init(small: UInt64, large: Words?, runs: Runs?) {
        if let runs {
            self.small = 1
            storage = runs
        } else {
            self.small = small
            storage = large
        }
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
        self.init(wordCount: words.count) { destination in
            words.withUnsafeBufferPointer { destination.initialize(from: $0.baseAddress!, count: words.count) }
        }
    }

    /// The set whose `wordCount` words `fill` initialises, every one of them, in the canonical form.
    init(wordCount: Int, fill: (UnsafeMutablePointer<UInt64>) -> Void) {
        guard wordCount > 0 else {
            self.init()
            return
        }
        let storage = Words.make(count: wordCount)
        storage.withUnsafeMutablePointerToElements(fill)
        self.init(canonicalizing: storage)
    }

    /// The set of ids below 64 whose bits are `word0`.
    init(word0: UInt64) {
        self.init(small: word0, large: nil, runs: nil)
    }

    /// Takes `storage`, which nothing else refers to, into the canonical form: trailing zero
    /// words trimmed, the inline form when one word is left, and the runs when they are the
    /// smaller form.
    private init(canonicalizing storage: Words) {
        let count = storage.withUnsafeMutablePointerToElements { words in
            var count = storage.count
            while count > 0, words[count - 1] == 0 { count -= 1 }
            return count
        }
        if count <= 1 {
            self.init(word0: count == 0 ? 0 : storage[0])
            return
        }
        storage.count = count
        if let runs = storage.withUnsafeMutablePointerToElements({ Runs.ifSmaller(than: UnsafeBufferPointer(start: $0, count: count)) }) {
            self.init(small: 0, large: nil, runs: runs)
        } else {
            self.init(small: 0, large: storage, runs: nil)
        }
    }

    /// The set of the ids in `runs`: packed runs (``Runs/pack(_:_:)``) of ids in
    /// `1...IDSet.maxID`, in any order, overlapping or not. Sorts and merges them in place.
    package init(packedRuns runs: UnsafeMutableBufferPointer<UInt32>) {
        let count = Runs.merge(runs)
        guard count > 0 else {
            self.init()
            return
        }
        let merged = UnsafeBufferPointer(rebasing: runs[..<count])
        let wordCount = Runs.last(merged[count - 1]) >> 6 + 1
        if wordCount == 1 {
            var word: UInt64 = 0
            for run in merged { word |= Self.bits(Runs.first(run), through: Runs.last(run)) }
            self.init(word0: word)
        } else if Runs.isPreferred(runCount: count, wordCount: wordCount) {
            self.init(small: 0, large: nil, runs: Runs.make(copying: merged))
        } else {
            let storage = Words.make(count: wordCount)
            storage.withUnsafeMutablePointerToElements { words in
                words.initialize(repeating: 0, count: wordCount)
                for run in merged { Self.insert(Runs.first(run), through: Runs.last(run), into: words) }
            }
            self.init(small: 0, large: storage, runs: nil)
        }
    }

    /// How many 64-bit words the set spans: none when it is empty.
    var wordCount: Int {
        if let large { return large.count }
        if let runs { return runs.max >> 6 + 1 }
        return small == 0 ? 0 : 1
    }

    /// The word holding ids `64 * index ..< 64 * (index + 1)`; zero past the end.
    @inline(__always)
    func word(_ index: Int) -> UInt64 {
        if let large { return index < large.count ? large[index] : 0 }
        if let runs { return runs.word(index) }
        return index == 0 ? small : 0
    }

    /// Calls `body` with the set's ``wordCount`` words: what a loop over all of them should
    /// use rather than ``word(_:)``, which looks up the storage on every call. A set of runs
    /// spells its words out in temporary storage for the call.
    @inline(__always)
    func withWords<R>(_ body: (UnsafeBufferPointer<UInt64>) -> R) -> R {
        if let large {
            return large.withUnsafeMutablePointerToElements { body(UnsafeBufferPointer(start: $0, count: large.count)) }
        }
        if let runs {
            let count = wordCount
            return withUnsafeTemporaryAllocation(of: UInt64.self, capacity: count) { words in
                let base = words.baseAddress!
                base.initialize(repeating: 0, count: count)
                runs.forEachRun { first, last in Self.insert(first, through: last, into: base) }
                return body(UnsafeBufferPointer(words))
            }
        }
        return withUnsafePointer(to: small) { body(UnsafeBufferPointer(start: $0, count: small == 0 ? 0 : 1)) }
    }

    /// The bytes the set holds on the heap, beyond its inline ``MemoryLayout`` size: the
    /// allocation of its words or runs, header included, as allocated (``ManagedBuffer/capacity``).
    var heapBytes: Int {
        if let large { return Words.allocationSize(capacity: large.capacity, elementSize: 8) }
        if let runs { return Words.allocationSize(capacity: runs.capacity, elementSize: 4) }
        return 0
    }

    /// The mask of ids `first...last` within one word (both in the same word).
    @inline(__always)
    private static func bits(_ first: Int, through last: Int) -> UInt64 {
        (UInt64.max >> UInt64(first & 63)) & (UInt64.max << UInt64(63 - (last & 63)))
    }

    /// Sets the bits of ids `first...last` in `words`, which spans them.
    @inline(__always)
    static func insert(_ first: Int, through last: Int, into words: UnsafeMutablePointer<UInt64>) {
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

    /// Whether `id` is in the set.
    @inline(__always)
    public func contains(_ id: Int) -> Bool {
        guard id > 0 else { return false }
        return word(id &>> 6) & (1 &<< UInt64(63 - (id & 63))) != 0
    }

    /// Whether the set has no members.
    public var isEmpty: Bool { small == 0 && storage == nil }

    /// The number of ids in the set.
    public var count: Int {
        if let runs { return runs.idCount }
        guard large != nil else { return small.nonzeroBitCount }
        return withWords { words in words.reduce(0) { $0 &+ $1.nonzeroBitCount } }
    }

    /// Whether two sets hold the same ids.
    public static func == (lhs: IDSet, rhs: IDSet) -> Bool {
        // One representation per set: the same inline word, the same words in storage, or the
        // same runs (`small` tells the forms apart).
        guard lhs.small == rhs.small, (lhs.storage == nil) == (rhs.storage == nil) else { return false }
        if let left = lhs.runs, let right = rhs.runs { return left === right || left.elementsEqual(right) }
        guard lhs.wordCount == rhs.wordCount else { return false }
        guard let left = lhs.large, let right = rhs.large, left !== right else { return true }
        return lhs.withWords { left in rhs.withWords { right in left.elementsEqual(right) } }
    }

    /// Hashes the set's words, or its runs.
    public func hash(into hasher: inout Hasher) {
        if let runs {
            hasher.combine(-runs.count)
            runs.withUnsafeMutablePointerToElements { hasher.combine(bytes: UnsafeRawBufferPointer(start: $0, count: runs.count * 4)) }
            return
        }
        hasher.combine(wordCount)
        withWords { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }

    /// The largest id in the set, or 0 when it is empty (the TCF's `MaxVendorId` for it).
    public var max: Int {
        if let runs { return runs.max }
        let count = wordCount
        guard count > 0 else { return 0 }
        return (count - 1) * 64 + 63 - word(count - 1).trailingZeroBitCount
    }

    /// The ids as a sorted array, read a word at a time into an array allocated once.
    public var sorted: [Int] {
        var result: [Int] = []
        result.reserveCapacity(count)
        withWords { words in
            for (index, word) in words.enumerated() {
                var rest = word
                while rest != 0 {
                    let bit = rest.leadingZeroBitCount
                    result.append(index &* 64 &+ bit)
                    rest &= ~(1 &<< UInt64(63 - bit))
                }
            }
        }
        return result
    }

    /// The maximal runs of consecutive ids, in increasing order, as the TCF's range entries.
    public var ranges: [ClosedRange<Int>] {
        if let runs {
            var result: [ClosedRange<Int>] = []
            result.reserveCapacity(runs.count)
            runs.forEachRun { first, last in result.append(first...last) }
            return result
        }
        return withWords { words in
            var result: [ClosedRange<Int>] = []
            var start = 0
            for index in words.indices {
                var (starts, ends) = Self.edges(of: words, at: index)
                // Take the edges in id order (most significant bit first); a single id is both
                // a start and an end, and its start comes first.
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
    }

    /// How many runs ``ranges`` holds and how many of them are a single id, counted without
    /// building them: what choosing between bitfield and range encoding needs.
    package var runCounts: (runs: Int, singles: Int) {
        if let runs {
            var singles = 0
            runs.forEachRun { first, last in if first == last { singles &+= 1 } }
            return (runs.count, singles)
        }
        return withWords { words in
            var runs = 0, singles = 0
            for index in words.indices {
                let (starts, ends) = Self.edges(of: words, at: index)
                runs &+= starts.nonzeroBitCount
                singles &+= (starts & ends).nonzeroBitCount
            }
            return (runs, singles)
        }
    }

    /// The ids of `words[index]` that start a run (the id before is absent) and that end one
    /// (the id after is absent), as masks in the word's bit order.
    @inline(__always)
    static func edges(of words: UnsafeBufferPointer<UInt64>, at index: Int) -> (starts: UInt64, ends: UInt64) {
        let current = words[index]
        // The id before a word's first is the last bit of the previous word, and vice versa.
        let previousLast = index > 0 ? words[index - 1] << 63 : 0
        let nextFirst = index + 1 < words.count ? words[index + 1] >> 63 : 0
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

    /// The number of ids, so that `Array(set)` allocates once.
    public var underestimatedCount: Int { count }

    /// Collects ids and ranges, then freezes them into an ``IDSet`` that takes over its storage.
    ///
    /// Noncopyable, so the storage it writes to has one owner until ``build()`` hands it on.
    struct Builder: ~Copyable {
        /// The words so far: `count` of them in use, `capacity` allocated. The counts live
        /// here rather than in the storage so that the checks of an insert do not touch it.
        private var storage: Words?
        private var count = 0
        private var capacity = 0

        /// An empty builder; its storage grows as ids arrive.
        init() {}

        /// Allocates storage for ids up to `maxID` at once, so inserting them never grows it
        /// (none for a `maxID` below 1).
        init(capacityFor maxID: Int) {
            if maxID > 0 { grow(toCount: maxID >> 6 + 1) }
        }

        mutating func insert(_ id: Int) {
            if id >> 6 >= count { grow(toCount: id >> 6 + 1) }
            storage.unsafelyUnwrapped.withUnsafeMutablePointerToElements { words in
                words[id >> 6] |= 1 &<< UInt64(63 - (id & 63))
            }
        }

        /// Inserts every id in `first...last`.
        mutating func insert(_ first: Int, through last: Int) {
            guard first <= last else { return }
            if last >> 6 >= count { grow(toCount: last >> 6 + 1) }
            storage.unsafelyUnwrapped.withUnsafeMutablePointerToElements { IDSet.insert(first, through: last, into: $0) }
        }

        /// Removes every id of `other`.
        mutating func subtract(_ other: IDSet) {
            guard let storage else { return }
            let shared = Swift.min(count, other.wordCount)
            storage.withUnsafeMutablePointerToElements { words in
                for index in 0..<shared { words[index] &= ~other.word(index) }
            }
        }

        /// Zero-fills words up to `newCount`, moving to storage twice the size when they do
        /// not fit.
        private mutating func grow(toCount newCount: Int) {
            let used = count
            if newCount > capacity {
                capacity = Swift.max(newCount, 2 * capacity)
                let grown = Words.make(count: 0, capacity: capacity)
                if let storage {
                    grown.withUnsafeMutablePointerToElements { words in
                        storage.withUnsafeMutablePointerToElements { words.initialize(from: $0, count: used) }
                    }
                }
                storage = grown
            }
            storage.unsafelyUnwrapped.withUnsafeMutablePointerToElements {
                ($0 + used).initialize(repeating: 0, count: newCount - used)
            }
            count = newCount
        }

        /// The set of the ids inserted; the builder's storage becomes the set's.
        consuming func build() -> IDSet {
            guard let storage else { return IDSet() }
            storage.count = count
            return IDSet(canonicalizing: storage)
        }
    }

    /// The heap storage of a large set: the number of words in use, then the words, in one
    /// allocation.
    ///
    /// A final, non-generic class: on Linux, allocating an `[UInt64]` looks up the generic
    /// metadata of its storage class every time, a cost larger than filling a small set. Only a
    /// ``Builder`` writes to one, while it is the only owner; once an ``IDSet`` holds it, it
    /// never changes.
    final class Words: ManagedBuffer<Int, UInt64> {
        /// New storage with `count` words in use, room for `capacity`, none of them initialised.
        static func make(count: Int, capacity: Int? = nil) -> Words {
            unsafeDowncast(create(minimumCapacity: capacity ?? count) { _ in count }, to: Words.self)
        }

        /// The number of words in use. Through the header's pointer: the `header` property is
        /// a class's stored property, whose every access pays a dynamic exclusivity check.
        var count: Int {
            @inline(__always) get { withUnsafeMutablePointerToHeader { $0.pointee } }
            @inline(__always) set { withUnsafeMutablePointerToHeader { $0.pointee = newValue } }
        }

        /// Word `index`, which must be below the count in use.
        @inline(__always)
        subscript(index: Int) -> UInt64 { withUnsafeMutablePointerToElements { $0[index] } }

        /// The bytes a `ManagedBuffer` of `capacity` elements of `elementSize` bytes and an
        /// `Int` header takes: the object header (metadata and reference counts, two words),
        /// the header, the elements.
        static func allocationSize(capacity: Int, elementSize: Int) -> Int {
            2 * MemoryLayout<Int>.size + MemoryLayout<Int>.size + capacity * elementSize
        }
    }
}

extension IDSet: ExpressibleByArrayLiteral {
    /// A set holding the listed ids.
    public init(arrayLiteral elements: Int...) { self.init(elements) }
}
