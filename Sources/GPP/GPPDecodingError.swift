import TCF

/// Why a GPP string could not be decoded, and where: which section, which field, which bit.
///
/// Nothing is guessed: a truncated section is an error, never "no opt-out" or "consent given".
public struct GPPDecodingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong.
    public enum Reason: Sendable, Equatable {
        /// The string is empty.
        case empty
        /// The string is a bare TCF TC string (its first character is `C`, or `B` for v1.1), not
        /// a GPP string; decode it with `TCString(decoding:)` or wrap it in a GPP string.
        case bareTCString
        /// The header's first 12 bits are not `Type` 3 and `Version` 1.
        case invalidHeader(type: Int, version: Int)
        /// The header lists `header` sections but the string carries `found`.
        case sectionCountMismatch(header: Int, found: Int)
        /// A section (or one of its sub-sections) has no text.
        case emptySection
        /// A character that is not base64url (or, in `uspv1`, not allowed there).
        case invalidCharacter(Character)
        /// The field needs `needed` bits but only `available` are left.
        case truncated(needed: Int, available: Int)
        /// An id lies outside `1...65535` (a Fibonacci code longer than 32 bits counts as one).
        case idOutOfRange(Int)
        /// A field holds a value the format does not allow (a section header naming another
        /// section, a `uspv1` version other than 1).
        case invalidValue(Int)
        /// A sub-section's type (or its id in the section header) is not one the section defines,
        /// or it comes twice.
        case invalidSubsection(Int)
        /// The section has more `.`-separated parts than its sub-sections allow.
        case tooManySubsections(Int)
        /// The embedded TC string (`tcfeuv2`) or TCF structure failed with this TCF reason.
        case tcf(TCFDecodingError.Reason)
    }

    /// What is wrong.
    public let reason: Reason
    /// The section's id (`7` for usnat); nil for the header and for the string as a whole.
    public let sectionId: Int?
    /// The section's API prefix (`usnat`); nil for the header or an unknown section.
    public let sectionPrefix: String?
    /// The `.`-separated part of the section (0 = the first) the problem is in.
    public let subsection: Int
    /// The spec's name of the field being read, like `SaleOptOut`; empty when no field applies.
    public let field: String
    /// Bits from the start of that part where the offending field begins; for a bad character,
    /// six times its index in the part.
    public let bitOffset: Int

    /// An error of `reason` at `bitOffset` of `field` in part `subsection` of section `sectionId`.
    public init(
        _ reason: Reason, sectionId: Int? = nil, sectionPrefix: String? = nil, subsection: Int = 0,
        field: String = "", bitOffset: Int = 0
    ) {
        self.reason = reason
        self.sectionId = sectionId
        self.sectionPrefix = sectionPrefix
        self.subsection = subsection
        self.field = field
        self.bitOffset = bitOffset
    }

    /// The TCF reader's error `error`, placed in section `id`.
    init(_ error: TCFDecodingError, section id: Int?, prefix: String?) {
        let reason: Reason
        switch error.reason {
        case .empty: reason = .emptySection
        case .invalidCharacter(let character): reason = .invalidCharacter(character)
        case .truncated(let needed, let available): reason = .truncated(needed: needed, available: available)
        case .idOutOfRange(let id, _): reason = .idOutOfRange(id)
        default: reason = .tcf(error.reason)
        }
        self.init(reason, sectionId: id, sectionPrefix: prefix, subsection: error.segment, field: error.field, bitOffset: error.bitOffset)
    }

    /// A short stable identifier of the reason, like `truncated` or `invalid-header`, for JSON
    /// error objects and logs.
    public var code: String {
        switch reason {
        case .empty: "empty"
        case .bareTCString: "bare-tc-string"
        case .invalidHeader: "invalid-header"
        case .sectionCountMismatch: "section-count-mismatch"
        case .emptySection: "empty-section"
        case .invalidCharacter: "invalid-character"
        case .truncated: "truncated"
        case .idOutOfRange: "id-out-of-range"
        case .invalidValue: "invalid-value"
        case .invalidSubsection: "invalid-subsection"
        case .tooManySubsections: "too-many-subsections"
        case .tcf: "tcf"
        }
    }

    /// One line for a person: what is wrong, in which section and field, and where.
    public var description: String {
        let what: String
        switch reason {
        case .empty: what = "empty string"
        case .bareTCString: what = "a bare TCF TC string, not a GPP string (GPP strings start with D)"
        case .invalidHeader(let type, let version):
            what = "header is Type \(type) Version \(version), expected Type 3 Version 1"
        case .sectionCountMismatch(let header, let found):
            what = "header lists \(header) sections, the string has \(found)"
        case .emptySection: what = "empty section"
        case .invalidCharacter(let character): what = "invalid character \"\(character)\""
        case .truncated(let needed, let available): what = "truncated: needs \(needed) bits, \(available) left"
        case .idOutOfRange(let id): what = "id \(id) is outside 1...65535"
        case .invalidValue(let value): what = "invalid value \(value)"
        case .invalidSubsection(let type): what = "invalid or repeated sub-section \(type)"
        case .tooManySubsections(let count): what = "\(count) sub-sections, more than the section defines"
        case .tcf(let reason): what = TCFDecodingError(reason, segment: 0, bitOffset: 0).description
            .replacingOccurrences(of: " at bit 0 of segment 0", with: "")
        }
        var place = ""
        if let sectionId { place += " in section \(sectionId)" + (sectionPrefix.map { " (\($0))" } ?? "") }
        else if reason != .empty, reason != .bareTCString { place += " in the header" }
        if !field.isEmpty { place += ", field \(field)" }
        if reason != .empty, reason != .bareTCString { place += " at bit \(bitOffset) of part \(subsection)" }
        return what + place
    }
}
