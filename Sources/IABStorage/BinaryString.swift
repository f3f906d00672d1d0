import TCF

/// The in-app specs' "binary strings": character n (from 0) is '1' when id n+1 is in the set.
package enum BinaryString {
    /// `ids` as a binary string of `length` characters (ids above `length` are left out).
    package static func encode(_ ids: IDSet, length: Int) -> String {
        guard length > 0 else { return "" }
        var bytes = [UInt8](repeating: UInt8(ascii: "0"), count: length)
        for id in ids where id <= length { bytes[id - 1] = UInt8(ascii: "1") }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The ids marked '1' in `text`; nil when `text` holds anything but '0' and '1', or is
    /// longer than the largest id (`IDSet.maxID`).
    package static func decode(_ text: String) -> IDSet? {
        guard text.utf8.count <= IDSet.maxID else { return nil }
        var ids: [Int] = []
        var position = 0
        for byte in text.utf8 {
            position += 1
            switch byte {
            case UInt8(ascii: "1"): ids.append(position)
            case UInt8(ascii: "0"): break
            default: return nil
            }
        }
        return IDSet(ids)
    }
}
