import ConsentKitFormats
import Foundation

extension VendorList {
    /// Decodes a vendor list in any published format: TCF v1.1 `vendorlist.json`, or a TCF v2
    /// `vendor-list.json` of specification version 2 or 3, of any TCF policy version (its
    /// `standardTexts`, an object of texts by section, included).
    ///
    /// Sections may be JSON objects keyed by id (v2, v3) or arrays (v1). Members the formats do
    /// not define are skipped, so additions to the format do not break loading; a top-level
    /// `language` (which consentd adds to a translated list) sets ``language``.
    ///
    /// - Throws: ``VendorListError`` naming the JSON path and byte offset of the first problem:
    ///   invalid JSON, a value of the wrong type, a missing required member (`vendorListVersion`,
    ///   `purposes`, `vendors`, or an entry's `id` and `name`), an id below 1 or one that does
    ///   not match its key, or an unknown `gvlSpecificationVersion`.
    public init(jsonData: Data) throws(VendorListError) {
        var reader = JSONReader(Array(jsonData))
        self = try reader.readDocument { reader throws(VendorListError) in
            let start = reader.offset
            let document = try VendorListDocument.read(from: &reader)
            func required<T>(_ value: T?, _ key: String) throws(VendorListError) -> T {
                guard let value else { throw reader.error(.missingKey(key), at: start) }
                return value
            }
            return VendorList(
                gvlSpecificationVersion: document.gvlSpecificationVersion ?? 1,
                vendorListVersion: try required(document.vendorListVersion, "vendorListVersion"),
                tcfPolicyVersion: document.tcfPolicyVersion,
                lastUpdated: document.lastUpdated,
                language: document.language ?? "EN",
                purposes: try required(document.purposes, "purposes"),
                specialPurposes: document.specialPurposes ?? [:],
                features: document.features ?? [:],
                specialFeatures: document.specialFeatures ?? [:],
                stacks: document.stacks ?? [:],
                dataCategories: document.dataCategories ?? [:],
                standardTexts: document.standardTexts ?? [:],
                vendors: try required(document.vendors, "vendors")
            )
        }
    }
}

extension VendorListTranslation {
    /// Decodes a translation file (`purposes-xx.json`).
    ///
    /// - Throws: ``VendorListError`` as ``VendorList/init(jsonData:)`` does; no member is required
    ///   at the top level, but every entry needs its `id` and `name`.
    public init(jsonData: Data) throws(VendorListError) {
        var reader = JSONReader(Array(jsonData))
        let document = try reader.readDocument { reader throws(VendorListError) in
            try VendorListDocument.read(from: &reader)
        }
        self.init(
            vendorListVersion: document.vendorListVersion,
            purposes: document.purposes ?? [:],
            specialPurposes: document.specialPurposes ?? [:],
            features: document.features ?? [:],
            specialFeatures: document.specialFeatures ?? [:],
            stacks: document.stacks ?? [:],
            dataCategories: document.dataCategories ?? [:],
            standardTexts: document.standardTexts ?? [:]
        )
    }
}

/// The top-level members of a vendor list or translation file, as read; which are required is
/// up to the caller.
private struct VendorListDocument {
    var gvlSpecificationVersion: Int?
    var vendorListVersion: Int?
    var tcfPolicyVersion: Int?
    var lastUpdated: Date?
    var language: String?
    var purposes: [Int: Declaration]?
    var specialPurposes: [Int: Declaration]?
    var features: [Int: Declaration]?
    var specialFeatures: [Int: Declaration]?
    var stacks: [Int: Stack]?
    var dataCategories: [Int: Declaration]?
    var standardTexts: [String: String]?
    var vendors: [Int: Vendor]?

    static func read(from reader: inout JSONReader) throws(VendorListError) -> VendorListDocument {
        var document = VendorListDocument()
        try reader.readObject { reader, key throws(VendorListError) in
            switch key {
            case "gvlSpecificationVersion":
                let at = reader.offset
                let version = try reader.readInt()
                guard (1...3).contains(version) else { throw reader.error(.unsupportedVersion(version), at: at) }
                document.gvlSpecificationVersion = version
            case "vendorListVersion": document.vendorListVersion = try reader.readInt()
            case "tcfPolicyVersion": document.tcfPolicyVersion = try reader.readInt()
            case "lastUpdated": document.lastUpdated = try reader.readDate()
            case "language":
                // Not in the IAB's files: consentd names the language of a translated list.
                let at = reader.offset
                let language = try reader.readString()
                guard (2...3).contains(language.count), language.allSatisfy({ $0.isASCII && $0.isLetter }) else {
                    throw reader.error(.invalidValue("\"\(language)\" is not a language code"), at: at)
                }
                document.language = language.uppercased()
            case "purposes": document.purposes = try reader.readEntries(Declaration.read)
            case "specialPurposes": document.specialPurposes = try reader.readEntries(Declaration.read)
            case "features": document.features = try reader.readEntries(Declaration.read)
            case "specialFeatures": document.specialFeatures = try reader.readEntries(Declaration.read)
            case "stacks": document.stacks = try reader.readEntries(Stack.read)
            case "dataCategories": document.dataCategories = try reader.readEntries(Declaration.read)
            case "standardTexts":
                var texts: [String: String] = [:]
                try reader.readObject { reader, key throws(VendorListError) in texts[key] = try reader.readString() }
                document.standardTexts = texts
            case "vendors": document.vendors = try reader.readEntries(Vendor.read)
            default: try reader.skipValue()
            }
        }
        return document
    }
}

extension Declaration {
    fileprivate static func read(from reader: inout JSONReader) throws(VendorListError) -> Declaration {
        let start = reader.offset
        var id: Int?, name: String?, description: String?, descriptionLegal: String?
        var illustrations: [String] = [], consentable = true, rightToObject = true
        try reader.readObject { reader, key throws(VendorListError) in
            switch key {
            case "id": id = try reader.readID()
            case "name": name = try reader.readString()
            case "description": description = try reader.readString()
            case "descriptionLegal": descriptionLegal = try reader.readString()
            case "illustrations":
                try reader.readArray { reader throws(VendorListError) in illustrations.append(try reader.readString()) }
            case "consentable": consentable = try reader.readBool()
            case "rightToObject": rightToObject = try reader.readBool()
            default: try reader.skipValue()
            }
        }
        guard let id else { throw reader.error(.missingKey("id"), at: start) }
        guard let name else { throw reader.error(.missingKey("name"), at: start) }
        return Declaration(
            id: id, name: name, description: description ?? "", descriptionLegal: descriptionLegal,
            illustrations: illustrations, consentable: consentable, rightToObject: rightToObject
        )
    }
}

extension Stack {
    fileprivate static func read(from reader: inout JSONReader) throws(VendorListError) -> Stack {
        let start = reader.offset
        var id: Int?, name: String?, description = ""
        var purposes = IDSet(), specialFeatures = IDSet()
        try reader.readObject { reader, key throws(VendorListError) in
            switch key {
            case "id": id = try reader.readID()
            case "name": name = try reader.readString()
            case "description": description = try reader.readString()
            case "purposes": purposes = try reader.readIDSet()
            case "specialFeatures": specialFeatures = try reader.readIDSet()
            default: try reader.skipValue()
            }
        }
        guard let id else { throw reader.error(.missingKey("id"), at: start) }
        guard let name else { throw reader.error(.missingKey("name"), at: start) }
        return Stack(id: id, purposes: purposes, specialFeatures: specialFeatures, name: name, description: description)
    }
}

extension Vendor {
    fileprivate static func read(from reader: inout JSONReader) throws(VendorListError) -> Vendor {
        let start = reader.offset
        var id: Int?, name: String?
        var purposes = IDSet(), legIntPurposes = IDSet(), flexiblePurposes = IDSet(), specialPurposes = IDSet()
        var features = IDSet(), specialFeatures = IDSet(), dataDeclaration = IDSet()
        var dataRetention: DataRetention?, urls: [URLs] = [], policyUrl: String?, deletedDate: Date?
        var httpGetLimit: Int?, usesCookies: Bool?, cookieMaxAgeSeconds: Int?, cookieRefresh: Bool?
        var usesNonCookieAccess: Bool?, deviceStorageDisclosureUrl: String?
        try reader.readObject { reader, key throws(VendorListError) in
            switch key {
            case "id": id = try reader.readID()
            case "name": name = try reader.readString()
            case "purposes", "purposeIds": purposes = try reader.readIDSet()
            case "legIntPurposes", "legIntPurposeIds": legIntPurposes = try reader.readIDSet()
            case "flexiblePurposes": flexiblePurposes = try reader.readIDSet()
            case "specialPurposes": specialPurposes = try reader.readIDSet()
            case "features", "featureIds": features = try reader.readIDSet()
            case "specialFeatures": specialFeatures = try reader.readIDSet()
            case "dataDeclaration": dataDeclaration = try reader.readIDSet()
            case "dataRetention": dataRetention = try DataRetention.read(from: &reader)
            case "urls":
                try reader.readArray { reader throws(VendorListError) in urls.append(try URLs.read(from: &reader)) }
            case "policyUrl": policyUrl = try reader.readString()
            case "deletedDate": deletedDate = try reader.readNull() ? nil : try reader.readDate()
            case "overflow":
                try reader.readObject { reader, key throws(VendorListError) in
                    if key == "httpGetLimit" { httpGetLimit = try reader.readInt() } else { try reader.skipValue() }
                }
            case "usesCookies": usesCookies = try reader.readBool()
            case "cookieMaxAgeSeconds": cookieMaxAgeSeconds = try reader.readNull() ? nil : try reader.readInt()
            case "cookieRefresh": cookieRefresh = try reader.readNull() ? nil : try reader.readBool()
            case "usesNonCookieAccess": usesNonCookieAccess = try reader.readBool()
            case "deviceStorageDisclosureUrl":
                deviceStorageDisclosureUrl = try reader.readNull() ? nil : try reader.readString()
            default: try reader.skipValue()
            }
        }
        guard let id else { throw reader.error(.missingKey("id"), at: start) }
        guard let name else { throw reader.error(.missingKey("name"), at: start) }
        return Vendor(
            id: id, name: name, purposes: purposes, legIntPurposes: legIntPurposes,
            flexiblePurposes: flexiblePurposes, specialPurposes: specialPurposes, features: features,
            specialFeatures: specialFeatures, dataDeclaration: dataDeclaration, dataRetention: dataRetention,
            urls: urls, policyUrl: policyUrl, deletedDate: deletedDate, httpGetLimit: httpGetLimit,
            usesCookies: usesCookies, cookieMaxAgeSeconds: cookieMaxAgeSeconds, cookieRefresh: cookieRefresh,
            usesNonCookieAccess: usesNonCookieAccess, deviceStorageDisclosureUrl: deviceStorageDisclosureUrl
        )
    }
}

extension Vendor.DataRetention {
    fileprivate static func read(from reader: inout JSONReader) throws(VendorListError) -> Self {
        var stdRetention: Int?, purposes: [Int: Int] = [:], specialPurposes: [Int: Int] = [:]
        try reader.readObject { reader, key throws(VendorListError) in
            switch key {
            case "stdRetention": stdRetention = try reader.readNull() ? nil : try reader.readInt()
            case "purposes": purposes = try reader.readDaysByID()
            case "specialPurposes": specialPurposes = try reader.readDaysByID()
            default: try reader.skipValue()
            }
        }
        return Self(stdRetention: stdRetention, purposes: purposes, specialPurposes: specialPurposes)
    }
}

extension Vendor.URLs {
    fileprivate static func read(from reader: inout JSONReader) throws(VendorListError) -> Self {
        let start = reader.offset
        var langId: String?, privacy: String?, legIntClaim: String?
        try reader.readObject { reader, key throws(VendorListError) in
            switch key {
            case "langId": langId = try reader.readString()
            case "privacy": privacy = try reader.readString()
            case "legIntClaim": legIntClaim = try reader.readNull() ? nil : try reader.readString()
            default: try reader.skipValue()
            }
        }
        guard let langId else { throw reader.error(.missingKey("langId"), at: start) }
        guard let privacy else { throw reader.error(.missingKey("privacy"), at: start) }
        return Self(langId: langId, privacy: privacy, legIntClaim: legIntClaim)
    }
}

extension JSONReader {
    /// Reads a section of entries with ids: an object keyed by id (v2, v3) or an array (v1).
    /// Each entry's `id` must match its key, and no id may appear twice.
    fileprivate mutating func readEntries<Entry: Identifiable>(
        _ read: (inout JSONReader) throws(VendorListError) -> Entry
    ) throws(VendorListError) -> [Int: Entry] where Entry.ID == Int {
        var entries: [Int: Entry] = [:]
        func add(_ entry: Entry, key: Int?, at offset: Int, _ reader: JSONReader) throws(VendorListError) {
            if let key, key != entry.id {
                throw reader.error(.invalidValue("id \(entry.id) does not match its key \"\(key)\""), at: offset)
            }
            guard entries.updateValue(entry, forKey: entry.id) == nil else {
                throw reader.error(.invalidValue("id \(entry.id) appears twice"), at: offset)
            }
        }
        if nextIsObject() {
            try readObject { reader, key throws(VendorListError) in
                let at = reader.offset
                try add(try read(&reader), key: Int(key) ?? -1, at: at, reader)
            }
        } else {
            try readArray { reader throws(VendorListError) in
                let at = reader.offset
                try add(try read(&reader), key: nil, at: at, reader)
            }
        }
        return entries
    }

    /// Reads an id: an integer in `1...IDSet.maxID`.
    fileprivate mutating func readID() throws(VendorListError) -> Int {
        let at = offset
        let id = try readInt()
        guard id >= 1, id <= IDSet.maxID else { throw error(.invalidValue("id \(id) is outside 1...\(IDSet.maxID)"), at: at) }
        return id
    }

    /// Reads an array of ids into a set.
    fileprivate mutating func readIDSet() throws(VendorListError) -> IDSet {
        var builder = IDSet.Builder()
        try readArray { reader throws(VendorListError) in builder.insert(try reader.readID()) }
        return builder.build()
    }

    /// Reads an object mapping id keys to integers, like retention days per purpose.
    fileprivate mutating func readDaysByID() throws(VendorListError) -> [Int: Int] {
        var result: [Int: Int] = [:]
        try readObject { reader, key throws(VendorListError) in
            guard let id = Int(key), id >= 1 else {
                throw reader.error(.invalidValue("key \"\(key)\" is not an id"), at: reader.offset)
            }
            result[id] = try reader.readInt()
        }
        return result
    }

    /// Reads an ISO 8601 date such as `2024-03-21T16:07:33Z` or `2024-11-13T14:55:31.549Z`; the
    /// fraction may have any number of digits (the IAB's lists use milliseconds too).
    fileprivate mutating func readDate() throws(VendorListError) -> Date {
        let at = offset
        let text = try readString()
        guard let date = ISO8601.date(text) else {
            throw error(.invalidValue("\"\(text)\" is not an ISO 8601 date"), at: at)
        }
        return date
    }
}
