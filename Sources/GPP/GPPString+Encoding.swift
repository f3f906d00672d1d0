import TCF

extension GPPString {
    /// The GPP string: the header (Type 3, Version 1, the ids as a Range(Fibonacci)), then each
    /// section, in id order, `~`-separated. The header and the US sections are zero-filled to
    /// whole characters (six bits), as the spec writes them; tcfeuv2 as the TCF module writes TC
    /// strings.
    ///
    /// - Throws: ``GPPEncodingError`` naming the section and field that does not fit, or two
    ///   sections with one id.
    public func encoded() throws(GPPEncodingError) -> String {
        let ordered = sections.sorted { $0.id < $1.id }
        for (previous, next) in zip(ordered, ordered.dropFirst()) where previous.id == next.id {
            throw GPPEncodingError(.duplicateSection, sectionId: next.id)
        }
        for section in ordered where !(1...IDSet.maxID).contains(section.id) {
            throw GPPEncodingError(.outOfRange(value: section.id, allowed: "1...\(IDSet.maxID)"), sectionId: section.id, field: "Sections")
        }
        var header = BitWriter(capacity: 8)
        header.write(3, 6)
        header.write(1, 6)
        header.writeFibonacciRange(IDSet(ordered.map(\.id)))
        var text = header.base64URL(alignment: 6)
        for section in ordered {
            text += "~"
            text += try section.encoded()
        }
        return text
    }
}
