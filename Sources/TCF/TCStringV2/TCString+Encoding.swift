extension TCString {
    /// Encodes the value as a TC string: the core segment, then DisclosedVendors, AllowedVendors
    /// and PublisherTC when present, each section in the shorter of bitfield and range encoding.
    ///
    /// - Throws: ``TCFEncodingError`` when a field does not fit its bits (a CMP id above 4095,
    ///   a language that is not two letters, a purpose above 24, more than 4095 restriction
    ///   entries or ranges).
    public func encoded() throws(TCFEncodingError) -> String {
        try validateForEncoding()
        var core = BitWriter(capacity: 64 + vendorConsents.max / 8 + vendorLegitimateInterests.max / 8)
        header.write(to: &core)
        core.write(tcfPolicyVersion, 6)
        core.write(isServiceSpecific)
        core.write(useNonStandardTexts)
        core.writeBitfield(specialFeatureOptIns, count: 12)
        core.writeBitfield(purposesConsent, count: 24)
        core.writeBitfield(purposesLITransparency, count: 24)
        core.write(purposeOneTreatment)
        core.writeLetters(publisherCC)
        core.writeVendorSection(vendorConsents)
        core.writeVendorSection(vendorLegitimateInterests)
        core.write(publisherRestrictions.count, 12)
        for restriction in publisherRestrictions {
            core.write(restriction.purposeId, 6)
            core.write(restriction.restrictionType.rawValue, 2)
            core.writeRangeEntries(restriction.vendorIds.ranges)
        }
        var text = core.base64URL(alignment: Self.segmentAlignment)
        for (type, ids) in [(SegmentType.disclosedVendors, disclosedVendors), (.allowedVendors, allowedVendors)] {
            guard let ids else { continue }
            var segment = BitWriter(capacity: 8 + ids.max / 8)
            segment.write(type.rawValue, 3)
            segment.writeVendorSection(ids)
            text += "." + segment.base64URL(alignment: Self.segmentAlignment)
        }
        if let publisherTC {
            var segment = BitWriter()
            segment.write(SegmentType.publisherTC.rawValue, 3)
            segment.writeBitfield(publisherTC.pubPurposesConsent, count: 24)
            segment.writeBitfield(publisherTC.pubPurposesLITransparency, count: 24)
            segment.write(publisherTC.numCustomPurposes, 6)
            segment.writeBitfield(publisherTC.customPurposesConsent, count: publisherTC.numCustomPurposes)
            segment.writeBitfield(publisherTC.customPurposesLITransparency, count: publisherTC.numCustomPurposes)
            text += "." + segment.base64URL(alignment: Self.segmentAlignment)
        }
        return text
    }

    /// The fields shared with v1.1.
    private var header: CommonHeader {
        CommonHeader(
            version: version, created: created, lastUpdated: lastUpdated, cmpId: cmpId, cmpVersion: cmpVersion,
            consentScreen: consentScreen, consentLanguage: consentLanguage, vendorListVersion: vendorListVersion)
    }

    /// Each segment is zero-filled to a multiple of 24 bits, as the IAB's reference encoder
    /// and the v2.3 spec examples do (see docs/decisions/0002-tc-string-padding.md).
    static let segmentAlignment = 24

    /// Checks every field fits its bits before anything is written.
    private func validateForEncoding() throws(TCFEncodingError) {
        try header.check(expectedVersion: 2)
        try FieldCheck.fits(tcfPolicyVersion, 6, "TcfPolicyVersion")
        try FieldCheck.ids(specialFeatureOptIns, max: 12, "SpecialFeatureOptIns")
        try FieldCheck.ids(purposesConsent, max: 24, "PurposesConsent")
        try FieldCheck.ids(purposesLITransparency, max: 24, "PurposesLITransparency")
        try FieldCheck.letters(publisherCC, "PublisherCC")
        try FieldCheck.fits(publisherRestrictions.count, 12, "NumPubRestrictions")
        for restriction in publisherRestrictions {
            try FieldCheck.fits(restriction.purposeId, 6, "PubRestrictionEntry.PurposeId")
            try FieldCheck.fits(restriction.vendorIds.runCounts.runs, 12, "PubRestrictionEntry.NumEntries")
        }
        if let publisherTC {
            try FieldCheck.ids(publisherTC.pubPurposesConsent, max: 24, "PubPurposesConsent")
            try FieldCheck.ids(publisherTC.pubPurposesLITransparency, max: 24, "PubPurposesLITransparency")
            try FieldCheck.fits(publisherTC.numCustomPurposes, 6, "NumCustomPurposes")
            try FieldCheck.ids(publisherTC.customPurposesConsent, max: publisherTC.numCustomPurposes, "CustomPurposesConsent")
            try FieldCheck.ids(
                publisherTC.customPurposesLITransparency, max: publisherTC.numCustomPurposes, "CustomPurposesLITransparency")
        }
    }
}
