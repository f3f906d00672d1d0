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
        // Every segment is read into locals and the value is built once, at the end: a value
        // returned through a closure, an optional or a generic result was copied whole each time
        // (a third of the decode's instructions went to copying and releasing it).
        var core = Core()
        var disclosedVendors: IDSet?, allowedVendors: IDSet?, publisherTC: PublisherTC?
        var seen: UInt8 = 0 // bit n: a segment of type n has been read
        try Segment.forEach(in: text, separator: UInt8(ascii: ".")) { (index: Int, reader: inout BitReader) throws(TCFDecodingError) in
            guard index > 0 else {
                try core.read(&reader)
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
        self.init(
            version: core.header.version,
            created: core.header.created,
            lastUpdated: core.header.lastUpdated,
            cmpId: core.header.cmpId,
            cmpVersion: core.header.cmpVersion,
            consentScreen: core.header.consentScreen,
            consentLanguage: core.header.consentLanguage,
            vendorListVersion: core.header.vendorListVersion,
            tcfPolicyVersion: core.tcfPolicyVersion,
            isServiceSpecific: core.isServiceSpecific,
            useNonStandardTexts: core.useNonStandardTexts,
            specialFeatureOptIns: core.specialFeatureOptIns,
            purposesConsent: core.purposesConsent,
            purposesLITransparency: core.purposesLITransparency,
            purposeOneTreatment: core.purposeOneTreatment,
            publisherCC: core.publisherCC,
            vendorConsents: core.vendorConsents,
            vendorLegitimateInterests: core.vendorLegitimateInterests,
            publisherRestrictions: core.publisherRestrictions,
            disclosedVendors: consume disclosedVendors,
            allowedVendors: consume allowedVendors,
            publisherTC: consume publisherTC)
    }

    /// The core segment's fields, read in place.
    private struct Core {
        var header = CommonHeader(
            version: 0, created: TCFTimestamp(deciseconds: 0), lastUpdated: TCFTimestamp(deciseconds: 0), cmpId: 0,
            cmpVersion: 0, consentScreen: 0, consentLanguage: "", vendorListVersion: 0)
        var tcfPolicyVersion = 0
        var isServiceSpecific = false
        var useNonStandardTexts = false
        var specialFeatureOptIns = IDSet()
        var purposesConsent = IDSet()
        var purposesLITransparency = IDSet()
        var purposeOneTreatment = false
        var publisherCC = ""
        var vendorConsents = IDSet()
        var vendorLegitimateInterests = IDSet()
        var publisherRestrictions: [PublisherRestriction] = []

        /// Reads the core segment, field by field in string order.
        mutating func read(_ reader: inout BitReader) throws(TCFDecodingError) {
            header = try CommonHeader(reading: &reader, expectedVersion: 2)
            tcfPolicyVersion = try reader.read(6, "TcfPolicyVersion")
            isServiceSpecific = try reader.readBool("IsServiceSpecific")
            useNonStandardTexts = try reader.readBool("UseNonStandardTexts")
            specialFeatureOptIns = try reader.readBitfield(12, "SpecialFeatureOptIns")
            purposesConsent = try reader.readBitfield(24, "PurposesConsent")
            purposesLITransparency = try reader.readBitfield(24, "PurposesLITransparency")
            purposeOneTreatment = try reader.readBool("PurposeOneTreatment")
            publisherCC = try reader.readLetters("PublisherCC")
            vendorConsents = try reader.readVendorSection("vendorConsents")
            vendorLegitimateInterests = try reader.readVendorSection("vendorLegitimateInterests")
            publisherRestrictions = try TCString.readPublisherRestrictions(&reader)
        }
    }

    /// Reads `NumPubRestrictions` and the restriction entries.
    private static func readPublisherRestrictions(
        _ reader: inout BitReader
    ) throws(TCFDecodingError) -> [PublisherRestriction] {
        let count = try reader.read(12, "NumPubRestrictions")
        // The usual count, 0, allocates nothing (reserving capacity 0 still makes a new buffer).
        guard count > 0 else { return [] }
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
