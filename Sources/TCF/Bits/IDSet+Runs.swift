extension IDSet {
    /// The heap storage of a set held as runs: the number of runs, then the runs, each packed
    /// into 32 bits (``pack(_:_:)``), sorted, disjoint and not adjacent (the set's maximal runs).
    ///
    /// The form a set of few long runs takes: a publisher restriction of vendors `1-65535`, 33
    /// bits of its string, is one run of 4 bytes rather than a bitset of 8 KB, so what a string
    /// decodes into stays proportional to its length. Like ``Words``, written only before an
    /// ``IDSet`` holds it.
    final class Runs: ManagedBuffer<Int, UInt32> {
        /// Whether a set of `runCount` maximal runs that a bitset would hold in `wordCount`
        /// (at least 2) words is held as runs: when they take at most a quarter of the bitset's
        /// bytes (4 bytes a run, 8 a word). So a set held as a bitset takes less than 16 bytes
        /// a run, and one held as runs 4 bytes a run: either way at most 16 bytes for each range
        /// entry (17 or 33 bits) or 64 bitfield bits of the string it came from. Deciding by the
        /// ids alone keeps one representation per set.
        @inline(__always)
        static func isPreferred(runCount: Int, wordCount: Int) -> Bool {
            2 * runCount <= wordCount
        }

        /// The run `first...last` in 32 bits: `first` in the high half, `last` in the low one, so
        /// packed runs sort by their first id. Both ids are in `1...IDSet.maxID`.
        @inline(__always)
        static func pack(_ first: Int, _ last: Int) -> UInt32 {
            UInt32(truncatingIfNeeded: first) << 16 | UInt32(truncatingIfNeeded: last)
        }

        /// The first id of a packed run.
        @inline(__always)
        static func first(_ run: UInt32) -> Int { Int(run >> 16) }

        /// The last id of a packed run.
        @inline(__always)
        static func last(_ run: UInt32) -> Int { Int(run & 0xFFFF) }

        /// Sorts the packed runs in `runs` (unless they already are) and merges the overlapping
        /// and adjacent ones into the first elements; returns how many runs that leaves.
        static func merge(_ runs: UnsafeMutableBufferPointer<UInt32>) -> Int {
            guard runs.count > 1 else { return runs.count }
            // Entries come in increasing order in every string seen; sort only the others.
            for index in 1..<runs.count where runs[index] < runs[index - 1] {
                var unsorted = runs
                unsorted.sort()
                break
            }
            var kept = 0
            for index in 1..<runs.count {
                let run = runs[index]
                if first(run) <= last(runs[kept]) + 1 {
                    if last(run) > last(runs[kept]) { runs[kept] = pack(first(runs[kept]), last(run)) }
                } else {
                    kept += 1
                    runs[kept] = run
                }
            }
            return kept + 1
        }

        /// Storage holding a copy of `runs`, which are maximal runs in increasing order.
        static func make(copying runs: UnsafeBufferPointer<UInt32>) -> Runs {
            let storage = unsafeDowncast(create(minimumCapacity: runs.count) { _ in runs.count }, to: Runs.self)
            storage.withUnsafeMutablePointerToElements { $0.initialize(from: runs.baseAddress!, count: runs.count) }
            return storage
        }

        /// The runs of the bitset `words` (at least 2 words, the last not zero) as storage, if
        /// ``isPreferred(runCount:wordCount:)`` holds for them; nil when the bitset stays.
        static func ifSmaller(than words: UnsafeBufferPointer<UInt64>) -> Runs? {
            // Count first, and stop as soon as there are too many for the runs to be preferred:
            // a dense set, the common case, costs a few words' look.
            var runCount = 0
            for index in words.indices {
                runCount &+= IDSet.edges(of: words, at: index).starts.nonzeroBitCount
                if !isPreferred(runCount: runCount, wordCount: words.count) { return nil }
            }
            let storage = unsafeDowncast(create(minimumCapacity: runCount) { _ in runCount }, to: Runs.self)
            storage.withUnsafeMutablePointerToElements { runs in
                var written = 0, start = 0
                for index in words.indices {
                    var (starts, ends) = IDSet.edges(of: words, at: index)
                    // In id order; a single id is both a start and an end, its start first.
                    while starts | ends != 0 {
                        let nextStart = starts.leadingZeroBitCount, nextEnd = ends.leadingZeroBitCount
                        if nextStart <= nextEnd {
                            start = index * 64 + nextStart
                            starts &= ~(1 &<< UInt64(63 - nextStart))
                        } else {
                            (runs + written).initialize(to: pack(start, index * 64 + nextEnd))
                            written += 1
                            ends &= ~(1 &<< UInt64(63 - nextEnd))
                        }
                    }
                }
            }
            return storage
        }

        /// The number of runs.
        var count: Int { withUnsafeMutablePointerToHeader { $0.pointee } }

        /// The largest id: the end of the last run.
        var max: Int { withUnsafeMutablePointerToElements { Runs.last($0[count - 1]) } }

        /// The number of ids in all runs.
        var idCount: Int {
            var total = 0
            forEachRun { first, last in total &+= last - first + 1 }
            return total
        }

        /// Calls `body` with the first and last id of each run, in increasing order.
        @inline(__always)
        func forEachRun(_ body: (Int, Int) -> Void) {
            let count = self.count
            withUnsafeMutablePointerToElements { runs in
                for index in 0..<count { body(Runs.first(runs[index]), Runs.last(runs[index])) }
            }
        }

        /// Whether both hold the same runs.
        func elementsEqual(_ other: Runs) -> Bool {
            let count = self.count
            guard count == other.count else { return false }
            return withUnsafeMutablePointerToElements { left in
                other.withUnsafeMutablePointerToElements { right in
                    UnsafeBufferPointer(start: left, count: count).elementsEqual(UnsafeBufferPointer(start: right, count: count))
                }
            }
        }

        /// The bitset word holding ids `64 * index ..< 64 * (index + 1)`: the runs that reach
        /// into it, found by binary search.
        func word(_ index: Int) -> UInt64 {
            let low = index << 6, high = low + 63
            let count = self.count
            return withUnsafeMutablePointerToElements { runs in
                // The first run ending at or after `low` (ends increase with the runs).
                var lower = 0, upper = count
                while lower < upper {
                    let middle = (lower + upper) >> 1
                    if Runs.last(runs[middle]) < low { lower = middle + 1 } else { upper = middle }
                }
                var word: UInt64 = 0
                while lower < count, Runs.first(runs[lower]) <= high {
                    let first = Swift.max(Runs.first(runs[lower]), low), last = Swift.min(Runs.last(runs[lower]), high)
                    word |= (UInt64.max >> UInt64(first - low)) & (UInt64.max << UInt64(high - last))
                    lower += 1
                }
                return word
            }
        }
    }
}

extension IDSet {
    /// One run `first...last` packed as ``init(packedRuns:)`` takes it.
    package static func packedRun(_ first: Int, _ last: Int) -> UInt32 { Runs.pack(first, last) }
}
