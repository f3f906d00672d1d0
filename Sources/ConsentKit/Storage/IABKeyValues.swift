import GPP
import TCF

/// Which generations of the in-app keys the CMP writes: v2.x (`IABTCF_*`) and the GPP's
/// (`IABGPP_*`) by default, v1.0 (`IABConsent_*`) on request.
public struct IABKeyGenerations: OptionSet, Sendable, Hashable {
    public let rawValue: Int

    /// Creates a set from its raw bits.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// The v1.0 keys (`IABConsent_*`, with a v1.1 consent string).
    public static let version1 = IABKeyGenerations(rawValue: 1)
    /// The v2.x keys (`IABTCF_*`, with a TC string).
    public static let version2 = IABKeyGenerations(rawValue: 2)
    /// The Global Privacy Platform's keys (`IABGPP_*`): the GPP string of the decision's sections
    /// and the sections in force (``IABKeyValues/gppValues(_:applicable:tcf:)``).
    public static let gpp = IABKeyGenerations(rawValue: 4)
    /// The default: ``version2`` and ``gpp``.
    public static let standard: IABKeyGenerations = [.version2, .gpp]
    /// All three.
    public static let all: IABKeyGenerations = [.version1, .version2, .gpp]
}

/// Every key the CMP owns, derived from a decision: a pure function, so what is stored is
/// always exactly what the decision implies. Keys a decision does not set map to nil, which a
/// `KeyValueStore` write turns into a removal, so keys that no longer apply disappear.
///
/// `IABConsent_CMPPresent` is the exception: the v1 spec would have the publisher set it, so
/// ConsentKit sets it (with the v1 keys) but never removes it.
public enum IABKeyValues {
    /// The keys for `state` (nil: no decision yet, only the CMP-present keys and gdprApplies) and
    /// the US sections `us` in force (``USPrivacyChoice/gppSections(of:applicability:signals:)``;
    /// none outside the US). The GPP keys hold one string of every section in force: tcfeuv2 when
    /// GDPR applies to a decision, and the US sections.
    ///
    /// - Throws: `TCFEncodingError` when the state does not fit the string formats (for
    ///   example a language that is not two letters).
    public static func values(
        for state: ConsentState?, gdprApplies: GDPRApplicability, cmp: CMPIdentity, generations: IABKeyGenerations,
        us: [GPPSection] = []
    ) throws(TCFEncodingError) -> [String: StoredValue?] {
        var values: [String: StoredValue?] = [:]
        for key in IABKey.removable { values[key] = .some(nil) }
        if generations.contains(.version2) {
            try version2(state, gdprApplies, cmp, into: &values)
        }
        if generations.contains(.version1) {
            try version1(state, gdprApplies, cmp, into: &values)
        }
        if generations.contains(.gpp) {
            // The TC string as the GPP's EEA section, in force; its keys mirror the v2 keys'.
            var tcf: [String: StoredValue?] = [:]
            if let state, gdprApplies == .applies { try version2(state, gdprApplies, cmp, into: &tcf) }
            let gpp = gppString(for: state, gdprApplies: gdprApplies, cmp: cmp, us: us)
            do {
                values.merge(try gppValues(gpp, applicable: gpp.sectionIds, tcf: tcf)) { _, gpp in gpp }
            } catch {
                // The sections are the TC string just encoded and US sections of checked values:
                // not expected to fail, but said if they do.
                throw TCFEncodingError(field: IABKey.gppString, allowed: "a GPP string of the sections in force", value: "\(error)")
            }
        }
        return values
    }

    /// The GPP string of the sections in force, in id order: tcfeuv2 (`state`'s TC string) when
    /// GDPR applies to a decision, and the US sections `us`; no section when neither.
    public static func gppString(
        for state: ConsentState?, gdprApplies: GDPRApplicability, cmp: CMPIdentity, us: [GPPSection]
    ) -> GPPString {
        var sections = us
        if let state, gdprApplies == .applies { sections.append(.tcfeuv2(state.tcString(cmp: cmp))) }
        return GPPString(sections: sections.sorted { $0.id < $1.id })
    }

    /// The GPP keys of `gpp` with the sections `applicable` in force: the header's keys, each
    /// section's string, and, when the EEA section is there, its own keys holding the values of
    /// the v2 keys in `tcf` (``IABKey/gppTCFEU2``). Keys of the GPP not set here map to nil.
    ///
    /// - Throws: ``GPPEncodingError`` when a section does not encode.
    public static func gppValues(
        _ gpp: GPPString, applicable: [Int], tcf: [String: StoredValue?]
    ) throws(GPPEncodingError) -> [String: StoredValue?] {
        var values: [String: StoredValue?] = [:]
        for key in IABKey.gpp { values[key] = .some(nil) }
        guard !gpp.sections.isEmpty else { return values }
        values[IABKey.gppVersion] = .string("1")
        values[IABKey.gppSections] = .string(gpp.sectionIds.map(String.init).joined(separator: "_"))
        values[IABKey.gppString] = .string(try gpp.encoded())
        values[IABKey.gppApplicableSections] = .string(applicable.map(String.init).joined(separator: "_"))
        for section in gpp.sections {
            values[IABKey.gppSectionString(id: section.id)] = .string(try section.encoded())
        }
        if gpp.tcfeuv2 != nil {
            for (tcfKey, gppKey) in IABKey.gppTCFEU2 { values[gppKey] = tcf[tcfKey] ?? .some(nil) }
        }
        return values
    }

    /// Every key the CMP owns but `IABConsent_CMPPresent`, each mapped to nil: what "remove
    /// everything" writes.
    public static var removal: [String: StoredValue?] {
        Dictionary(uniqueKeysWithValues: IABKey.removable.map { ($0, StoredValue?.none) })
    }

    private static func version2(
        _ state: ConsentState?, _ gdpr: GDPRApplicability, _ cmp: CMPIdentity, into values: inout [String: StoredValue?]
    ) throws(TCFEncodingError) {
        values[IABKey.cmpSdkID] = .integer(cmp.cmpId)
        values[IABKey.cmpSdkVersion] = .integer(cmp.cmpVersion)
        // updateValue keeps a nil (a removal) in the dictionary; a subscript assignment of nil would drop the key.
        values.updateValue(gdpr.flag.map { .integer($0 ? 1 : 0) }, forKey: IABKey.gdprApplies)
        guard let state else { return }
        values[IABKey.tcString] = .string(try state.tcString(cmp: cmp).encoded())
        values[IABKey.policyVersion] = .integer(state.tcfPolicyVersion)
        values[IABKey.publisherCC] = .string(state.publisherCC)
        values[IABKey.purposeOneTreatment] = .integer(state.purposeOneTreatment ? 1 : 0)
        values[IABKey.useNonStandardTexts] = .integer(state.useNonStandardTexts ? 1 : 0)
        let binary: [(String, IDSet)] = [
            (IABKey.vendorConsents, state.vendorConsents),
            (IABKey.vendorLegitimateInterests, state.vendorLegitimateInterests),
            (IABKey.disclosedVendors, state.disclosedVendors),
            (IABKey.purposeConsents, state.purposeConsents),
            (IABKey.purposeLegitimateInterests, state.purposeLegitimateInterests),
            (IABKey.specialFeaturesOptIns, state.specialFeatureOptIns),
            (IABKey.publisherConsent, state.publisherConsents),
            (IABKey.publisherLegitimateInterests, state.publisherLegitimateInterests),
            (IABKey.publisherCustomPurposesConsents, state.customPurposeConsents),
            (IABKey.publisherCustomPurposesLegitimateInterests, state.customPurposeLegitimateInterests),
        ]
        for (key, ids) in binary {
            values[key] = .string(BinaryString.encode(ids, length: ids.max))
        }
        if let additionalConsent = state.additionalConsentString { values[IABKey.addtlConsent] = .string(additionalConsent) }
        for (purposeId, restriction) in restrictionStrings(state.publisherRestrictions) {
            values[IABKey.publisherRestrictions(purposeId: purposeId)] = .string(restriction)
        }
    }

    private static func version1(
        _ state: ConsentState?, _ gdpr: GDPRApplicability, _ cmp: CMPIdentity, into values: inout [String: StoredValue?]
    ) throws(TCFEncodingError) {
        values[IABKey.cmpPresent] = .bool(true)
        values.updateValue(gdpr.flag.map { .string($0 ? "1" : "0") }, forKey: IABKey.subjectToGDPR)
        guard let state else { return }
        let string = state.consentStringV1(cmp: cmp)
        values[IABKey.consentString] = .string(try string.encoded())
        // One character per purpose and vendor: readers index by position, so a "0" must be there
        // to read (v1's five purposes; every vendor up to the string's MaxVendorId).
        values[IABKey.parsedPurposeConsents] = .string(BinaryString.encode(string.purposesAllowed, length: ConsentState.version1Purposes.count))
        values[IABKey.parsedVendorConsents] = .string(BinaryString.encode(string.vendorConsents, length: string.maxVendorId))
    }

    /// `IABTCF_PublisherRestrictions{ID}` per restricted purpose: character n is vendor n+1's
    /// restriction type ('0' not allowed, '1' require consent, '2' require legitimate interest),
    /// '_' where the vendor has none. The key's spec lists only '0', '1' and '2'; the '_' filler
    /// is how the CMP API's InAppTCData object spells "no restriction", which readers of the
    /// key follow. The last restriction listed for a vendor and purpose wins, as in the string;
    /// type 3 (undefined in the spec) is left out.
    static func restrictionStrings(_ restrictions: [PublisherRestriction]) -> [Int: String] {
        var byPurpose: [Int: [Int: PublisherRestriction.RestrictionType]] = [:]
        for restriction in restrictions
        where IABKey.restrictablePurposeIds.contains(restriction.purposeId) && restriction.restrictionType != .undefined {
            for vendor in restriction.vendorIds { byPurpose[restriction.purposeId, default: [:]][vendor] = restriction.restrictionType }
        }
        return byPurpose.mapValues { types in
            let length = types.keys.max() ?? 0
            var bytes = [UInt8](repeating: UInt8(ascii: "_"), count: length)
            for (vendor, type) in types { bytes[vendor - 1] = UInt8(ascii: "0") + UInt8(type.rawValue) }
            return String(decoding: bytes, as: UTF8.self)
        }
    }
}
