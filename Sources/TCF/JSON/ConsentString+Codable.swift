// The JSON form of decoded consent strings, shared by the `consent` tool and the server.
//
// One flat object per string. Ids print as sorted integer arrays, except a publisher
// restriction's vendors, which print as their ranges, `[[first, last], ...]` (a restriction
// names 1-65,535 in 33 bits of its string, and its JSON must stay as short), timestamps as ISO 8601 UTC
// with milliseconds, language and country codes upper-case, and `validation` lists the policy
// findings (ignored when decoding). Field names follow the widely used iabtcf naming
// (`purposeConsents`, `publisherCountryCode`); the Swift properties keep the spec's names.

extension IDSet: Codable {
    /// Decodes a JSON array of ids in `1...IDSet.maxID`.
    public init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        var builder = Builder()
        while !container.isAtEnd {
            let id = try container.decode(Int.self)
            guard id >= 1, id <= IDSet.maxID else {
                throw DecodingError.dataCorruptedError(
                    in: container, debugDescription: "id \(id) is outside 1...\(IDSet.maxID)")
            }
            builder.insert(id)
        }
        self = builder.build()
    }

    /// Encodes the ids as a sorted JSON array.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        for id in self { try container.encode(id) }
    }
}

extension TCFTimestamp: Codable {
    /// Decodes ISO 8601 text such as `2017-11-07T19:15:55.400Z`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let value = TCFTimestamp(iso8601: text) else {
            throw DecodingError.dataCorruptedError(
                in: container,
                debugDescription: "\"\(text)\" is not an ISO 8601 UTC time to the decisecond, like 2017-11-07T19:15:55.400Z")
        }
        self = value
    }

    /// Encodes ISO 8601 UTC text with milliseconds.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(iso8601)
    }
}

extension ValidationFinding: Codable {
    private enum CodingKeys: String, CodingKey { case code, message }

    /// Decodes `{"code": ..., "message": ...}`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(try container.decode(Code.self, forKey: .code), try container.decode(String.self, forKey: .message))
    }

    /// Encodes `{"code": ..., "message": ...}`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(code, forKey: .code)
        try container.encode(message, forKey: .message)
    }
}

extension ValidationFinding.Code: Codable {}

extension PublisherRestriction: Codable {
    private enum CodingKeys: String, CodingKey { case purposeId, restrictionType, vendorIds }

    /// Decodes `{"purposeId", "restrictionType", "vendorIds"}`, `vendorIds` holding ranges
    /// `[first, last]` in `1...IDSet.maxID` or single ids.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let type = try container.decode(Int.self, forKey: .restrictionType)
        guard let restrictionType = RestrictionType(rawValue: type) else {
            throw DecodingError.dataCorruptedError(
                forKey: .restrictionType, in: container, debugDescription: "restrictionType \(type) is not 0...3")
        }
        self.init(
            purposeId: try container.decode(Int.self, forKey: .purposeId), restrictionType: restrictionType,
            vendorIds: try Self.decodeRanges(try container.nestedUnkeyedContainer(forKey: .vendorIds)))
    }

    /// Encodes `{"purposeId", "restrictionType", "vendorIds"}`, `vendorIds` as the set's
    /// ranges, `[[first, last], ...]` in increasing order (a single id is `[id, id]`).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(purposeId, forKey: .purposeId)
        try container.encode(restrictionType.rawValue, forKey: .restrictionType)
        var ranges = container.nestedUnkeyedContainer(forKey: .vendorIds)
        for range in vendorIds.ranges { try ranges.encode([range.lowerBound, range.upperBound]) }
    }

    /// The ids of a JSON array whose elements are ranges `[first, last]` or single ids.
    private static func decodeRanges(_ container: UnkeyedDecodingContainer) throws -> IDSet {
        var container = container
        var runs: [UInt32] = []
        while !container.isAtEnd {
            let first: Int, last: Int
            if let id = try? container.decode(Int.self) {
                (first, last) = (id, id)
            } else {
                var pair = try container.nestedUnkeyedContainer()
                (first, last) = (try pair.decode(Int.self), try pair.decode(Int.self))
                guard pair.isAtEnd else {
                    throw DecodingError.dataCorruptedError(in: pair, debugDescription: "a range is [first, last], two ids")
                }
            }
            guard first >= 1, first <= last, last <= IDSet.maxID else {
                throw DecodingError.dataCorruptedError(
                    in: container, debugDescription: "range \(first)-\(last) is not within 1...\(IDSet.maxID), first to last")
            }
            runs.append(IDSet.Runs.pack(first, last))
        }
        return runs.withUnsafeMutableBufferPointer { IDSet(packedRuns: $0) }
    }
}

/// Upper-cases a decoded two-letter code so `en` and `EN` read the same.
private func code(_ container: KeyedDecodingContainer<TCString.CodingKeys>, _ key: TCString.CodingKeys) throws -> String {
    try container.decode(String.self, forKey: key).uppercased()
}

extension TCString: Codable {
    enum CodingKeys: String, CodingKey {
        case version, created, lastUpdated, cmpId, cmpVersion, consentScreen, consentLanguage, vendorListVersion
        case policyVersion, isServiceSpecific, useNonStandardTexts, specialFeatureOptins, purposeConsents
        case purposeLegitimateInterests, purposeOneTreatment, publisherCountryCode, vendorConsents
        case vendorLegitimateInterests, publisherRestrictions, disclosedVendors, allowedVendors
        case publisherConsents, publisherLegitimateInterests, numCustomPurposes, publisherCustomConsents
        case publisherCustomLegitimateInterests, validation
    }

    /// Decodes the JSON form; the PublisherTC segment is present when any of its fields is.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let publisherKeys: [CodingKeys] = [
            .publisherConsents, .publisherLegitimateInterests, .numCustomPurposes, .publisherCustomConsents,
            .publisherCustomLegitimateInterests,
        ]
        var publisherTC: PublisherTC?
        if publisherKeys.contains(where: c.contains) {
            publisherTC = PublisherTC(
                pubPurposesConsent: try c.decodeIfPresent(IDSet.self, forKey: .publisherConsents) ?? [],
                pubPurposesLITransparency: try c.decodeIfPresent(IDSet.self, forKey: .publisherLegitimateInterests) ?? [],
                numCustomPurposes: try c.decodeIfPresent(Int.self, forKey: .numCustomPurposes) ?? 0,
                customPurposesConsent: try c.decodeIfPresent(IDSet.self, forKey: .publisherCustomConsents) ?? [],
                customPurposesLITransparency: try c.decodeIfPresent(IDSet.self, forKey: .publisherCustomLegitimateInterests) ?? [])
        }
        self.init(
            version: try c.decode(Int.self, forKey: .version),
            created: try c.decode(TCFTimestamp.self, forKey: .created),
            lastUpdated: try c.decode(TCFTimestamp.self, forKey: .lastUpdated),
            cmpId: try c.decode(Int.self, forKey: .cmpId),
            cmpVersion: try c.decode(Int.self, forKey: .cmpVersion),
            consentScreen: try c.decode(Int.self, forKey: .consentScreen),
            consentLanguage: try code(c, .consentLanguage),
            vendorListVersion: try c.decode(Int.self, forKey: .vendorListVersion),
            tcfPolicyVersion: try c.decode(Int.self, forKey: .policyVersion),
            isServiceSpecific: try c.decode(Bool.self, forKey: .isServiceSpecific),
            useNonStandardTexts: try c.decode(Bool.self, forKey: .useNonStandardTexts),
            specialFeatureOptIns: try c.decode(IDSet.self, forKey: .specialFeatureOptins),
            purposesConsent: try c.decode(IDSet.self, forKey: .purposeConsents),
            purposesLITransparency: try c.decode(IDSet.self, forKey: .purposeLegitimateInterests),
            purposeOneTreatment: try c.decode(Bool.self, forKey: .purposeOneTreatment),
            publisherCC: try code(c, .publisherCountryCode),
            vendorConsents: try c.decode(IDSet.self, forKey: .vendorConsents),
            vendorLegitimateInterests: try c.decode(IDSet.self, forKey: .vendorLegitimateInterests),
            publisherRestrictions: try c.decodeIfPresent([PublisherRestriction].self, forKey: .publisherRestrictions) ?? [],
            disclosedVendors: try c.decodeIfPresent(IDSet.self, forKey: .disclosedVendors),
            allowedVendors: try c.decodeIfPresent(IDSet.self, forKey: .allowedVendors),
            publisherTC: publisherTC)
    }

    /// Encodes the JSON form, segment fields only when the segment is present.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(version, forKey: .version)
        try c.encode(created, forKey: .created)
        try c.encode(lastUpdated, forKey: .lastUpdated)
        try c.encode(cmpId, forKey: .cmpId)
        try c.encode(cmpVersion, forKey: .cmpVersion)
        try c.encode(consentScreen, forKey: .consentScreen)
        try c.encode(consentLanguage, forKey: .consentLanguage)
        try c.encode(vendorListVersion, forKey: .vendorListVersion)
        try c.encode(tcfPolicyVersion, forKey: .policyVersion)
        try c.encode(isServiceSpecific, forKey: .isServiceSpecific)
        try c.encode(useNonStandardTexts, forKey: .useNonStandardTexts)
        try c.encode(specialFeatureOptIns, forKey: .specialFeatureOptins)
        try c.encode(purposesConsent, forKey: .purposeConsents)
        try c.encode(purposesLITransparency, forKey: .purposeLegitimateInterests)
        try c.encode(purposeOneTreatment, forKey: .purposeOneTreatment)
        try c.encode(publisherCC, forKey: .publisherCountryCode)
        try c.encode(vendorConsents, forKey: .vendorConsents)
        try c.encode(vendorLegitimateInterests, forKey: .vendorLegitimateInterests)
        try c.encode(publisherRestrictions, forKey: .publisherRestrictions)
        try c.encodeIfPresent(disclosedVendors, forKey: .disclosedVendors)
        try c.encodeIfPresent(allowedVendors, forKey: .allowedVendors)
        if let publisherTC {
            try c.encode(publisherTC.pubPurposesConsent, forKey: .publisherConsents)
            try c.encode(publisherTC.pubPurposesLITransparency, forKey: .publisherLegitimateInterests)
            try c.encode(publisherTC.numCustomPurposes, forKey: .numCustomPurposes)
            try c.encode(publisherTC.customPurposesConsent, forKey: .publisherCustomConsents)
            try c.encode(publisherTC.customPurposesLITransparency, forKey: .publisherCustomLegitimateInterests)
        }
        try c.encode(validation, forKey: .validation)
    }
}

extension ConsentStringV1: Codable {
    private enum CodingKeys: String, CodingKey {
        case version, created, lastUpdated, cmpId, cmpVersion, consentScreen, consentLanguage, vendorListVersion
        case purposesAllowed, maxVendorId, vendorConsents, extraSegments, validation
    }

    /// Decodes the JSON form.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            version: try c.decode(Int.self, forKey: .version),
            created: try c.decode(TCFTimestamp.self, forKey: .created),
            lastUpdated: try c.decode(TCFTimestamp.self, forKey: .lastUpdated),
            cmpId: try c.decode(Int.self, forKey: .cmpId),
            cmpVersion: try c.decode(Int.self, forKey: .cmpVersion),
            consentScreen: try c.decode(Int.self, forKey: .consentScreen),
            consentLanguage: try c.decode(String.self, forKey: .consentLanguage).uppercased(),
            vendorListVersion: try c.decode(Int.self, forKey: .vendorListVersion),
            purposesAllowed: try c.decode(IDSet.self, forKey: .purposesAllowed),
            maxVendorId: try c.decode(Int.self, forKey: .maxVendorId),
            vendorConsents: try c.decode(IDSet.self, forKey: .vendorConsents),
            extraSegments: try c.decodeIfPresent([String].self, forKey: .extraSegments) ?? [])
    }

    /// Encodes the JSON form; `extraSegments` only when there are any.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(version, forKey: .version)
        try c.encode(created, forKey: .created)
        try c.encode(lastUpdated, forKey: .lastUpdated)
        try c.encode(cmpId, forKey: .cmpId)
        try c.encode(cmpVersion, forKey: .cmpVersion)
        try c.encode(consentScreen, forKey: .consentScreen)
        try c.encode(consentLanguage, forKey: .consentLanguage)
        try c.encode(vendorListVersion, forKey: .vendorListVersion)
        try c.encode(purposesAllowed, forKey: .purposesAllowed)
        try c.encode(maxVendorId, forKey: .maxVendorId)
        try c.encode(vendorConsents, forKey: .vendorConsents)
        if !extraSegments.isEmpty { try c.encode(extraSegments, forKey: .extraSegments) }
        try c.encode(validation, forKey: .validation)
    }
}

extension ConsentString: Codable {
    private enum CodingKeys: String, CodingKey { case version }

    /// Decodes the JSON form of either version, chosen by its `version` field.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        switch try container.decode(Int.self, forKey: .version) {
        case 1: self = .v1(try ConsentStringV1(from: decoder))
        case 2: self = .v2(try TCString(from: decoder))
        case let version:
            throw DecodingError.dataCorruptedError(
                forKey: .version, in: container, debugDescription: "version \(version) is neither 1 nor 2")
        }
    }

    /// Encodes the JSON form of the contained string.
    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .v1(let value): try value.encode(to: encoder)
        case .v2(let value): try value.encode(to: encoder)
        }
    }
}
