extension Array {
    /// The array cut into consecutive slices of at most `size` elements (the last may be shorter).
    func chunks(of size: Int) -> [ArraySlice<Element>] {
        stride(from: 0, to: count, by: size).map { self[$0..<Swift.min($0 + size, count)] }
    }
}
