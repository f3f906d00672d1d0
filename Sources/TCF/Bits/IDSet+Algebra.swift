/// Set algebra, a 64-bit word at a time.
extension IDSet {
    /// The ids in either set.
    public func union(_ other: IDSet) -> IDSet {
        combining(other, count: Swift.max(wordCount, other.wordCount)) { $0 | $1 }
    }

    /// The ids in both sets.
    public func intersection(_ other: IDSet) -> IDSet {
        combining(other, count: Swift.min(wordCount, other.wordCount)) { $0 & $1 }
    }

    /// The ids of this set that are not in `other`.
    public func subtracting(_ other: IDSet) -> IDSet {
        combining(other, count: wordCount) { $0 & ~$1 }
    }

    /// Whether every id of this set is in `other`.
    public func isSubset(of other: IDSet) -> Bool {
        subtracting(other).isEmpty
    }

    /// This set with `id` added.
    ///
    /// - Precondition: `id` is in `1...IDSet.maxID`.
    public func inserting(_ id: Int) -> IDSet {
        union(IDSet([id]))
    }

    /// This set without `id`.
    public func removing(_ id: Int) -> IDSet {
        guard contains(id) else { return self }
        return subtracting(IDSet([id]))
    }

    /// The ids in `range` (clamped to `1...IDSet.maxID`).
    public init(_ range: ClosedRange<Int>) {
        let first = Swift.max(range.lowerBound, 1), last = Swift.min(range.upperBound, IDSet.maxID)
        guard first <= last else {
            self.init()
            return
        }
        var run = Runs.pack(first, last)
        self = withUnsafeMutablePointer(to: &run) { IDSet(packedRuns: UnsafeMutableBufferPointer(start: $0, count: 1)) }
    }

    private func combining(_ other: IDSet, count: Int, _ operation: (UInt64, UInt64) -> UInt64) -> IDSet {
        IDSet(wordCount: count) { destination in
            for index in 0..<count { destination[index] = operation(word(index), other.word(index)) }
        }
    }
}
