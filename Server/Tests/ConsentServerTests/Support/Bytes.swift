import Foundation

/// Bytes as tests compare them: equal when the bytes are, and printed as their count, an FNV-1a
/// checksum and their first bytes when an expectation fails.
///
/// Write `#expect(Bytes(served) == Bytes(expected))`, not `#expect(served == expected)`, for any
/// `Data` that may be large. When two `BidirectionalCollection`s differ, Swift Testing 6.3's
/// `#expect` describes the failure with `CollectionDifference`, Myers' diff, O((n + m) · d)
/// element comparisons run unspecialised: for GVL v2 #224 against v3 #45 (~900 KB each) that is
/// hours at 100 % CPU on one thread, and `.timeLimit` cannot stop it, as the diff never checks for
/// cancellation (issue 14, "the hang"). `Bytes` is not a collection, so a mismatch is reported at
/// once.
struct Bytes: Equatable, CustomStringConvertible {
    /// The bytes compared.
    let data: Data

    init(_ data: Data) {
        self.data = data
    }

    /// How many bytes to show of each side of a failed comparison.
    static let shown = 60

    var description: String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in data {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        let head = String(decoding: data.prefix(Self.shown), as: UTF8.self)
        let checksum = String(hash, radix: 16)
        return "\(data.count) bytes, FNV-1a \(checksum): \(head.debugDescription)\(data.count > Self.shown ? "…" : "")"
    }
}
