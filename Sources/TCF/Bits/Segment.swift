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
        var string = string
        let result = string.withUTF8 { text in
            Result { () throws(TCFDecodingError) -> [Segment] in
                var segments: [Segment] = []
                var start = 0
                while true {
                    var end = start
                    while end < text.count, text[end] != UInt8(ascii: ".") { end += 1 }
                    segments.append(try Segment(UnsafeBufferPointer(rebasing: text[start..<end]), index: segments.count))
                    guard end < text.count else { return segments }
                    start = end + 1
                }
            }
        }
        return try result.get()
    }

    /// Decodes `text` as one segment, dots included (a dot is not in the base64 alphabet).
    init(decoding text: Substring, index: Int) throws(TCFDecodingError) {
        var text = text
        let result = text.withUTF8 { buffer in
            Result { () throws(TCFDecodingError) in try Segment(buffer, index: index) }
        }
        self = try result.get()
    }

    /// Decodes one segment's text.
    init(_ text: UnsafeBufferPointer<UInt8>, index: Int) throws(TCFDecodingError) {
        guard !text.isEmpty else { throw TCFDecodingError(.empty, segment: index, bitOffset: 0) }
        (bytes, bitCount) = try Base64URL.decode(text, segment: index, slack: BitReader.slack)
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
