import TCF

/// Why a value could not be written as a GPP string: which section and field, and why.
public struct GPPEncodingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong.
    public enum Reason: Sendable, Equatable {
        /// The value does not fit the field; `allowed` says what does, like `0...2`.
        case outOfRange(value: Int, allowed: String)
        /// A list field has `count` entries where the section's layout has `expected`.
        case wrongCount(count: Int, expected: Int)
        /// Two sections with the same id.
        case duplicateSection
        /// A `uspv1` character that is not `Y`, `N` or `-`, or an unknown section's text that
        /// contains `~` or is empty.
        case invalidText(String)
        /// The embedded TCF encoder refused the value.
        case tcf(TCFEncodingError)
    }

    /// What is wrong.
    public let reason: Reason
    /// The section's id.
    public let sectionId: Int
    /// The section's API prefix, when the id is a known one.
    public let sectionPrefix: String?
    /// The spec's name of the field, like `SaleOptOut`; empty when no field applies.
    public let field: String

    /// An error of `reason` in `field` of section `sectionId`.
    public init(_ reason: Reason, sectionId: Int, sectionPrefix: String? = nil, field: String = "") {
        self.reason = reason
        self.sectionId = sectionId
        self.sectionPrefix = sectionPrefix ?? GPPSectionID(rawValue: sectionId)?.prefix
        self.field = field
    }

    /// One line for a person, like `usnat SaleOptOut is 3; the format allows 0...2`.
    public var description: String {
        let section = sectionPrefix ?? "section \(sectionId)"
        let name = field.isEmpty ? section : "\(section) \(field)"
        switch reason {
        case .outOfRange(let value, let allowed): return "\(name) is \(value); the format allows \(allowed)"
        case .wrongCount(let count, let expected): return "\(name) has \(count) entries; the section has \(expected)"
        case .duplicateSection: return "\(section) appears twice"
        case .invalidText(let text): return "\(name) cannot be written as \"\(text)\""
        case .tcf(let error): return "\(section): \(error.description)"
        }
    }
}
