import ConsentKitFormats
import Foundation
import TCF

/// The IAB CMP API v2's `TCData` object for one TC string: what `__tcfapi('getTCData', 2, …)`
/// hands a page, built here so that the app's web views and consentd give pages the same JSON.
///
/// Field names are the API's ("CMP JS API v2", `TCData`). The fields the JS API adds per call
/// (`eventStatus`, `cmpStatus`, `listenerId`) are not part of this value. Each id map encodes
/// as a JSON object with a string key for every id from 1 to the highest id in the set, `true`
/// for members and `false` for the others (iabtcf-es's form); an empty set is `{}`.
///
/// **Bounded by the vendor list in use.** A value built from a TC string is cut to
/// ``Bounds`` (the list's vendors and purposes), which the initializer requires: its size is
/// that of the list, whatever the string names. Restrictions of a purpose id the list does not
/// define are left out, not refused: the string's format ("Consent string and vendor list
/// formats v2", section "The core string", `PubRestrictionEntry.PurposeId`, 6 bits) can write
/// ids 0–63, decoders (iabtcf-es among them) read them, and such a string stays valid and is
/// kept as given in ``tcString``; only the purposes of the list are defined.
///
/// ```swift
/// let text = "CQSbk4AQSbk4ANwAAAENAwCgAAAAAAAAAAYgACPAAAAA.IDKQA4AAgAKAGQAygAAA"
/// let data = TCData(tcString: text, decoded: try TCString(decoding: text), addtlConsent: nil, cmp: cmp,
///                   bounds: TCData.Bounds(vendorList: list))
/// try data.json()   // {"cmpId":…,"gdprApplies":true,"isServiceSpecific":true,…}
/// ```
public struct TCData: Encodable, Sendable, Equatable {
    /// `tcString`: the TC string exactly as it was given (never re-encoded); nil when GDPR does
    /// not apply.
    public let tcString: String?
    /// `tcfPolicyVersion`: the TCF policy version of the string (4 for TCF 2.2, 5 for 2.3).
    public let tcfPolicyVersion: Int
    /// `cmpId`: the registered id of the CMP answering, which need not be the one that wrote
    /// the string.
    public let cmpId: Int
    /// `cmpVersion`: the answering CMP's version.
    public let cmpVersion: Int
    /// `gdprApplies`: true for a value built from a TC string, false for ``notApplicable(cmp:tcfPolicyVersion:)``.
    public let gdprApplies: Bool
    /// `isServiceSpecific`: the string's `IsServiceSpecific`; nil when GDPR does not apply.
    public let isServiceSpecific: Bool?
    /// `useNonStandardTexts`: the string's `UseNonStandardTexts`; nil when GDPR does not apply.
    public let useNonStandardTexts: Bool?
    /// `publisherCC`: the string's `PublisherCC` (`AA` unknown); nil when GDPR does not apply.
    public let publisherCC: String?
    /// `purposeOneTreatment`: the string's `PurposeOneTreatment`; nil when GDPR does not apply.
    public let purposeOneTreatment: Bool?
    /// `purpose`: the purposes consented to and under legitimate interest; nil when GDPR does
    /// not apply.
    public let purpose: Purpose?
    /// `vendor`: the vendors' consents, legitimate interests and disclosure, of the vendors of
    /// the ``Bounds`` only; nil when GDPR does not apply.
    public let vendor: Vendor?
    /// `specialFeatureOptins`: the special features opted in to; nil when GDPR does not apply.
    public let specialFeatureOptins: IDSet?
    /// `publisher`: the publisher's own purposes and its restrictions; nil when GDPR does not
    /// apply.
    public let publisher: Publisher?
    /// `addtlConsent`: Google's Additional Consent string (`2~…~dv.…`), an extension of the
    /// object Google's tags read; left out of the JSON when nil.
    public let addtlConsent: String?

    /// `TCData.purpose`: the purposes of the core string.
    public struct Purpose: Encodable, Sendable, Equatable {
        /// `consents`: the string's `PurposesConsent`.
        public let consents: IDSet
        /// `legitimateInterests`: the string's `PurposesLITransparency`.
        public let legitimateInterests: IDSet

        /// Encodes both sets as id maps.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: TCDataKey.self)
            try container.encodeIDMap(consents, forKey: "consents")
            try container.encodeIDMap(legitimateInterests, forKey: "legitimateInterests")
        }
    }

    /// `TCData.vendor`: the vendors of the core string and of the DisclosedVendors segment.
    public struct Vendor: Encodable, Sendable, Equatable {
        /// `consents`: the vendor consent section.
        public let consents: IDSet
        /// `legitimateInterests`: the vendor legitimate-interest section.
        public let legitimateInterests: IDSet
        /// `disclosedVendors`: the DisclosedVendors segment; empty when the string has none.
        public let disclosedVendors: IDSet

        /// Encodes the three sets as id maps.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: TCDataKey.self)
            try container.encodeIDMap(consents, forKey: "consents")
            try container.encodeIDMap(legitimateInterests, forKey: "legitimateInterests")
            try container.encodeIDMap(disclosedVendors, forKey: "disclosedVendors")
        }
    }

    /// `TCData.publisher.customPurpose`: the publisher's custom purposes.
    public struct CustomPurpose: Encodable, Sendable, Equatable {
        /// `consents`: the PublisherTC segment's `CustomPurposesConsent`.
        public let consents: IDSet
        /// `legitimateInterests`: the PublisherTC segment's `CustomPurposesLITransparency`.
        public let legitimateInterests: IDSet

        /// Encodes both sets as id maps.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: TCDataKey.self)
            try container.encodeIDMap(consents, forKey: "consents")
            try container.encodeIDMap(legitimateInterests, forKey: "legitimateInterests")
        }
    }

    /// `TCData.publisher`: the PublisherTC segment (empty sets when the string has none) and
    /// the core string's publisher restrictions.
    public struct Publisher: Encodable, Sendable, Equatable {
        /// `consents`: `PubPurposesConsent`.
        public let consents: IDSet
        /// `legitimateInterests`: `PubPurposesLITransparency`.
        public let legitimateInterests: IDSet
        /// `customPurpose`: the custom purposes' consents and legitimate interests.
        public let customPurpose: CustomPurpose
        /// `restrictions`: purpose id → vendor id → restriction type, for every vendor of the
        /// ``Bounds`` that a restriction of a purpose of the bounds names. When a vendor is
        /// listed more than once for a purpose, the last entry wins, as in
        /// ``TCString/restrictionType(vendorId:purposeId:)``; a vendor whose
        /// last entry is type 3 (undefined in the spec, which allows only 0, 1 and 2) is left
        /// out. JSON: `{"2":{"755":1}}`.
        public let restrictions: [Int: [Int: PublisherRestriction.RestrictionType]]

        /// Encodes the sets as id maps and the restrictions as nested objects of numbers.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: TCDataKey.self)
            try container.encodeIDMap(consents, forKey: "consents")
            try container.encodeIDMap(legitimateInterests, forKey: "legitimateInterests")
            try container.encode(customPurpose, forKey: "customPurpose")
            var byPurpose = container.nestedContainer(keyedBy: TCDataKey.self, forKey: "restrictions")
            for (purposeId, vendors) in restrictions.sorted(by: { $0.key < $1.key }) {
                var byVendor = byPurpose.nestedContainer(keyedBy: TCDataKey.self, forKey: TCDataKey(id: purposeId))
                for (vendorId, type) in vendors.sorted(by: { $0.key < $1.key }) {
                    try byVendor.encode(type.rawValue, forKey: TCDataKey(id: vendorId))
                }
            }
        }
    }

    /// The object for `tcString`, which `decoded` is the decoding of, answered by `cmp`, cut to
    /// `bounds` (the vendor list in use: ``Bounds/init(vendorList:)``).
    ///
    /// `tcString` is kept exactly as given; `cmpId` and `cmpVersion` are `cmp`'s (the CMP
    /// answering, not necessarily the one that wrote the string); `gdprApplies` is true; every
    /// other field comes from `decoded`, the vendor sets and restrictions cut to `bounds`. A
    /// string without a DisclosedVendors segment gives an empty `disclosedVendors`, one without
    /// a PublisherTC segment empty publisher sets.
    ///
    /// Time and size are those of the bounds, not of the string: each restriction entry costs
    /// a few word operations over the bounds' vendors, and each (purpose, vendor) is written once.
    public init(tcString: String, decoded: TCString, addtlConsent: String?, cmp: CMPIdentity, bounds: Bounds) {
        self.tcString = tcString
        tcfPolicyVersion = decoded.tcfPolicyVersion
        cmpId = cmp.cmpId
        cmpVersion = cmp.cmpVersion
        gdprApplies = true
        isServiceSpecific = decoded.isServiceSpecific
        useNonStandardTexts = decoded.useNonStandardTexts
        publisherCC = decoded.publisherCC
        purposeOneTreatment = decoded.purposeOneTreatment
        purpose = Purpose(consents: decoded.purposesConsent, legitimateInterests: decoded.purposesLITransparency)
        vendor = Vendor(
            consents: decoded.vendorConsents.intersection(bounds.vendorIds),
            legitimateInterests: decoded.vendorLegitimateInterests.intersection(bounds.vendorIds),
            disclosedVendors: (decoded.disclosedVendors ?? IDSet()).intersection(bounds.vendorIds))
        specialFeatureOptins = decoded.specialFeatureOptIns
        let publisherTC = decoded.publisherTC ?? PublisherTC()
        publisher = Publisher(
            consents: publisherTC.pubPurposesConsent, legitimateInterests: publisherTC.pubPurposesLITransparency,
            customPurpose: CustomPurpose(
                consents: publisherTC.customPurposesConsent, legitimateInterests: publisherTC.customPurposesLITransparency),
            restrictions: Self.restrictions(decoded.publisherRestrictions, bounds: bounds))
        self.addtlConsent = addtlConsent
    }

    /// The object when GDPR does not apply: only `gdprApplies` (false), `tcfPolicyVersion`,
    /// `cmpId` and `cmpVersion`, as the API specifies.
    public static func notApplicable(cmp: CMPIdentity, tcfPolicyVersion: Int) -> TCData {
        TCData(notApplicable: cmp, tcfPolicyVersion: tcfPolicyVersion)
    }

    private init(notApplicable cmp: CMPIdentity, tcfPolicyVersion: Int) {
        tcString = nil
        self.tcfPolicyVersion = tcfPolicyVersion
        cmpId = cmp.cmpId
        cmpVersion = cmp.cmpVersion
        gdprApplies = false
        isServiceSpecific = nil
        useNonStandardTexts = nil
        publisherCC = nil
        purposeOneTreatment = nil
        purpose = nil
        vendor = nil
        specialFeatureOptins = nil
        publisher = nil
        addtlConsent = nil
    }

    /// How ``json(idMaps:)`` writes the id maps (`purpose`, `vendor`, `specialFeatureOptins`
    /// and the `publisher` sets; never `publisher.restrictions`).
    public enum IDMapForm: Sendable, Equatable {
        /// `{"1":true,"2":false,…}`: a key for every id from 1 to the largest in the set, the
        /// API's own form, which pages read.
        case objects
        /// `"101"`: the in-app specs' binary string, character n being id n+1, up to the largest
        /// id in the set (`""` for an empty one): one byte per id instead of about twelve, the
        /// form of consentd's `POST /v1/web/session` answer, which `ConsentKitTCF.update` (the
        /// web CMP's `tcfapi.js`) expands back into ``IDMapForm/objects`` before any page reads it.
        case binaryStrings
    }

    /// The object as compact JSON with sorted keys and unescaped slashes, the id maps in `form`:
    /// in ``IDMapForm/objects`` (the default), the text the app's web views and consentd's
    /// choices hand to pages; in ``IDMapForm/binaryStrings``, consentd's session answer. Keys
    /// are in code-point order (`"10"` before `"9"`, `"tcString"` before `"tcfPolicyVersion"`), which is what `JSONEncoder` writes on Linux
    /// with `[.sortedKeys, .withoutEscapingSlashes]` (tested) and Python's `sort_keys`; it is
    /// written directly, so the text is the same on every platform (on Apple platforms
    /// `JSONEncoder` keeps an older numeric, case-insensitive order for apps built with older
    /// SDKs) and fast: for a string with vendor ids up to 1,400 the encoder took about 0.4 s in
    /// a debug build.
    ///
    /// `<` is written as `\u003c`, so the text never holds `</script>`.
    ///
    /// - Throws: ``TCDataTooLarge`` when the text would pass ``maximumJSONSize`` (only a vendor
    ///   list of tens of thousands of vendors makes one that large); nothing past the ceiling
    ///   and one more map is written.
    public func json(idMaps form: IDMapForm = .objects) throws(TCDataTooLarge) -> String {
        var out = JSONWriter(capacity: 4096)
        func check(_ field: String) throws(TCDataTooLarge) {
            if out.byteCount > Self.maximumJSONSize { throw TCDataTooLarge(limit: Self.maximumJSONSize, field: field) }
        }
        out.beginObject()
        if let addtlConsent { out.field("addtlConsent", addtlConsent) }
        out.field("cmpId", cmpId)
        out.field("cmpVersion", cmpVersion)
        out.field("gdprApplies", gdprApplies)
        if let isServiceSpecific { out.field("isServiceSpecific", isServiceSpecific) }
        if let publisher {
            out.key("publisher")
            out.beginObject()
            out.idMap("consents", publisher.consents, form)
            try check("publisher.consents")
            out.key("customPurpose")
            out.beginObject()
            out.idMap("consents", publisher.customPurpose.consents, form)
            out.idMap("legitimateInterests", publisher.customPurpose.legitimateInterests, form)
            out.endObject()
            out.idMap("legitimateInterests", publisher.legitimateInterests, form)
            out.key("restrictions")
            out.beginObject()
            for (purposeId, vendors) in publisher.restrictions.map({ (String($0.key), $0.value) }).sorted(by: { $0.0 < $1.0 }) {
                out.key(purposeId)
                out.beginObject()
                for (vendorId, type) in vendors.map({ (String($0.key), $0.value) }).sorted(by: { $0.0 < $1.0 }) {
                    out.field(vendorId, type.rawValue)
                }
                out.endObject()
                try check("publisher.restrictions")
            }
            out.endObject()
            out.endObject()
        }
        if let publisherCC { out.field("publisherCC", publisherCC) }
        if let purpose {
            out.key("purpose")
            out.beginObject()
            out.idMap("consents", purpose.consents, form)
            out.idMap("legitimateInterests", purpose.legitimateInterests, form)
            out.endObject()
        }
        if let purposeOneTreatment { out.field("purposeOneTreatment", purposeOneTreatment) }
        if let specialFeatureOptins { out.idMap("specialFeatureOptins", specialFeatureOptins, form) }
        if let tcString { out.field("tcString", tcString) }
        out.field("tcfPolicyVersion", tcfPolicyVersion)
        if let useNonStandardTexts { out.field("useNonStandardTexts", useNonStandardTexts) }
        if let vendor {
            out.key("vendor")
            out.beginObject()
            out.idMap("consents", vendor.consents, form)
            try check("vendor.consents")
            out.idMap("disclosedVendors", vendor.disclosedVendors, form)
            try check("vendor.disclosedVendors")
            out.idMap("legitimateInterests", vendor.legitimateInterests, form)
            try check("vendor.legitimateInterests")
            out.endObject()
        }
        out.endObject()
        try check("the object")
        return String(decoding: out.bytes, as: UTF8.self)
    }

    /// Encodes the API's fields; nil fields are left out.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: TCDataKey.self)
        try container.encodeIfPresent(tcString, forKey: "tcString")
        try container.encode(tcfPolicyVersion, forKey: "tcfPolicyVersion")
        try container.encode(cmpId, forKey: "cmpId")
        try container.encode(cmpVersion, forKey: "cmpVersion")
        try container.encode(gdprApplies, forKey: "gdprApplies")
        try container.encodeIfPresent(isServiceSpecific, forKey: "isServiceSpecific")
        try container.encodeIfPresent(useNonStandardTexts, forKey: "useNonStandardTexts")
        try container.encodeIfPresent(publisherCC, forKey: "publisherCC")
        try container.encodeIfPresent(purposeOneTreatment, forKey: "purposeOneTreatment")
        try container.encodeIfPresent(purpose, forKey: "purpose")
        try container.encodeIfPresent(vendor, forKey: "vendor")
        if let specialFeatureOptins { try container.encodeIDMap(specialFeatureOptins, forKey: "specialFeatureOptins") }
        try container.encodeIfPresent(publisher, forKey: "publisher")
        try container.encodeIfPresent(addtlConsent, forKey: "addtlConsent")
    }

    /// Purpose id → vendor id → type, for the purposes and vendors of `bounds`: the last entry
    /// for a vendor and purpose winning; a vendor whose last entry is type 3 left out, and a
    /// purpose left with no vendor.
    ///
    /// The entries are read from the last, each adding only the vendors no later entry decided:
    /// every (purpose, vendor) of the bounds is written at most once, however many entries name
    /// it, and an entry costs set operations over the bounds' vendors, not over the ids it names.
    static func restrictions(_ list: [PublisherRestriction], bounds: Bounds) -> [Int: [Int: PublisherRestriction.RestrictionType]] {
        var byPurpose: [Int: [Int: PublisherRestriction.RestrictionType]] = [:]
        var decided: [Int: IDSet] = [:]
        for restriction in list.reversed() where bounds.purposeIds.contains(restriction.purposeId) {
            let earlier = decided[restriction.purposeId] ?? IDSet()
            let fresh = restriction.vendorIds.intersection(bounds.vendorIds).subtracting(earlier)
            guard !fresh.isEmpty else { continue }
            decided[restriction.purposeId] = earlier.union(fresh)
            guard restriction.restrictionType != .undefined else { continue }
            var vendors = byPurpose[restriction.purposeId] ?? [:]
            for vendorId in fresh { vendors[vendorId] = restriction.restrictionType }
            byPurpose[restriction.purposeId] = vendors
        }
        return byPurpose
    }
}

/// A key of the TCData object: a field name, or an id written as a decimal string.
struct TCDataKey: CodingKey, ExpressibleByStringLiteral {
    let stringValue: String
    var intValue: Int? { nil }

    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { return nil }
    init(stringLiteral value: String) { stringValue = value }
    init(id: Int) { stringValue = String(id) }
}

extension KeyedEncodingContainer where K == TCDataKey {
    /// `ids` as `{"1": bool, …, "<max>": true}`: every id from 1 to the set's largest; `{}`
    /// when it is empty.
    mutating func encodeIDMap(_ ids: IDSet, forKey key: TCDataKey) throws {
        var map = nestedContainer(keyedBy: TCDataKey.self, forKey: key)
        let max = ids.max
        guard max > 0 else { return }
        for id in 1...max { try map.encode(ids.contains(id), forKey: TCDataKey(id: id)) }
    }
}

extension JSONWriter {
    /// `ids` under `name` in `form`: as ``TCData/IDMapForm/objects``, `{"1":bool,…}`, every id
    /// from 1 to the largest, keys in code-point order (`"1","10","100","11",…,"2"`), `{}` when
    /// empty; as ``TCData/IDMapForm/binaryStrings``, `"101"`, `""` when empty.
    mutating func idMap(_ name: String, _ ids: IDSet, _ form: TCData.IDMapForm) {
        if form == .binaryStrings {
            field(name, BinaryString.encode(ids, length: ids.max))
            return
        }
        key(name)
        beginObject()
        let max = ids.max
        // Walks 1...max in the order of the ids' decimal texts: down a digit while the id stays
        // in range, else on to the next sibling, up again past each trailing 9 or the end.
        var id = 1
        for _ in 0..<max {
            field(String(id), ids.contains(id))
            if id * 10 <= max {
                id *= 10
            } else {
                if id >= max { id /= 10 }
                id += 1
                while id % 10 == 0 { id /= 10 }
            }
        }
        endObject()
    }
}
