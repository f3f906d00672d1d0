import ConsentKitFormats
import GPP

/// What the GPP CMP API (`__gpp`, v1.1) answers for one GPP string: the PingReturn fields a
/// CMP owns, built here so that consentd's pages and an app's web views hand `ConsentKitGPP`
/// the same state (`Resources/cmp/gppapi.js`, decision record 0029).
///
/// ```swift
/// let data = try GPPData(gppString: "DBABBg~BVVqAAEABgA.QA", applicableSections: [8])
/// data.json()   // {"applicableSections":[8],"gppString":"DBABBg~…","parsedSections":{"usca":[{…},{"SubsectionType":1,"Gpc":false}]},…}
/// ```
public struct GPPData: Sendable, Equatable {
    /// The string, decoded (after ``bounded(by:)``, its TCF section kept to the bounds).
    public let gpp: GPPString
    /// `gppString`: the string exactly as given (or as encoded from ``gpp``).
    public let gppString: String
    /// `applicableSections`: the ids in force (at most two), or `[-1]` when none applies.
    public let applicableSections: [Int]

    /// `sectionList`: the ids of the string's sections, in order.
    public var sectionList: [Int] { gpp.sectionIds }

    /// `supportedAPIs`: every section this CMP writes or reads, as `"id:prefix"` (`"8:usca"`).
    public static let supportedAPIs: [String] = GPPSectionID.allCases.map { "\($0.rawValue):\($0.prefix)" }

    /// The data of `gpp`, encoded; `applicableSections` empty (or only `-1`) means none applies.
    ///
    /// - Throws: ``GPPEncodingError`` when a section cannot be encoded.
    public init(_ gpp: GPPString, applicableSections: [Int]) throws(GPPEncodingError) {
        self.gpp = gpp
        gppString = try gpp.encoded()
        self.applicableSections = Self.pingForm(applicableSections)
    }

    /// The data of a stored string, kept as it was written.
    ///
    /// - Throws: ``GPPDecodingError`` when it does not decode.
    public init(gppString: String, applicableSections: [Int]) throws(GPPDecodingError) {
        gpp = try GPPString(decoding: gppString)
        self.gppString = gppString
        self.applicableSections = Self.pingForm(applicableSections)
    }

    /// No section: the header alone (`DBAA`), none applies.
    public static let empty = GPPData(gpp: GPPString(), gppString: "DBAA", applicableSections: [-1])

    init(gpp: GPPString, gppString: String, applicableSections: [Int]) {
        self.gpp = gpp
        self.gppString = gppString
        self.applicableSections = applicableSections
    }

    /// The ping's form of a list of applicable ids: `[-1]` for none.
    static func pingForm(_ ids: [Int]) -> [Int] {
        let applicable = ids.filter { $0 > 0 }
        return applicable.isEmpty ? [-1] : applicable
    }

    /// Writes the fields, `applicableSections`, `gppString`, `parsedSections` (in the CMP API's
    /// form: ``GPP/GPPString/cmpAPIParsedSectionsJSON()``), `sectionList` and `supportedAPIs`,
    /// into the object `writer` has open, so a caller can add fields of its own.
    public func writeFields(to writer: inout JSONWriter) {
        writer.field("applicableSections", applicableSections)
        writer.key("gppString"); writer.string(gppString)
        writer.key("parsedSections"); writer.raw(gpp.cmpAPIParsedSectionsJSON())
        writer.field("sectionList", sectionList)
        writer.key("supportedAPIs")
        writer.beginArray()
        for api in Self.supportedAPIs { writer.string(api) }
        writer.endArray()
    }

    /// The state as one JSON object (``writeFields(to:)``).
    public func json() -> String {
        var writer = JSONWriter(capacity: 1024, escaping: .standard)
        writer.beginObject()
        writeFields(to: &writer)
        writer.endObject()
        return writer.text
    }
}
