/// A decoded TCF v1.1 publisher purposes consent string (the `eupubconsent` cookie).
///
/// It shares the consent string's header and then records the publisher's own standard and
/// custom purposes ("Publisher Purposes Consent String Format" in the v1.1 spec).
public struct PublisherPurposesString: Sendable, Equatable {
    /// `Version`: 1.
    public let version: Int
    /// `Created`: when the string was first created.
    public let created: TCFTimestamp
    /// `LastUpdated`: when the string was last updated.
    public let lastUpdated: TCFTimestamp
    /// `CmpId`: the CMP that last updated the string.
    public let cmpId: Int
    /// `CmpVersion`: the CMP's version.
    public let cmpVersion: Int
    /// `ConsentScreen`: the CMP-specific screen where consent was given.
    public let consentScreen: Int
    /// `ConsentLanguage`: the ISO 639-1 language, upper-case.
    public let consentLanguage: String
    /// `VendorListVersion`: the vendor list version used.
    public let vendorListVersion: Int
    /// `PublisherPurposesVersion`: the version of the publisher's purposes list.
    public let publisherPurposesVersion: Int
    /// `StandardPurposesAllowed`: the standard purposes (1-24) consented to.
    public let standardPurposesAllowed: IDSet
    /// `NumberCustomPurposes`: how many custom purposes the publisher defined (0-63).
    public let numberCustomPurposes: Int
    /// `CustomPurposesBitField`: the custom purposes (1-`numberCustomPurposes`) consented to.
    public let customPurposesAllowed: IDSet

    /// Creates a publisher purposes string value.
    public init(
        version: Int = 1, created: TCFTimestamp, lastUpdated: TCFTimestamp, cmpId: Int, cmpVersion: Int,
        consentScreen: Int, consentLanguage: String, vendorListVersion: Int, publisherPurposesVersion: Int,
        standardPurposesAllowed: IDSet, numberCustomPurposes: Int, customPurposesAllowed: IDSet
    ) {
        self.version = version
        self.created = created
        self.lastUpdated = lastUpdated
        self.cmpId = cmpId
        self.cmpVersion = cmpVersion
        self.consentScreen = consentScreen
        self.consentLanguage = consentLanguage
        self.vendorListVersion = vendorListVersion
        self.publisherPurposesVersion = publisherPurposesVersion
        self.standardPurposesAllowed = standardPurposesAllowed
        self.numberCustomPurposes = numberCustomPurposes
        self.customPurposesAllowed = customPurposesAllowed
    }

    /// Decodes an `eupubconsent` string.
    ///
    /// - Throws: ``TCFDecodingError`` for bad characters, a version other than 1 or truncation.
    public init(decoding string: String) throws(TCFDecodingError) {
        let segment = try Segment(string.utf8[...], index: 0)
        self = try segment.read { (reader: inout BitReader) throws(TCFDecodingError) in
            let version = try reader.read(6, "Version")
            guard version == 1 else { throw reader.error(.unsupportedVersion(version), "Version", at: 0) }
            let created = TCFTimestamp(deciseconds: Int64(try reader.read(36, "Created")))
            let lastUpdated = TCFTimestamp(deciseconds: Int64(try reader.read(36, "LastUpdated")))
            let cmpId = try reader.read(12, "CmpId")
            let cmpVersion = try reader.read(12, "CmpVersion")
            let consentScreen = try reader.read(6, "ConsentScreen")
            let consentLanguage = try reader.readLetters("ConsentLanguage")
            let vendorListVersion = try reader.read(12, "VendorListVersion")
            let publisherPurposesVersion = try reader.read(12, "PublisherPurposesVersion")
            let standard = try reader.readBitfield(24, "StandardPurposesAllowed")
            let count = try reader.read(6, "NumberCustomPurposes")
            return PublisherPurposesString(
                version: version, created: created, lastUpdated: lastUpdated, cmpId: cmpId, cmpVersion: cmpVersion,
                consentScreen: consentScreen, consentLanguage: consentLanguage, vendorListVersion: vendorListVersion,
                publisherPurposesVersion: publisherPurposesVersion, standardPurposesAllowed: standard,
                numberCustomPurposes: count, customPurposesAllowed: try reader.readBitfield(count, "CustomPurposesBitField"))
        }
    }

    /// Encodes the value as an `eupubconsent` string.
    ///
    /// - Throws: ``TCFEncodingError`` when a field does not fit its bits.
    public func encoded() throws(TCFEncodingError) -> String {
        guard version == 1 else { throw TCFEncodingError(field: "Version", allowed: "1", value: "\(version)") }
        try FieldCheck.fits(created, "Created")
        try FieldCheck.fits(lastUpdated, "LastUpdated")
        try FieldCheck.fits(cmpId, 12, "CmpId")
        try FieldCheck.fits(cmpVersion, 12, "CmpVersion")
        try FieldCheck.fits(consentScreen, 6, "ConsentScreen")
        try FieldCheck.letters(consentLanguage, "ConsentLanguage")
        try FieldCheck.fits(vendorListVersion, 12, "VendorListVersion")
        try FieldCheck.fits(publisherPurposesVersion, 12, "PublisherPurposesVersion")
        try FieldCheck.ids(standardPurposesAllowed, max: 24, "StandardPurposesAllowed")
        try FieldCheck.fits(numberCustomPurposes, 6, "NumberCustomPurposes")
        try FieldCheck.ids(customPurposesAllowed, max: numberCustomPurposes, "CustomPurposesBitField")
        var writer = BitWriter()
        writer.write(version, 6)
        writer.write(Int(created.deciseconds), 36)
        writer.write(Int(lastUpdated.deciseconds), 36)
        writer.write(cmpId, 12)
        writer.write(cmpVersion, 12)
        writer.write(consentScreen, 6)
        writer.writeLetters(consentLanguage)
        writer.write(vendorListVersion, 12)
        writer.write(publisherPurposesVersion, 12)
        writer.writeBitfield(standardPurposesAllowed, count: 24)
        writer.write(numberCustomPurposes, 6)
        writer.writeBitfield(customPurposesAllowed, count: numberCustomPurposes)
        return writer.base64URL()
    }
}
