import TCF

extension GPPString {
    /// Decodes a GPP string: the header, then each section it lists.
    ///
    /// Lenient where real strings need it: any trailing zero padding (`DBABM`, `DBABMA`), lengths
    /// standard base64 would reject, usnat strings in the v1 or v2 layout whatever their
    /// `Version` says, usmd/usin/usky/usri with or without the spec's section header, tcfcav1 with
    /// Fibonacci or legacy 16-bit ranges. Sections of unknown ids are kept as text.
    ///
    /// - Throws: ``GPPDecodingError`` at the first problem: a bare TC string, a header that is
    ///   not Type 3 Version 1, a section count that differs from the header's, an empty section,
    ///   a bad character, a truncated field; the error names the section, field and bit offset.
    public init(decoding string: String) throws(GPPDecodingError) {
        var string = string
        let result = string.withUTF8 { text in
            Result { () throws(GPPDecodingError) in try GPPString(decodingUTF8: text) }
        }
        self = try result.get()
    }

    /// Decodes a GPP string from its UTF-8 bytes, as ``init(decoding:)`` does.
    public init(decodingUTF8 text: UnsafeBufferPointer<UInt8>) throws(GPPDecodingError) {
        guard let firstCharacter = text.first else { throw GPPDecodingError(.empty) }
        // Type 1 and 2 would start with B and C: TCF v1.1 and v2 TC strings.
        if firstCharacter == UInt8(ascii: "C") || firstCharacter == UInt8(ascii: "B") {
            throw GPPDecodingError(.bareTCString)
        }
        var parts = Parts(text, separator: "~")
        let headerText = parts.next()!
        if let ids = Self.smallHeader(headerText) {
            // The common header, its ids below 64 read straight from one word; the same checks
            // in the same order as below. The sections' ends are kept as the count finds them
            // (at most 64: one per id), so the string is searched for `~` once.
            let count = ids.nonzeroBitCount
            let result = withUnsafeTemporaryAllocation(of: Int.self, capacity: count) { ends in
                Result { () throws(GPPDecodingError) -> [GPPSection] in
                    var found = 0, start = parts.start
                    while start <= text.count {
                        let end = Segment.firstIndex(of: UInt8(ascii: "~"), in: text, from: start)
                        if found < count { ends[found] = end }
                        found += 1
                        start = end + 1
                    }
                    guard count == found else { throw GPPDecodingError(.sectionCountMismatch(header: count, found: found), field: "Sections") }
                    var sections: [GPPSection] = []
                    sections.reserveCapacity(found)
                    var rest = ids, index = 0
                    start = parts.start
                    while rest != 0 {
                        let id = rest.trailingZeroBitCount
                        rest &= rest &- 1
                        let end = ends[index]
                        sections.append(try Self.decodeSection(id, UnsafeBufferPointer(rebasing: text[start..<end])))
                        start = end + 1
                        index += 1
                    }
                    return sections
                }
            }
            self.init(sections: try result.get())
            return
        }
        var type = 0, version = 0
        var ids: IDSet?
        do {
            try Segment.withReader(headerText, index: 0, everyCharacterBit: true) { (reader: inout BitReader) throws(TCFDecodingError) in
                type = try reader.read(6, "Type")
                version = try reader.read(6, "Version")
                guard type == 3, version == 1 else { return }
                ids = try reader.readFibonacciRange("Sections")
            }
        } catch {
            throw GPPDecodingError(error, section: nil, prefix: nil)
        }
        guard let ids else { throw GPPDecodingError(.invalidHeader(type: type, version: version), field: "Type") }
        // Counted before the ids are spelled out: a header of 65,535 ids costs its bits only.
        let found = parts.remainingCount
        guard ids.count == found else { throw GPPDecodingError(.sectionCountMismatch(header: ids.count, found: found), field: "Sections") }
        var sections: [GPPSection] = []
        sections.reserveCapacity(found)
        for id in ids {
            let text = parts.next()!
            sections.append(try Self.decodeSection(id, text))
        }
        self.init(sections: sections)
    }

    /// The section ids of a header in the common form, as bit `id` of a word: at most ten
    /// characters of the base64url alphabet, `Type` 3, `Version` 1, at least one id, every id
    /// below 64 and every field within the text. Nil for any other header, which the bit reader
    /// then decodes, throwing the error it has, if any.
    ///
    /// The same reading as ``TCF/BitReader/readFibonacciRange(_:)``, out of one word: no buffer,
    /// no reader, no ``IDSet``.
    private static func smallHeader(_ text: UnsafeBufferPointer<UInt8>) -> UInt64? {
        guard let word = Base64URL.word(text) else { return nil }
        let bitCount = text.count * 6
        // Type (6 bits), Version (6) and the count of Sections (12).
        guard bitCount >= 24, word >> 52 == 3 << 6 | 1 else { return nil }
        let count = Int(word >> 40 & 0xFFF)
        guard count > 0 else { return nil }
        var position = 24, previous = 0, ids: UInt64 = 0
        /// The Fibonacci-coded integer at `position`, moved past; nil if it ends past the text
        /// or is longer than ``BitReader/readFibonacci(_:)`` accepts.
        func fibonacci() -> Int? {
            let code = word << UInt64(position)
            let pairs = code & code << 1
            // `last`: the code's last bit before its terminating 1 (see readFibonacci).
            let last = pairs.leadingZeroBitCount
            guard pairs != 0, last + 2 <= 32, position + last + 2 <= bitCount else { return nil }
            var value = 0, weight = 1, next = 2, bits = code
            for _ in 0...last {
                if bits >> 63 == 1 { value += weight }
                bits <<= 1
                (weight, next) = (next, weight + next)
            }
            position += last + 2
            return value
        }
        for _ in 0..<count {
            guard position < bitCount else { return nil }
            let isGroup = (word << UInt64(position)) >> 63 == 1
            position += 1
            guard let offset = fibonacci() else { return nil }
            let first = previous + offset
            var last = first
            if isGroup {
                guard let length = fibonacci() else { return nil }
                last = first + length
            }
            guard last < 64 else { return nil }
            // Bits first...last.
            ids |= UInt64.max >> UInt64(63 - last) & UInt64.max << UInt64(first)
            previous = last
        }
        return ids
    }

    /// Decodes the text of section `id`.
    private static func decodeSection(_ id: Int, _ text: UnsafeBufferPointer<UInt8>) throws(GPPDecodingError) -> GPPSection {
        guard let known = GPPSectionID(rawValue: id) else {
            guard !text.isEmpty else { throw GPPDecodingError(.emptySection, sectionId: id) }
            return .unknown(id: id, text: String(decoding: text, as: UTF8.self))
        }
        guard !text.isEmpty else { throw GPPDecodingError(.emptySection, sectionId: id, sectionPrefix: known.prefix) }
        switch known {
        case .tcfeuv2:
            do { return .tcfeuv2(try TCString(decodingUTF8: text)) } catch {
                throw GPPDecodingError(error, section: id, prefix: known.prefix)
            }
        case .tcfcav1: return .tcfcav1(try TCFCanadaSection(decoding: text))
        case .uspv1: return .uspv1(try USPrivacyV1(decoding: text))
        default: return .us(try USSection(decoding: text, id: known))
        }
    }
}
