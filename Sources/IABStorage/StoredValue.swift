/// A value the IAB in-app specs keep under a key: a string, an integer (`Number`) or a boolean.
///
/// The specs fix each key's type: v1 keys are strings except `IABConsent_CMPPresent` (a boolean);
/// v2 keys are strings or integers, and the v2 "booleans" (`IABTCF_gdprApplies`,
/// `IABTCF_PurposeOneTreatment`, `IABTCF_UseNonStandardTexts`) are integers 0 or 1.
public enum StoredValue: Sendable, Hashable, CustomStringConvertible {
    /// A string: consent strings, binary strings of '0' and '1', country codes.
    case string(String)
    /// An integer (`Number` in the v2 spec).
    case integer(Int)
    /// A boolean (only `IABConsent_CMPPresent`).
    case bool(Bool)

    /// The string, when this is one.
    public var string: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The integer, when this is one.
    public var integer: Int? {
        if case .integer(let value) = self { return value }
        return nil
    }

    /// The boolean, when this is one.
    public var bool: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The value as a reader would print it.
    public var description: String {
        switch self {
        case .string(let value): "\"\(value)\""
        case .integer(let value): String(value)
        case .bool(let value): String(value)
        }
    }
}
