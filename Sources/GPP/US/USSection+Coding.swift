// The one decoder and the one encoder of every US section, driven by its USSectionLayout.

import TCF

extension USSection {
    /// The core's bit length below which a usnat section is in the v1 layout (60 bits, padded
    /// to 66 by some encoders); the v2 layout has 70.
    static let usnatVersion2Bits = 70

    /// Decodes the text of section `id` (between the `~`s).
    init(decoding text: UnsafeBufferPointer<UInt8>, id: GPPSectionID) throws(GPPDecodingError) {
        func failure(_ reason: GPPDecodingError.Reason, part: Int, field: String = "", at offset: Int = 0) -> GPPDecodingError {
            GPPDecodingError(reason, sectionId: id.rawValue, sectionPrefix: id.prefix, subsection: part, field: field, bitOffset: offset)
        }
        var parts = Parts(text, separator: ".")
        let first = parts.next()!
        var layout = USSectionLayout.current(for: id)!
        let usnatVersion1 = id == .usnat && Self.characterBits(first) < Self.usnatVersion2Bits
        if usnatVersion1 { layout = .usnatVersion1 }
        // Not `[Int](repeating:count:)` nor `init(unsafeUninitializedCapacity:)`: both call the
        // standard library's unspecialised allocation, which looks the array's type up in the
        // runtime's metadata cache on every decode (about 400 instructions, callgrind); the copy
        // of a `Repeated` collection is specialised here and allocates directly.
        var values = Array(repeatElement(0, count: layout.slotCount))
        var present: UInt8 = 0
        var headerVersion: Int?
        // The sub-sections the section header lists, in order; nil without a header.
        var listed: [Int]?
        var core = first
        do {
            if layout.hasSectionHeader, Self.firstSixBits(first) == id.rawValue {
                var subsections = IDSet()
                try Segment.withReader(first, index: 0, everyCharacterBit: true) { (reader: inout BitReader) throws(TCFDecodingError) in
                    _ = try reader.read(6, "SectionID")
                    headerVersion = try reader.read(6, "Version")
                    subsections = try reader.readFibonacciRange("SubSections")
                }
                // Range(Fibonacci) cannot hold 0, the core's id: the core is implied, first.
                guard subsections.count <= layout.subsections.count else {
                    throw failure(.tooManySubsections(subsections.count), part: 0, field: "SubSections", at: 12)
                }
                listed = Array(subsections)
                guard let next = parts.next() else { throw failure(.emptySection, part: 1) }
                core = next
            }
            let coreIndex = parts.index - 1
            try Segment.withReader(core, index: coreIndex, everyCharacterBit: true) { (reader: inout BitReader) throws(TCFDecodingError) in
                try Self.read(layout.core, layout.coreReading, from: &reader, into: &values)
            }
            var listedIndex = 0
            while let part = parts.next() {
                let partIndex = parts.index - 1
                // Which sub-section: the section header says; or the part's SubsectionType; or,
                // for the one sub-section without a type (usin/usky/usri without a header), it is
                // the first part after the core.
                var subsectionIndex: Int?
                if let listed {
                    guard listedIndex < listed.count else { throw failure(.tooManySubsections(partIndex - 1), part: partIndex) }
                    let listedId = listed[listedIndex]
                    listedIndex += 1
                    subsectionIndex = layout.subsections.firstIndex { $0.id == listedId }
                    guard subsectionIndex != nil else { throw failure(.invalidSubsection(listedId), part: 0, field: "SubSections") }
                } else if let only = layout.subsections.first, !only.startsWithType {
                    guard present == 0 else { throw failure(.tooManySubsections(partIndex - 1), part: partIndex) }
                    subsectionIndex = 0
                } else if layout.subsections.isEmpty {
                    throw failure(.tooManySubsections(partIndex), part: partIndex)
                }
                var wrongType: Int?
                try Segment.withReader(part, index: partIndex, everyCharacterBit: true) { (reader: inout BitReader) throws(TCFDecodingError) in
                    var index = subsectionIndex
                    if index == nil || layout.subsections[index!].startsWithType {
                        let type = try reader.read(2, "SubsectionType")
                        wrongType = type
                        if let expected = index { guard layout.subsections[expected].id == type else { return } }
                        index = layout.subsections.firstIndex { $0.id == type }
                        guard let found = index, present & 1 << found == 0 else { return }
                        wrongType = nil
                    }
                    try Self.read(layout.subsections[index!].fields, layout.subsectionReadings[index!], from: &reader, into: &values)
                    present |= 1 << index!
                }
                if let wrongType { throw failure(.invalidSubsection(wrongType), part: partIndex, field: "SubsectionType") }
            }
            if let listed, listedIndex < listed.count {
                throw failure(.invalidSubsection(listed[listedIndex]), part: parts.index, field: "SubSections")
            }
        } catch let error as GPPDecodingError {
            throw error
        } catch let error as TCFDecodingError {
            throw GPPDecodingError(error, section: id.rawValue, prefix: id.prefix)
        } catch {
            preconditionFailure("unexpected error \(error)")
        }
        self.init(layout: layout, values: values, presentSubsections: present, sectionHeaderVersion: headerVersion)
        if usnatVersion1 { self = inLayoutOfItsVersion() }
    }

    /// Reads `fields` into `values` from `reading`'s first slot on.
    ///
    /// When every field is there (the usual case), the values are cut out of 64-bit words by
    /// `reading`'s widths, two or so reads of the string per section; otherwise field by field,
    /// so that the error names the first field that is cut short and where.
    private static func read(
        _ fields: [USSectionLayout.Field], _ reading: USSectionLayout.Reading, from reader: inout BitReader, into values: inout [Int]
    ) throws(TCFDecodingError) {
        if reading.bitCount <= reader.remaining {
            values.withUnsafeMutableBufferPointer { values in
                reading.widths.withUnsafeBufferPointer { widths in
                    var word = reader.peek64(), used = 0, slot = reading.offset
                    for width in widths {
                        let width = Int(width)
                        if used &+ width > 64 {
                            reader.skip(used)
                            word = reader.peek64()
                            used = 0
                        }
                        values[slot] = Int(truncatingIfNeeded: (word &<< UInt64(truncatingIfNeeded: used)) &>> UInt64(truncatingIfNeeded: 64 &- width))
                        used &+= width
                        slot &+= 1
                    }
                    reader.skip(used)
                }
            }
            return
        }
        var slot = reading.offset
        for field in fields {
            switch field.type {
            case .integer(let bits):
                try require(bits, field.name, &reader)
                values[slot] = try reader.read(bits, "")
                slot += 1
            case .boolean:
                try require(1, field.name, &reader)
                values[slot] = try reader.read(1, "")
                slot += 1
            case .list(let count):
                try require(2 * count, field.name, &reader)
                for _ in 0..<count {
                    values[slot] = try reader.read(2, "")
                    slot += 1
                }
            }
        }
    }

    /// Throws the truncation error for `field` unless `bits` more bits are left.
    @inline(__always)
    private static func require(_ bits: Int, _ field: USField, _ reader: inout BitReader) throws(TCFDecodingError) {
        guard bits <= reader.remaining else {
            throw TCFDecodingError(
                .truncated(needed: bits, available: reader.remaining), field: field.rawValue, segment: reader.segment,
                bitOffset: reader.position)
        }
    }

    /// Six bits per character before any `=`.
    private static func characterBits(_ text: UnsafeBufferPointer<UInt8>) -> Int {
        var end = text.count
        while end > 0, text[end - 1] == UInt8(ascii: "=") { end -= 1 }
        return end * 6
    }

    /// The value of the first character of `text` (its first six bits), or -1.
    private static func firstSixBits(_ text: UnsafeBufferPointer<UInt8>) -> Int {
        guard let character = text.first else { return -1 }
        switch character {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): return Int(character) - 65
        case UInt8(ascii: "a")...UInt8(ascii: "z"): return Int(character) - 97 + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return Int(character) - 48 + 52
        case UInt8(ascii: "-"): return 62
        case UInt8(ascii: "_"): return 63
        default: return -1
        }
    }

    // MARK: Encoding

    /// The section's text: the section header when ``sectionHeaderVersion`` is set, the core,
    /// then each present sub-section, `.`-separated, each zero-filled to whole characters.
    ///
    /// - Throws: ``GPPEncodingError`` when a value does not fit: a 2-bit value of 3 (reserved),
    ///   a `MspaCoveredTransaction` other than 1 or 2, a version above 63, an `MspaVersion` equal
    ///   to the section id in the layout without a section header (it would read as one).
    public func encoded() throws(GPPEncodingError) -> String {
        try validate()
        var parts: [String] = []
        if let sectionHeaderVersion {
            var header = BitWriter(capacity: 8)
            header.write(id.rawValue, 6)
            header.write(sectionHeaderVersion, 6)
            header.writeFibonacciRange(IDSet(layout.subsections.indices.filter(isPresent(subsection:)).map { layout.subsections[$0].id }))
            parts.append(header.base64URL(alignment: 6))
        }
        var core = BitWriter(capacity: 16)
        write(layout.core, to: &core, startingAt: 0)
        parts.append(core.base64URL(alignment: 6))
        for (index, subsection) in layout.subsections.enumerated() where isPresent(subsection: index) {
            var writer = BitWriter(capacity: 4)
            if subsection.startsWithType { writer.write(subsection.id, 2) }
            write(subsection.fields, to: &writer, startingAt: layout.slot(subsection.fields[0].name)!.offset)
            parts.append(writer.base64URL(alignment: 6))
        }
        return parts.joined(separator: ".")
    }

    private func write(_ fields: [USSectionLayout.Field], to writer: inout BitWriter, startingAt offset: Int) {
        var slot = offset
        for field in fields {
            switch field.type {
            case .integer(let bits):
                writer.write(values[slot], bits)
                slot += 1
            case .boolean:
                writer.write(values[slot], 1)
                slot += 1
            case .list(let count):
                for _ in 0..<count {
                    writer.write(values[slot], 2)
                    slot += 1
                }
            }
        }
    }

    /// Checks every value fits before anything is written.
    private func validate() throws(GPPEncodingError) {
        func check(_ value: Int, _ allowed: ClosedRange<Int>, _ field: String) throws(GPPEncodingError) {
            guard allowed.contains(value) else {
                throw GPPEncodingError(
                    .outOfRange(value: value, allowed: "\(allowed.lowerBound)...\(allowed.upperBound)"),
                    sectionId: id.rawValue, field: field)
            }
        }
        if let sectionHeaderVersion { try check(sectionHeaderVersion, 0...63, "Version") }
        // Without a section header, a core whose first six bits were the section id would read
        // back as a section header.
        if layout.hasSectionHeader, sectionHeaderVersion == nil, let mspaVersion, mspaVersion == id.rawValue {
            throw GPPEncodingError(
                .outOfRange(value: mspaVersion, allowed: "not \(id.rawValue) without a section header"), sectionId: id.rawValue,
                field: "MspaVersion")
        }
        for slot in layout.slots {
            switch slot.type {
            case .integer(let bits):
                // 2-bit values: 3 is reserved; a covered transaction is 1 (yes) or 2 (no).
                let allowed = bits == 2 ? (slot.field == .mspaCoveredTransaction ? 1...2 : 0...2) : 0...(1 << bits - 1)
                try check(values[slot.offset], allowed, slot.field.rawValue)
            case .boolean: try check(values[slot.offset], 0...1, slot.field.rawValue)
            case .list(let count):
                for index in 0..<count { try check(values[slot.offset + index], 0...2, "\(slot.field.rawValue)[\(index)]") }
            }
        }
    }
}
