// The JSON form of a GPP string (the contract of `consent gpp decode --json`): one object whose
// keys are the sections in string order, each its API prefix (an unknown id: its decimal id,
// with the section's text as the value); each section one object of the spec's field names,
// optional sub-sections' fields merged in when present. See docs/decisions/0028-gpp-codec.md.

import ConsentKitFormats
import TCF

/// A JSON object key spelled at run time.
struct JSONKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }
    init(_ name: String) { stringValue = name }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

extension GPPString: Codable {
    /// Decodes the JSON form. Sections come out in id order (JSON objects carry no order a
    /// decoder must keep); a decimal key holds a section's text, which is decoded when the id is
    /// known and kept as text otherwise.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: JSONKey.self)
        var sections: [GPPSection] = []
        for key in container.allKeys {
            if let id = Int(key.stringValue) {
                let text = try container.decode(String.self, forKey: key)
                guard GPPSectionID(rawValue: id) != nil else {
                    guard id >= 1, !text.isEmpty, !text.contains("~") else {
                        throw DecodingError.dataCorruptedError(
                            forKey: key, in: container, debugDescription: "section \(id) needs an id ≥ 1 and a text without ~")
                    }
                    sections.append(.unknown(id: id, text: text))
                    continue
                }
                let header = try GPPString(sections: [.unknown(id: id, text: text)]).encoded()
                sections += try GPPString(decoding: header).sections
                continue
            }
            guard let id = GPPSectionID(prefix: key.stringValue) else {
                throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: "unknown section \(key.stringValue)")
            }
            let fields = try container.nestedContainer(keyedBy: JSONKey.self, forKey: key)
            switch id {
            case .tcfeuv2: sections.append(.tcfeuv2(try TCString(json: fields)))
            case .tcfcav1: sections.append(.tcfcav1(try TCFCanadaSection(json: fields)))
            case .uspv1: sections.append(.uspv1(try USPrivacyV1(json: fields)))
            default: sections.append(.us(try USSection(json: fields, id: id)))
            }
        }
        self.init(sections: sections.sorted { $0.id < $1.id })
    }

    /// Encodes the JSON form, sections in string order (as far as the encoder keeps the order
    /// keys are written in; ``jsonText()`` always does).
    public func encode(to encoder: any Encoder) throws {
        try jsonValue.encode(to: encoder)
    }

    /// The JSON form as compact text, sections in string order and each section's fields in
    /// spec order.
    public func jsonText() -> String {
        var writer = JSONWriter(capacity: 1 << 12, escaping: .standard)
        jsonValue.write(to: &writer)
        return writer.text
    }

    /// The JSON form as a value.
    var jsonValue: JSONValue {
        var object = JSONObject()
        for section in sections {
            switch section {
            case .tcfeuv2(let value): object.put("tcfeuv2", json: value.jsonObject)
            case .tcfcav1(let value): object.put("tcfcav1", json: value.jsonObject)
            case .uspv1(let value): object.put("uspv1", json: value.jsonObject)
            case .us(let value): object.put(value.id.prefix, json: value.jsonObject)
            case .unknown(let id, let text): object.put(String(id), text)
            }
        }
        return .object(object)
    }
}

typealias JSONFields = KeyedDecodingContainer<JSONKey>

extension KeyedDecodingContainer where Key == JSONKey {
    /// The value of `name`.
    func value<T: Decodable>(_ name: String, as type: T.Type = T.self) throws -> T { try decode(T.self, forKey: JSONKey(name)) }
    /// The value of `name`, nil when absent.
    func optional<T: Decodable>(_ name: String, as type: T.Type = T.self) throws -> T? {
        try decodeIfPresent(T.self, forKey: JSONKey(name))
    }
    /// Whether `name` is present.
    func has(_ name: String) -> Bool { contains(JSONKey(name)) }
    /// The error for a value of `name` the format cannot hold.
    func invalid(_ name: String, _ message: String) -> DecodingError {
        DecodingError.dataCorruptedError(forKey: JSONKey(name), in: self, debugDescription: message)
    }
}

/// A publisher restriction as `{"PurposeId", "RestrictionType", "Vendors"}`.
struct RestrictionJSON: Decodable, JSONConvertible {
    let PurposeId: Int
    let RestrictionType: Int
    let Vendors: IDSet

    init(_ restriction: PublisherRestriction) {
        PurposeId = restriction.purposeId
        RestrictionType = restriction.restrictionType.rawValue
        Vendors = restriction.vendorIds
    }

    /// `{"PurposeId", "RestrictionType", "Vendors"}`.
    var jsonValue: JSONValue {
        var object = JSONObject()
        object.put("PurposeId", PurposeId)
        object.put("RestrictionType", RestrictionType)
        object.put("Vendors", Vendors)
        return .object(object)
    }

    /// The restriction, if its type fits two bits.
    var restriction: PublisherRestriction? {
        PublisherRestriction.RestrictionType(rawValue: RestrictionType).map {
            PublisherRestriction(purposeId: PurposeId, restrictionType: $0, vendorIds: Vendors)
        }
    }

    /// `restrictions` sorted by purpose, then type, as the JSON form lists them.
    static func list(_ restrictions: [PublisherRestriction]) -> [RestrictionJSON] {
        restrictions.map(RestrictionJSON.init).sorted { ($0.PurposeId, $0.RestrictionType) < ($1.PurposeId, $1.RestrictionType) }
    }

    /// The restrictions of `name` in `fields`.
    static func restrictions(_ fields: JSONFields, _ name: String) throws -> [PublisherRestriction] {
        try fields.value(name, as: [RestrictionJSON].self).map { entry in
            guard let restriction = entry.restriction else { throw fields.invalid(name, "RestrictionType \(entry.RestrictionType) is not 0...3") }
            return restriction
        }
    }
}

extension TCString {
    /// Reads the tcfeuv2 JSON object.
    init(json fields: JSONFields) throws {
        var publisherTC: PublisherTC?
        if fields.has("PubPurposesConsent") {
            publisherTC = PublisherTC(
                pubPurposesConsent: try fields.value("PubPurposesConsent"),
                pubPurposesLITransparency: try fields.value("PubPurposesLITransparency"),
                numCustomPurposes: try fields.value("NumCustomPurposes"),
                customPurposesConsent: try fields.value("CustomPurposesConsent"),
                customPurposesLITransparency: try fields.value("CustomPurposesLITransparency"))
        }
        self.init(
            version: try fields.value("Version"), created: try fields.value("Created"), lastUpdated: try fields.value("LastUpdated"),
            cmpId: try fields.value("CmpId"), cmpVersion: try fields.value("CmpVersion"),
            consentScreen: try fields.value("ConsentScreen"), consentLanguage: try fields.value("ConsentLanguage"),
            vendorListVersion: try fields.value("VendorListVersion"), tcfPolicyVersion: try fields.value("TcfPolicyVersion"),
            isServiceSpecific: try fields.value("IsServiceSpecific"), useNonStandardTexts: try fields.value("UseNonStandardTexts"),
            specialFeatureOptIns: try fields.value("SpecialFeatureOptIns"), purposesConsent: try fields.value("PurposeConsent"),
            purposesLITransparency: try fields.value("PurposesLITransparency"),
            purposeOneTreatment: try fields.value("PurposeOneTreatment"), publisherCC: try fields.value("PublisherCC"),
            vendorConsents: try fields.value("VendorConsent"), vendorLegitimateInterests: try fields.value("VendorLegitimateInterest"),
            publisherRestrictions: try RestrictionJSON.restrictions(fields, "PubRestrictions"),
            disclosedVendors: try fields.optional("DisclosedVendors"), allowedVendors: try fields.optional("AllowedVendors"),
            publisherTC: publisherTC)
    }

    /// The tcfeuv2 JSON object: the GPP section spec's names.
    var jsonObject: JSONValue {
        var fields = JSONObject()
        fields.put("Version", version)
        fields.put("Created", created)
        fields.put("LastUpdated", lastUpdated)
        fields.put("CmpId", cmpId)
        fields.put("CmpVersion", cmpVersion)
        fields.put("ConsentScreen", consentScreen)
        fields.put("ConsentLanguage", consentLanguage)
        fields.put("VendorListVersion", vendorListVersion)
        fields.put("TcfPolicyVersion", tcfPolicyVersion)
        fields.put("IsServiceSpecific", isServiceSpecific)
        fields.put("UseNonStandardTexts", useNonStandardTexts)
        fields.put("SpecialFeatureOptIns", specialFeatureOptIns)
        fields.put("PurposeConsent", purposesConsent)
        fields.put("PurposesLITransparency", purposesLITransparency)
        fields.put("PurposeOneTreatment", purposeOneTreatment)
        fields.put("PublisherCC", publisherCC)
        fields.put("VendorConsent", vendorConsents)
        fields.put("VendorLegitimateInterest", vendorLegitimateInterests)
        fields.put("PubRestrictions", RestrictionJSON.list(publisherRestrictions))
        if let disclosedVendors { fields.put("DisclosedVendors", disclosedVendors) }
        if let allowedVendors { fields.put("AllowedVendors", allowedVendors) }
        if let publisherTC {
            fields.put("PubPurposesConsent", publisherTC.pubPurposesConsent)
            fields.put("PubPurposesLITransparency", publisherTC.pubPurposesLITransparency)
            fields.put("NumCustomPurposes", publisherTC.numCustomPurposes)
            fields.put("CustomPurposesConsent", publisherTC.customPurposesConsent)
            fields.put("CustomPurposesLITransparency", publisherTC.customPurposesLITransparency)
        }
        return .object(fields)
    }
}

extension TCFCanadaSection {
    /// Reads the tcfcav1 JSON object (written with the spec's Fibonacci ranges when encoded).
    init(json fields: JSONFields) throws {
        var publisherPurposes: PublisherPurposes?
        if fields.has("PubPurposesExpressConsent") {
            publisherPurposes = PublisherPurposes(
                pubPurposesExpressConsent: try fields.value("PubPurposesExpressConsent"),
                pubPurposesImpliedConsent: try fields.value("PubPurposesImpliedConsent"),
                numCustomPurposes: try fields.value("NumCustomPurposes"),
                customPurposesExpressConsent: try fields.value("CustomPurposesExpressConsent"),
                customPurposesImpliedConsent: try fields.value("CustomPurposesImpliedConsent"))
        }
        self.init(
            version: try fields.value("Version"), created: try fields.value("Created"), lastUpdated: try fields.value("LastUpdated"),
            cmpId: try fields.value("CmpId"), cmpVersion: try fields.value("CmpVersion"),
            consentScreen: try fields.value("ConsentScreen"), consentLanguage: try fields.value("ConsentLanguage"),
            vendorListVersion: try fields.value("VendorListVersion"), tcfPolicyVersion: try fields.value("TcfPolicyVersion"),
            useNonStandardStacks: try fields.value("UseNonStandardStacks"),
            specialFeatureExpressConsent: try fields.value("SpecialFeatureExpressConsent"),
            purposesExpressConsent: try fields.value("PurposesExpressConsent"),
            purposesImpliedConsent: try fields.value("PurposesImpliedConsent"),
            vendorExpressConsent: try fields.value("VendorExpressConsent"), vendorImpliedConsent: try fields.value("VendorImpliedConsent"),
            pubRestrictions: try RestrictionJSON.restrictions(fields, "PubRestrictions"),
            disclosedVendors: try fields.optional("DisclosedVendors"), publisherPurposes: publisherPurposes)
    }

    /// The tcfcav1 JSON object.
    var jsonObject: JSONValue {
        var fields = JSONObject()
        fields.put("Version", version)
        fields.put("Created", created)
        fields.put("LastUpdated", lastUpdated)
        fields.put("CmpId", cmpId)
        fields.put("CmpVersion", cmpVersion)
        fields.put("ConsentScreen", consentScreen)
        fields.put("ConsentLanguage", consentLanguage)
        fields.put("VendorListVersion", vendorListVersion)
        fields.put("TcfPolicyVersion", tcfPolicyVersion)
        fields.put("UseNonStandardStacks", useNonStandardStacks)
        fields.put("SpecialFeatureExpressConsent", specialFeatureExpressConsent)
        fields.put("PurposesExpressConsent", purposesExpressConsent)
        fields.put("PurposesImpliedConsent", purposesImpliedConsent)
        fields.put("VendorExpressConsent", vendorExpressConsent)
        fields.put("VendorImpliedConsent", vendorImpliedConsent)
        fields.put("PubRestrictions", RestrictionJSON.list(pubRestrictions))
        if let disclosedVendors { fields.put("DisclosedVendors", disclosedVendors) }
        if let publisherPurposes {
            fields.put("PubPurposesExpressConsent", publisherPurposes.pubPurposesExpressConsent)
            fields.put("PubPurposesImpliedConsent", publisherPurposes.pubPurposesImpliedConsent)
            fields.put("NumCustomPurposes", publisherPurposes.numCustomPurposes)
            fields.put("CustomPurposesExpressConsent", publisherPurposes.customPurposesExpressConsent)
            fields.put("CustomPurposesImpliedConsent", publisherPurposes.customPurposesImpliedConsent)
        }
        return .object(fields)
    }
}

extension USPrivacyV1 {
    /// Reads `{"Version": 1, "Notice": "Y", "OptOutSale": "N", "LspaCovered": "N"}`.
    init(json fields: JSONFields) throws {
        func signal(_ name: String) throws -> Signal {
            let text = try fields.value(name, as: String.self)
            guard text.count == 1, let signal = Signal(rawValue: text.first!) else { throw fields.invalid(name, "\"\(text)\" is not Y, N or -") }
            return signal
        }
        self.init(
            version: try fields.value("Version"), notice: try signal("Notice"), optOutSale: try signal("OptOutSale"),
            lspaCovered: try signal("LspaCovered"))
    }

    /// The uspv1 JSON object, each signal as its character.
    var jsonObject: JSONValue {
        var fields = JSONObject()
        fields.put("Version", version)
        fields.put("Notice", String(notice.rawValue))
        fields.put("OptOutSale", String(optOutSale.rawValue))
        fields.put("LspaCovered", String(lspaCovered.rawValue))
        return .object(fields)
    }
}

extension USSection {
    /// Reads a US section's JSON object. usnat's layout follows its lists' lengths (12 and 2:
    /// v1; 16 and 3: v2), and a v1 one whose `Version` says 2 or more is padded to v2 as a
    /// decoded string is; usmd/usin/usky/usri have the section header when `Version` is present.
    init(json fields: JSONFields, id: GPPSectionID) throws {
        var layout = USSectionLayout.current(for: id)!
        if id == .usnat, try fields.optional("SensitiveDataProcessing", as: [Int].self)?.count == 12 { layout = .usnatVersion1 }
        self.init(layout: layout)
        sectionHeaderVersion = layout.hasSectionHeader ? try fields.optional("Version") : nil
        for slot in layout.slots {
            let name = slot.field.rawValue
            if slot.subsection != nil, !fields.has(name) { continue }
            switch slot.type {
            case .integer: self[slot.field] = try fields.value(name, as: Int.self)
            case .boolean: self[slot.field] = try fields.value(name, as: Bool.self) ? 1 : 0
            case .list(let count):
                let list = try fields.value(name, as: [Int].self)
                guard list.count == count else { throw fields.invalid(name, "\(layout) \(name) has \(count) entries, not \(list.count)") }
                self[list: slot.field] = list
            }
        }
        self = inLayoutOfItsVersion()
    }

    /// The section's JSON object: ``fields`` in order, Booleans as `true`/`false`.
    var jsonObject: JSONValue {
        var fields = JSONObject()
        for field in self.fields {
            if let list = self[list: field] {
                fields.put(field.rawValue, list)
            } else if field == .gpc {
                fields.put(field.rawValue, self[field] == 1)
            } else if let value = self[field] {
                fields.put(field.rawValue, value)
            }
        }
        return .object(fields)
    }
}
