import TCF

/// The `separator`-delimited parts of UTF-8 text, in order, without allocating.
struct Parts: IteratorProtocol {
    let text: UnsafeBufferPointer<UInt8>
    let separator: UInt8
    /// Where the next part starts; past the end when every part has been returned.
    private(set) var start = 0
    /// How many parts have been returned.
    private(set) var index = 0

    init(_ text: UnsafeBufferPointer<UInt8>, separator: Unicode.Scalar) {
        self.text = text
        self.separator = UInt8(ascii: separator)
    }

    /// The next part (possibly empty), or nil after the last.
    mutating func next() -> UnsafeBufferPointer<UInt8>? {
        guard start <= text.count else { return nil }
        let end = Segment.firstIndex(of: separator, in: text, from: start)
        defer {
            start = end + 1
            index += 1
        }
        return UnsafeBufferPointer(rebasing: text[start..<end])
    }

    /// How many parts are left to return.
    var remainingCount: Int {
        guard start <= text.count else { return 0 }
        var count = 1, index = Segment.firstIndex(of: separator, in: text, from: start)
        while index < text.count {
            count += 1
            index = Segment.firstIndex(of: separator, in: text, from: index + 1)
        }
        return count
    }
}
