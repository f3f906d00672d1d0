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
        core.write(version, 6)
        core.write(Int(created.deciseconds), 36)
        core.write(Int(lastUpdated.deciseconds), 36)
        core.write(cmpId, 12)
        core.write(cmpVersion, 12)
        core.write(consentScreen, 6)
        core.writeLetters(consentLanguage)
        core.write(vendorListVersion, 12)
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

    /// Each segment is zero-filled to a multiple of 24 bits, as the IAB's reference encoder
    /// and the v2.3 spec examples do (see docs/decisions/0002-tc-string-padding.md).
    static let segmentAlignment = 24

    /// Checks every field fits its bits before anything is written.
    private func validateForEncoding() throws(TCFEncodingError) {
        try FieldCheck.fits(version, 6, "Version")
        guard version == 2 else {
            throw TCFEncodingError(field: "Version", allowed: "2", value: "\(version)")
        }
        try FieldCheck.fits(created, "Created")
        try FieldCheck.fits(lastUpdated, "LastUpdated")
        try FieldCheck.fits(cmpId, 12, "CmpId")
        try FieldCheck.fits(cmpVersion, 12, "CmpVersion")
        try FieldCheck.fits(consentScreen, 6, "ConsentScreen")
        try FieldCheck.letters(consentLanguage, "ConsentLanguage")
        try FieldCheck.fits(vendorListVersion, 12, "VendorListVersion")
        try FieldCheck.fits(tcfPolicyVersion, 6, "TcfPolicyVersion")
        try FieldCheck.ids(specialFeatureOptIns, max: 12, "SpecialFeatureOptIns")
        try FieldCheck.ids(purposesConsent, max: 24, "PurposesConsent")
        try FieldCheck.ids(purposesLITransparency, max: 24, "PurposesLITransparency")
        try FieldCheck.letters(publisherCC, "PublisherCC")
        try FieldCheck.fits(publisherRestrictions.count, 12, "NumPubRestrictions")
        for restriction in publisherRestrictions {
            try FieldCheck.fits(restriction.purposeId, 6, "PubRestrictionEntry.PurposeId")
            try FieldCheck.fits(restriction.vendorIds.ranges.count, 12, "PubRestrictionEntry.NumEntries")
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
