/// One `.`-separated part of a consent string, base64url-decoded and ready to read bit by bit.
struct Segment {
    /// The decoded bytes followed by ``BitReader/slack`` zero bytes.
    private let bytes: [UInt8]
    /// The number of meaningful bits: whole bytes, as the spec pads before encoding.
    let bitCount: Int
    /// The segment's index in the string, 0 for the first.
    let index: Int

    /// Splits `string` at each `.` and decodes every part.
    ///
    /// - Throws: ``TCFDecodingError/Reason/empty`` for an empty string or segment, and the
    ///   base64 errors of ``Base64URL``.
    static func split(_ string: String) throws(TCFDecodingError) -> [Segment] {
        var segments: [Segment] = []
        for (index, text) in string.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false).enumerated() {
            segments.append(try Segment(text, index: index))
        }
        return segments
    }

    /// Decodes one segment's text.
    init(_ text: Substring.UTF8View, index: Int) throws(TCFDecodingError) {
        guard !text.isEmpty else { throw TCFDecodingError(.empty, segment: index, bitOffset: 0) }
        let decoded: Result<(bytes: [UInt8], bitCount: Int), TCFDecodingError>
        if let result = text.withContiguousStorageIfAvailable({ buffer in
            Result { () throws(TCFDecodingError) in try Base64URL.decode(buffer, segment: index, slack: BitReader.slack) }
        }) {
            decoded = result
        } else {
            decoded = Array(text).withUnsafeBufferPointer { buffer in
                Result { () throws(TCFDecodingError) in try Base64URL.decode(buffer, segment: index, slack: BitReader.slack) }
            }
        }
        (bytes, bitCount) = try decoded.get()
        self.index = index
    }

    /// Runs `body` with a reader positioned at the segment's first bit.
    func read<R>(_ body: (inout BitReader) throws(TCFDecodingError) -> R) throws(TCFDecodingError) -> R {
        let result = bytes.withUnsafeBufferPointer { buffer in
            Result { () throws(TCFDecodingError) in
                var reader = BitReader(bytes: buffer, bitCount: bitCount, segment: index)
                return try body(&reader)
            }
        }
        return try result.get()
    }
}
