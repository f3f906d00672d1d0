import TCF

extension TCFCanadaSection {
    /// The `SubsectionType` values after the core.
    private enum SubsectionType: Int {
        case disclosedVendors = 1, publisherPurposes = 3
    }

    /// Decodes the section's text, in whichever range encoding reproduces it: the spec's
    /// Fibonacci ranges first, then the legacy 16-bit ranges; if neither re-encodes to the same
    /// bits, whichever decodes (the spec's first).
    init(decoding text: UnsafeBufferPointer<UInt8>) throws(GPPDecodingError) {
        let original = String(decoding: text, as: UTF8.self)
        let spec = Result { () throws(GPPDecodingError) in try TCFCanadaSection(decoding: text, rangeEncoding: .fibonacci) }
        if case .success(let value) = spec, value.reproduces(original) {
            self = value
            return
        }
        let legacy = Result { () throws(GPPDecodingError) in try TCFCanadaSection(decoding: text, rangeEncoding: .legacyIntegerRanges) }
        switch (spec, legacy) {
        case (_, .success(let value)) where value.reproduces(original): self = value
        case (.success(let value), _), (_, .success(let value)): self = value
        case (.failure(let error), _): throw error
        }
    }

    /// Whether writing the value in its ``rangeEncoding`` gives `text`, trailing zero characters aside.
    private func reproduces(_ text: String) -> Bool {
        guard let encoded = try? self.text(in: rangeEncoding) else { return false }
        func parts(_ text: String) -> [Substring] {
            text.split(separator: ".", omittingEmptySubsequences: false).map { part in
                part[..<(part.lastIndex { $0 != "A" }.map { part.index(after: $0) } ?? part.startIndex)]
            }
        }
        return parts(encoded) == parts(text)
    }

    /// Decodes the section's text with `rangeEncoding`.
    private init(decoding text: UnsafeBufferPointer<UInt8>, rangeEncoding: RangeEncoding) throws(GPPDecodingError) {
        var disclosedVendors: IDSet?
        var publisherPurposes: PublisherPurposes?
        var parts = Parts(text, separator: ".")
        do {
            self = try Segment.read(parts.next()!, index: 0, everyCharacterBit: true) { (reader: inout BitReader) throws(TCFDecodingError) in
                let header = try CommonHeader(reading: &reader, expectedVersion: 1)
                let tcfPolicyVersion = try reader.read(6, "TcfPolicyVersion")
                let useNonStandardStacks = try reader.readBool("UseNonStandardStacks")
                let specialFeatures = try reader.readBitfield(12, "SpecialFeatureExpressConsent")
                let purposesExpress = try reader.readBitfield(24, "PurposesExpressConsent")
                let purposesImplied = try reader.readBitfield(24, "PurposesImpliedConsent")
                let vendorExpress = try Self.readIds(&reader, rangeEncoding, "VendorExpressConsent")
                let vendorImplied = try Self.readIds(&reader, rangeEncoding, "VendorImpliedConsent")
                let count = try reader.read(12, "PubRestrictions")
                var restrictions: [PublisherRestriction] = []
                for _ in 0..<count {
                    let purpose = try reader.read(6, "PubRestrictions")
                    let type = try reader.read(2, "PubRestrictions")
                    let vendors = rangeEncoding == .fibonacci
                        ? try reader.readOptimizedRange("PubRestrictions") : try reader.readRangeEntries(maxVendorId: nil)
                    restrictions.append(PublisherRestriction(
                        purposeId: purpose, restrictionType: PublisherRestriction.RestrictionType(rawValue: type)!, vendorIds: vendors))
                }
                return TCFCanadaSection(
                    version: header.version, created: header.created, lastUpdated: header.lastUpdated, cmpId: header.cmpId,
                    cmpVersion: header.cmpVersion, consentScreen: header.consentScreen, consentLanguage: header.consentLanguage,
                    vendorListVersion: header.vendorListVersion, tcfPolicyVersion: tcfPolicyVersion,
                    useNonStandardStacks: useNonStandardStacks, specialFeatureExpressConsent: specialFeatures,
                    purposesExpressConsent: purposesExpress, purposesImpliedConsent: purposesImplied,
                    vendorExpressConsent: vendorExpress, vendorImpliedConsent: vendorImplied, pubRestrictions: restrictions,
                    rangeEncoding: rangeEncoding)
            }
            while let part = parts.next() {
                let index = parts.index - 1
                let wrongType = try Segment.read(part, index: index, everyCharacterBit: true) {
                    (reader: inout BitReader) throws(TCFDecodingError) -> Int? in
                    let type = try reader.read(3, "SubsectionType")
                    switch SubsectionType(rawValue: type) {
                    case .disclosedVendors where disclosedVendors == nil:
                        disclosedVendors = try Self.readIds(&reader, rangeEncoding, "DisclosedVendors")
                    case .publisherPurposes where publisherPurposes == nil:
                        let express = try reader.readBitfield(24, "PubPurposesExpressConsent")
                        let implied = try reader.readBitfield(24, "PubPurposesImpliedConsent")
                        let custom = try reader.read(6, "NumCustomPurposes")
                        publisherPurposes = PublisherPurposes(
                            pubPurposesExpressConsent: express, pubPurposesImpliedConsent: implied, numCustomPurposes: custom,
                            customPurposesExpressConsent: try reader.readBitfield(custom, "CustomPurposesExpressConsent"),
                            customPurposesImpliedConsent: try reader.readBitfield(custom, "CustomPurposesImpliedConsent"))
                    default: return type
                    }
                    return nil
                }
                if let wrongType {
                    throw GPPDecodingError(
                        .invalidSubsection(wrongType), sectionId: 5, sectionPrefix: "tcfcav1", subsection: index, field: "SubsectionType")
                }
            }
        } catch let error as GPPDecodingError {
            throw error
        } catch let error as TCFDecodingError {
            throw GPPDecodingError(error, section: 5, prefix: "tcfcav1")
        } catch {
            preconditionFailure("unexpected error \(error)")
        }
        self.disclosedVendors = disclosedVendors
        self.publisherPurposes = publisherPurposes
    }

    /// Reads a vendor list in `encoding`: OptimizedRange, or the legacy OptimizedIntRange.
    private static func readIds(
        _ reader: inout BitReader, _ encoding: RangeEncoding, _ field: StaticString
    ) throws(TCFDecodingError) -> IDSet {
        encoding == .fibonacci ? try reader.readOptimizedRange(field) : try reader.readVendorSection(field)
    }

    /// Writes a vendor list in `encoding`.
    private static func writeIds(_ ids: IDSet, _ encoding: RangeEncoding, to writer: inout BitWriter) {
        if encoding == .fibonacci { writer.writeOptimizedRange(ids) } else { writer.writeVendorSection(ids) }
    }

    /// The section's text: the core, then DisclosedVendors and the publisher purposes when present,
    /// each zero-filled to whole characters; in ``rangeEncoding`` when the text reads back as this
    /// value, else in the spec's Fibonacci ranges.
    ///
    /// Some texts read in both range encodings, as different values, and decoding takes the spec's
    /// reading; a value read with the legacy ranges whose legacy text is such a text is therefore
    /// written with the spec's ranges, so that decoding what this returns always gives the value.
    ///
    /// - Throws: ``GPPEncodingError`` wrapping the TCF check that failed (a CMP id above 4095, a
    ///   language that is not two letters, a purpose above 24, …).
    public func encoded() throws(GPPEncodingError) -> String {
        if rangeEncoding == .legacyIntegerRanges {
            var legacy = try text(in: .legacyIntegerRanges)
            if legacy.withUTF8({ try? TCFCanadaSection(decoding: $0) }) == self { return legacy }
        }
        return try text(in: .fibonacci)
    }

    /// The section's text with its ranges in `encoding`.
    private func text(in encoding: RangeEncoding) throws(GPPEncodingError) -> String {
        let header = CommonHeader(
            version: version, created: created, lastUpdated: lastUpdated, cmpId: cmpId, cmpVersion: cmpVersion,
            consentScreen: consentScreen, consentLanguage: consentLanguage, vendorListVersion: vendorListVersion)
        do {
            try header.check(expectedVersion: 1)
            try FieldCheck.fits(tcfPolicyVersion, 6, "TcfPolicyVersion")
            try FieldCheck.ids(specialFeatureExpressConsent, max: 12, "SpecialFeatureExpressConsent")
            try FieldCheck.ids(purposesExpressConsent, max: 24, "PurposesExpressConsent")
            try FieldCheck.ids(purposesImpliedConsent, max: 24, "PurposesImpliedConsent")
            try FieldCheck.fits(pubRestrictions.count, 12, "PubRestrictions")
            for restriction in pubRestrictions { try FieldCheck.fits(restriction.purposeId, 6, "PubRestrictions") }
            if let publisherPurposes {
                try FieldCheck.ids(publisherPurposes.pubPurposesExpressConsent, max: 24, "PubPurposesExpressConsent")
                try FieldCheck.ids(publisherPurposes.pubPurposesImpliedConsent, max: 24, "PubPurposesImpliedConsent")
                try FieldCheck.fits(publisherPurposes.numCustomPurposes, 6, "NumCustomPurposes")
                try FieldCheck.ids(
                    publisherPurposes.customPurposesExpressConsent, max: publisherPurposes.numCustomPurposes,
                    "CustomPurposesExpressConsent")
                try FieldCheck.ids(
                    publisherPurposes.customPurposesImpliedConsent, max: publisherPurposes.numCustomPurposes,
                    "CustomPurposesImpliedConsent")
            }
        } catch {
            throw GPPEncodingError(.tcf(error), sectionId: 5, field: error.field)
        }
        var core = BitWriter(capacity: 64)
        header.write(to: &core)
        core.write(tcfPolicyVersion, 6)
        core.write(useNonStandardStacks)
        core.writeBitfield(specialFeatureExpressConsent, count: 12)
        core.writeBitfield(purposesExpressConsent, count: 24)
        core.writeBitfield(purposesImpliedConsent, count: 24)
        Self.writeIds(vendorExpressConsent, encoding, to: &core)
        Self.writeIds(vendorImpliedConsent, encoding, to: &core)
        core.write(pubRestrictions.count, 12)
        for restriction in pubRestrictions {
            core.write(restriction.purposeId, 6)
            core.write(restriction.restrictionType.rawValue, 2)
            if encoding == .fibonacci {
                core.writeOptimizedRange(restriction.vendorIds)
            } else {
                core.writeRangeEntries(restriction.vendorIds.ranges)
            }
        }
        var text = core.base64URL(alignment: 6)
        if let disclosedVendors {
            var writer = BitWriter()
            writer.write(SubsectionType.disclosedVendors.rawValue, 3)
            Self.writeIds(disclosedVendors, encoding, to: &writer)
            text += "." + writer.base64URL(alignment: 6)
        }
        if let publisherPurposes {
            var writer = BitWriter()
            writer.write(SubsectionType.publisherPurposes.rawValue, 3)
            writer.writeBitfield(publisherPurposes.pubPurposesExpressConsent, count: 24)
            writer.writeBitfield(publisherPurposes.pubPurposesImpliedConsent, count: 24)
            writer.write(publisherPurposes.numCustomPurposes, 6)
            writer.writeBitfield(publisherPurposes.customPurposesExpressConsent, count: publisherPurposes.numCustomPurposes)
            writer.writeBitfield(publisherPurposes.customPurposesImpliedConsent, count: publisherPurposes.numCustomPurposes)
            text += "." + writer.base64URL(alignment: 6)
        }
        return text
    }
}
