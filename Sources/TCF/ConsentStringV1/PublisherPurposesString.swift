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
        self = try Segment.read(string[...], index: 0) { (reader: inout BitReader) throws(TCFDecodingError) in
            let header = try CommonHeader(reading: &reader, expectedVersion: 1)
            let publisherPurposesVersion = try reader.read(12, "PublisherPurposesVersion")
            let standard = try reader.readBitfield(24, "StandardPurposesAllowed")
            let count = try reader.read(6, "NumberCustomPurposes")
            return PublisherPurposesString(
                version: header.version, created: header.created, lastUpdated: header.lastUpdated, cmpId: header.cmpId,
                cmpVersion: header.cmpVersion,
                consentScreen: header.consentScreen, consentLanguage: header.consentLanguage,
                vendorListVersion: header.vendorListVersion,
                publisherPurposesVersion: publisherPurposesVersion, standardPurposesAllowed: standard,
                numberCustomPurposes: count, customPurposesAllowed: try reader.readBitfield(count, "CustomPurposesBitField"))
        }
    }

    /// The fields shared by every TCF string.
    private var header: CommonHeader {
        CommonHeader(
            version: version, created: created, lastUpdated: lastUpdated, cmpId: cmpId, cmpVersion: cmpVersion,
            consentScreen: consentScreen, consentLanguage: consentLanguage, vendorListVersion: vendorListVersion)
    }

    /// Encodes the value as an `eupubconsent` string.
    ///
    /// - Throws: ``TCFEncodingError`` when a field does not fit its bits.
    public func encoded() throws(TCFEncodingError) -> String {
        try header.check(expectedVersion: 1)
        try FieldCheck.fits(publisherPurposesVersion, 12, "PublisherPurposesVersion")
        try FieldCheck.ids(standardPurposesAllowed, max: 24, "StandardPurposesAllowed")
        try FieldCheck.fits(numberCustomPurposes, 6, "NumberCustomPurposes")
        try FieldCheck.ids(customPurposesAllowed, max: numberCustomPurposes, "CustomPurposesBitField")
        var writer = BitWriter()
        header.write(to: &writer)
        writer.write(publisherPurposesVersion, 12)
        writer.writeBitfield(standardPurposesAllowed, count: 24)
        writer.write(numberCustomPurposes, 6)
        writer.writeBitfield(customPurposesAllowed, count: numberCustomPurposes)
        return writer.base64URL()
    }
}
