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
