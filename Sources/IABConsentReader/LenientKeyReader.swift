import GPP
import TCF

/// Reads the IAB keys of one snapshot the way other CMPs actually write them, and notes every
/// key whose value it cannot use.
///
/// The specs fix the types (v2 numbers are integers, binary strings hold '0' and '1' only), but
/// CMPs in the wild write a v2 "boolean" as a Bool or a number as a String. What is accepted:
///
/// - a number (`IABTCF_gdprApplies`, `IABTCF_CmpSdkID`, ...): an integer, a string of decimal
///   digits (`"1"`), or a Bool (true is 1, false is 0);
/// - a GDPR applicability (v1 `IABConsent_SubjectToGDPR` is a string by spec): any of the
///   above holding 0 or 1;
/// - a flag (`IABTCF_PurposeOneTreatment`, `IABConsent_CMPPresent`, ...): the same, or the
///   strings `"true"` / `"false"`;
/// - a binary string: a string of '0' and '1' only, at most `IDSet.maxID` characters;
/// - a publisher restriction string: '0', '1', '2', and '_' for "no restriction" (the
///   `InAppTCData` form), at most `IDSet.maxID` characters;
/// - a text (TC string, country code): a string; an empty one counts as absent.
///
/// Anything else is malformed and never reads as a positive signal: a malformed binary string
/// is an empty set, a malformed applicability is undetermined, a malformed restriction string
/// refuses its purpose to every vendor (see ``IABConsentSnapshot/decision(for:purpose:)``).
struct LenientKeyReader {
    let values: [String: StoredValue]
    private(set) var malformedKeys: Set<String> = []

    init(_ values: [String: StoredValue]) {
        self.values = values
    }

    /// Whether `key` holds any value.
    func has(_ key: String) -> Bool {
        values[key] != nil
    }

    /// A number: an integer, a string of decimal digits, or a Bool as 1 / 0.
    mutating func integer(_ key: String) -> Int? {
        guard let value = values[key] else { return nil }
        switch value {
        case .integer(let number): return number
        case .bool(let flag): return flag ? 1 : 0
        case .string(let text):
            if let number = Int(text) { return number }
        }
        malformedKeys.insert(key)
        return nil
    }

    /// A 0/1 flag; nil when absent or malformed.
    mutating func flag(_ key: String) -> Bool? {
        if case .string(let text) = values[key] {
            switch text.lowercased() {
            case "true": return true
            case "false": return false
            default: break
            }
        }
        guard let number = integer(key) else { return nil }
        switch number {
        case 1: return true
        case 0: return false
        default:
            malformedKeys.insert(key)
            return nil
        }
    }

    /// `IABTCF_gdprApplies` or `IABConsent_SubjectToGDPR`: 1 applies, 0 does not, anything else
    /// (unset included) undetermined.
    mutating func gdprApplies(_ key: String) -> GDPRApplicability {
        guard let number = integer(key) else { return .undetermined }
        switch number {
        case 1: return .applies
        case 0: return .doesNotApply
        default:
            malformedKeys.insert(key)
            return .undetermined
        }
    }

    /// A text; nil when absent, empty or not a string.
    mutating func text(_ key: String) -> String? {
        guard let value = values[key] else { return nil }
        guard case .string(let text) = value else {
            malformedKeys.insert(key)
            return nil
        }
        return text.isEmpty ? nil : text
    }

    /// A binary string's ids; nil when absent, empty when malformed.
    mutating func ids(_ key: String) -> IDSet? {
        guard let value = values[key] else { return nil }
        // BinaryString.decode builds an IDSet, which traps on ids above IDSet.maxID.
        guard case .string(let text) = value, text.utf8.count <= IDSet.maxID, let ids = BinaryString.decode(text) else {
            malformedKeys.insert(key)
            return IDSet()
        }
        return ids
    }

    /// A GPP string, decoded; nil when absent, and when malformed (then noted).
    mutating func gpp(_ key: String) -> GPPString? {
        guard let text = text(key) else { return nil }
        guard let gpp = try? GPPString(decoding: text) else {
            malformedKeys.insert(key)
            return nil
        }
        return gpp
    }

    /// Section ids joined by `_` (`"2"`, `"7_8"`, `"-1"`); empty when absent, and when any part
    /// is not a whole number (then noted).
    mutating func sectionIds(_ key: String) -> [Int] {
        guard let text = text(key) else { return [] }
        let ids = text.split(separator: "_", omittingEmptySubsequences: false).map { Int($0) }
        guard !ids.isEmpty, ids.allSatisfy({ $0 != nil }) else {
            malformedKeys.insert(key)
            return []
        }
        return ids.compactMap { $0 }
    }

    /// The restrictions `IABTCF_PublisherRestrictions{purposeId}` holds, one entry per type
    /// present; none when the key is absent or malformed.
    mutating func restrictions(purposeId: Int) -> [PublisherRestriction] {
        let key = IABKey.publisherRestrictions(purposeId: purposeId)
        guard let value = values[key] else { return [] }
        guard case .string(let text) = value, text.utf8.count <= IDSet.maxID else {
            malformedKeys.insert(key)
            return []
        }
        var vendors: [PublisherRestriction.RestrictionType: [Int]] = [:]
        for (index, byte) in text.utf8.enumerated() {
            let type: PublisherRestriction.RestrictionType
            switch byte {
            case UInt8(ascii: "0"): type = .notAllowed
            case UInt8(ascii: "1"): type = .requireConsent
            case UInt8(ascii: "2"): type = .requireLegitimateInterest
            case UInt8(ascii: "_"): continue
            default:
                malformedKeys.insert(key)
                return []
            }
            vendors[type, default: []].append(index + 1)
        }
        return PublisherRestriction.RestrictionType.allCases.compactMap { type in
            vendors[type].map { PublisherRestriction(purposeId: purposeId, restrictionType: type, vendorIds: IDSet($0)) }
        }
    }
}
