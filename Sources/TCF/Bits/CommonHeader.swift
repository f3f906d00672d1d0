/// The fields every TCF string starts with, v1.1 and v2.x alike: `Version` through
/// `VendorListVersion`, 132 bits. Read, checked and written in one place.
package struct CommonHeader {
    package var version: Int
    package var created: TCFTimestamp
    package var lastUpdated: TCFTimestamp
    package var cmpId: Int
    package var cmpVersion: Int
    package var consentScreen: Int
    package var consentLanguage: String
    package var vendorListVersion: Int

    /// Reads the header, throwing unless its version is `expectedVersion`.
    package init(reading reader: inout BitReader, expectedVersion: Int) throws(TCFDecodingError) {
        version = try reader.read(6, "Version")
        guard version == expectedVersion else { throw reader.error(.unsupportedVersion(version), "Version", at: 0) }
        created = TCFTimestamp(deciseconds: Int64(try reader.read(36, "Created")))
        lastUpdated = TCFTimestamp(deciseconds: Int64(try reader.read(36, "LastUpdated")))
        cmpId = try reader.read(12, "CmpId")
        cmpVersion = try reader.read(12, "CmpVersion")
        consentScreen = try reader.read(6, "ConsentScreen")
        consentLanguage = try reader.readLetters("ConsentLanguage")
        vendorListVersion = try reader.read(12, "VendorListVersion")
    }

    package init(
        version: Int, created: TCFTimestamp, lastUpdated: TCFTimestamp, cmpId: Int, cmpVersion: Int,
        consentScreen: Int, consentLanguage: String, vendorListVersion: Int
    ) {
        self.version = version
        self.created = created
        self.lastUpdated = lastUpdated
        self.cmpId = cmpId
        self.cmpVersion = cmpVersion
        self.consentScreen = consentScreen
        self.consentLanguage = consentLanguage
        self.vendorListVersion = vendorListVersion
    }

    /// Throws unless the version is `expectedVersion` and every field fits its bits.
    package func check(expectedVersion: Int) throws(TCFEncodingError) {
        guard version == expectedVersion else {
            throw TCFEncodingError(field: "Version", allowed: "\(expectedVersion)", value: "\(version)")
        }
        try FieldCheck.fits(created, "Created")
        try FieldCheck.fits(lastUpdated, "LastUpdated")
        try FieldCheck.fits(cmpId, 12, "CmpId")
        try FieldCheck.fits(cmpVersion, 12, "CmpVersion")
        try FieldCheck.fits(consentScreen, 6, "ConsentScreen")
        try FieldCheck.letters(consentLanguage, "ConsentLanguage")
        try FieldCheck.fits(vendorListVersion, 12, "VendorListVersion")
    }

    /// Writes the header's 132 bits.
    package func write(to writer: inout BitWriter) {
        writer.write(version, 6)
        writer.write(Int(created.deciseconds), 36)
        writer.write(Int(lastUpdated.deciseconds), 36)
        writer.write(cmpId, 12)
        writer.write(cmpVersion, 12)
        writer.write(consentScreen, 6)
        writer.writeLetters(consentLanguage)
        writer.write(vendorListVersion, 12)
    }
}
