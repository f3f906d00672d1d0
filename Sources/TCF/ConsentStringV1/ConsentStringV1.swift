/// A decoded TCF v1.1 consent string (the `euconsent` cookie and `IABConsent_ConsentString`).
///
/// Field names follow "Consent string and vendor list formats v1.1". TCF v1 strings have not
/// been valid for use since 2020-09-30; they still decode (old apps and archives carry them),
/// and ``validation`` says so.
public struct ConsentStringV1: Sendable, Equatable {
    /// `Version`: 1.
    public let version: Int
    /// `Created`: when the string was first created, to the decisecond.
    public let created: TCFTimestamp
    /// `LastUpdated`: when the string was last updated, to the decisecond.
    public let lastUpdated: TCFTimestamp
    /// `CmpId`: the CMP that last updated the string.
    public let cmpId: Int
    /// `CmpVersion`: the CMP's version.
    public let cmpVersion: Int
    /// `ConsentScreen`: the CMP-specific screen where consent was given.
    public let consentScreen: Int
    /// `ConsentLanguage`: the ISO 639-1 language, upper-case (`EN`).
    public let consentLanguage: String
    /// `VendorListVersion`: the vendor list version used.
    public let vendorListVersion: Int
    /// `PurposesAllowed`: the purposes (1-24) consented to.
    public let purposesAllowed: IDSet
    /// `MaxVendorId`: the highest vendor id the string speaks for; vendors above it have no
    /// consent.
    public let maxVendorId: Int
    /// The vendors (1-`maxVendorId`) consented to, whichever encoding the string used.
    public let vendorConsents: IDSet
    /// Text after a `.` in the string, kept verbatim: v1 has no segments, but some SDKs
    /// appended placeholders. Re-encoding writes them back.
    public let extraSegments: [String]

    /// Creates a v1.1 consent string value; vendor ids must lie in `1...maxVendorId`.
    public init(
        version: Int = 1,
        created: TCFTimestamp,
        lastUpdated: TCFTimestamp,
        cmpId: Int,
        cmpVersion: Int,
        consentScreen: Int,
        consentLanguage: String,
        vendorListVersion: Int,
        purposesAllowed: IDSet,
        maxVendorId: Int,
        vendorConsents: IDSet,
        extraSegments: [String] = []
    ) {
        self.version = version
        self.created = created
        self.lastUpdated = lastUpdated
        self.cmpId = cmpId
        self.cmpVersion = cmpVersion
        self.consentScreen = consentScreen
        self.consentLanguage = consentLanguage
        self.vendorListVersion = vendorListVersion
        self.purposesAllowed = purposesAllowed
        self.maxVendorId = maxVendorId
        self.vendorConsents = vendorConsents
        self.extraSegments = extraSegments
    }

    /// Whether `vendorId` has consent for every purpose in `purposeIds` (the v1 rule: vendor
    /// consent and purpose consent are separate signals, and both must be given).
    public func isAllowed(vendorId: Int, purposeIds: [Int] = []) -> Bool {
        vendorConsents.contains(vendorId) && purposeIds.allSatisfy(purposesAllowed.contains)
    }
}

extension ConsentStringV1 {
    /// Decodes a v1.1 consent string.
    ///
    /// Accepts `=` padding and the standard base64 alphabet, which some v1 SDKs emitted.
    /// Text after a `.` is kept in ``extraSegments``, not interpreted.
    ///
    /// - Throws: ``TCFDecodingError`` for bad characters, a version other than 1, truncated
    ///   data (a bitfield shorter than `MaxVendorId` is an error, never "consented"), a range
    ///   ending before it starts, or a vendor id outside `1...MaxVendorId`.
    public init(decoding string: String) throws(TCFDecodingError) {
        let parts = string.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let value = try Segment.read(parts[0], index: 0) { (reader: inout BitReader) throws(TCFDecodingError) in
            let header = try CommonHeader(reading: &reader, expectedVersion: 1)
            let purposesAllowed = try reader.readBitfield(24, "PurposesAllowed")
            let vendors = try reader.readVersion1VendorSection("vendorConsents")
            return ConsentStringV1(
                version: header.version, created: header.created, lastUpdated: header.lastUpdated, cmpId: header.cmpId,
                cmpVersion: header.cmpVersion,
                consentScreen: header.consentScreen, consentLanguage: header.consentLanguage,
                vendorListVersion: header.vendorListVersion,
                purposesAllowed: purposesAllowed, maxVendorId: vendors.maxVendorId, vendorConsents: vendors.ids)
        }
        let extra = parts.count > 1 ? parts[1].split(separator: ".", omittingEmptySubsequences: false).map(String.init) : []
        self.init(
            version: value.version, created: value.created, lastUpdated: value.lastUpdated, cmpId: value.cmpId,
            cmpVersion: value.cmpVersion, consentScreen: value.consentScreen, consentLanguage: value.consentLanguage,
            vendorListVersion: value.vendorListVersion, purposesAllowed: value.purposesAllowed,
            maxVendorId: value.maxVendorId, vendorConsents: value.vendorConsents, extraSegments: extra)
    }

    /// The fields shared by every TCF string.
    private var header: CommonHeader {
        CommonHeader(
            version: version, created: created, lastUpdated: lastUpdated, cmpId: cmpId, cmpVersion: cmpVersion,
            consentScreen: consentScreen, consentLanguage: consentLanguage, vendorListVersion: vendorListVersion)
    }

    /// Encodes the value as a v1.1 consent string, choosing the shortest of the bitfield and
    /// the two range encodings (`DefaultConsent` 0 or 1).
    ///
    /// - Throws: ``TCFEncodingError`` when a field does not fit its bits or a vendor id lies
    ///   above `maxVendorId`.
    public func encoded() throws(TCFEncodingError) -> String {
        try header.check(expectedVersion: 1)
        try FieldCheck.ids(purposesAllowed, max: 24, "PurposesAllowed")
        try FieldCheck.fits(maxVendorId, 16, "MaxVendorId")
        try FieldCheck.ids(vendorConsents, max: maxVendorId, "vendorConsents")
        var writer = BitWriter(capacity: 32 + maxVendorId / 8)
        header.write(to: &writer)
        writer.writeBitfield(purposesAllowed, count: 24)
        writer.writeVersion1VendorSection(vendorConsents, maxVendorId: maxVendorId)
        return ([writer.base64URL()] + extraSegments).joined(separator: ".")
    }
}
