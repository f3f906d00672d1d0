extension TCString {
    /// The `SegmentType` values of the segments after the core.
    enum SegmentType: Int {
        case core = 0, disclosedVendors = 1, allowedVendors = 2, publisherTC = 3
    }

    /// Decodes a TC string: the core segment, then DisclosedVendors, AllowedVendors and
    /// PublisherTC segments in any order.
    ///
    /// Accepts `=` padding and the standard base64 alphabet. Policy problems do not throw; see
    /// ``validation``.
    ///
    /// - Throws: ``TCFDecodingError`` naming the field and bit offset of the first structural
    ///   problem: bad characters, truncation, a version other than 2, an unknown or repeated
    ///   segment type, a range ending before it starts, or an id outside `1...MaxVendorId`.
    public init(decoding string: String) throws(TCFDecodingError) {
        var string = string
        let result = string.withUTF8 { text in
            Result { () throws(TCFDecodingError) in try TCString(decodingUTF8: text) }
        }
        self = try result.get()
    }

    /// Decodes a TC string from its UTF-8 text, as ``init(decoding:)`` does: for decoders that
    /// hold the text as bytes (the GPP string's `tcfeuv2` section).
    package init(decodingUTF8 text: UnsafeBufferPointer<UInt8>) throws(TCFDecodingError) {
        // The segments go into locals and the value is put together once at the end:
        // mutating a captured optional value, or copying it out, copied the whole struct.
        var core: TCString?
        var disclosedVendors: IDSet?, allowedVendors: IDSet?, publisherTC: PublisherTC?
        var seen: UInt8 = 0 // bit n: a segment of type n has been read
        try Segment.forEach(in: text) { (index, reader: inout BitReader) throws(TCFDecodingError) in
            guard index > 0 else {
                core = try Self.readCore(&reader)
                return
            }
            let typeValue = try reader.read(3, "SegmentType")
            guard let type = SegmentType(rawValue: typeValue), type != .core else {
                throw reader.error(.invalidSegmentType(typeValue), "SegmentType", at: 0)
            }
            guard seen & 1 << typeValue == 0 else {
                throw reader.error(.duplicateSegment(typeValue), "SegmentType", at: 0)
            }
            seen |= 1 << typeValue
            switch type {
            case .core: break
            case .disclosedVendors: disclosedVendors = try reader.readVendorSection("disclosedVendors")
            case .allowedVendors: allowedVendors = try reader.readVendorSection("allowedVendors")
            case .publisherTC: publisherTC = try PublisherTC(segment: &reader)
            }
        }
        // The first segment always exists and sets `core`, or `forEach` has thrown.
        switch consume core {
        case .some(let value): self = value
        case .none: preconditionFailure("Segment.forEach returned without reading the core segment")
        }
        self.disclosedVendors = disclosedVendors
        self.allowedVendors = allowedVendors
        self.publisherTC = publisherTC
    }

    /// Reads the core segment.
    private static func readCore(_ reader: inout BitReader) throws(TCFDecodingError) -> TCString {
        let header = try CommonHeader(reading: &reader, expectedVersion: 2)
        let tcfPolicyVersion = try reader.read(6, "TcfPolicyVersion")
        let isServiceSpecific = try reader.readBool("IsServiceSpecific")
        let useNonStandardTexts = try reader.readBool("UseNonStandardTexts")
        let specialFeatureOptIns = try reader.readBitfield(12, "SpecialFeatureOptIns")
        let purposesConsent = try reader.readBitfield(24, "PurposesConsent")
        let purposesLITransparency = try reader.readBitfield(24, "PurposesLITransparency")
        let purposeOneTreatment = try reader.readBool("PurposeOneTreatment")
        let publisherCC = try reader.readLetters("PublisherCC")
        let vendorConsents = try reader.readVendorSection("vendorConsents")
        let vendorLegitimateInterests = try reader.readVendorSection("vendorLegitimateInterests")
        let publisherRestrictions = try readPublisherRestrictions(&reader)
        return TCString(
            version: header.version,
            created: header.created,
            lastUpdated: header.lastUpdated,
            cmpId: header.cmpId,
            cmpVersion: header.cmpVersion,
            consentScreen: header.consentScreen,
            consentLanguage: header.consentLanguage,
            vendorListVersion: header.vendorListVersion,
            tcfPolicyVersion: tcfPolicyVersion,
            isServiceSpecific: isServiceSpecific,
            useNonStandardTexts: useNonStandardTexts,
            specialFeatureOptIns: specialFeatureOptIns,
            purposesConsent: purposesConsent,
            purposesLITransparency: purposesLITransparency,
            purposeOneTreatment: purposeOneTreatment,
            publisherCC: publisherCC,
            vendorConsents: vendorConsents,
            vendorLegitimateInterests: vendorLegitimateInterests,
            publisherRestrictions: publisherRestrictions
        )
    }

    /// Reads `NumPubRestrictions` and the restriction entries.
    private static func readPublisherRestrictions(
        _ reader: inout BitReader
    ) throws(TCFDecodingError) -> [PublisherRestriction] {
        let count = try reader.read(12, "NumPubRestrictions")
        var restrictions: [PublisherRestriction] = []
        restrictions.reserveCapacity(count)
        for _ in 0..<count {
            let purposeId = try reader.read(6, "PubRestrictionEntry.PurposeId")
            let type = try reader.read(2, "PubRestrictionEntry.RestrictionType")
            let vendors: IDSet
            do {
                vendors = try reader.readRangeEntries(maxVendorId: nil)
            } catch {
                var error = error
                error.field = "PubRestrictionEntry.\(error.field)"
                throw error
            }
            restrictions.append(PublisherRestriction(
                purposeId: purposeId, restrictionType: PublisherRestriction.RestrictionType(rawValue: type)!,
                vendorIds: vendors))
        }
        return restrictions
    }
}

extension PublisherTC {
    /// Reads a PublisherTC segment after its `SegmentType`.
    init(segment reader: inout BitReader) throws(TCFDecodingError) {
        let consent = try reader.readBitfield(24, "PubPurposesConsent")
        let legitimateInterest = try reader.readBitfield(24, "PubPurposesLITransparency")
        let count = try reader.read(6, "NumCustomPurposes")
        self.init(
            pubPurposesConsent: consent,
            pubPurposesLITransparency: legitimateInterest,
            numCustomPurposes: count,
            customPurposesConsent: try reader.readBitfield(count, "CustomPurposesConsent"),
            customPurposesLITransparency: try reader.readBitfield(count, "CustomPurposesLITransparency"))
    }
}
