/// Why a consent string could not be decoded, and where.
///
/// Structural problems throw this error: the string is not base64url, a field runs past the end
/// of its segment, the version or a segment type is unknown, a range ends before it starts, an id
/// lies outside `1...MaxVendorId`. Nothing is guessed: a truncated bitfield is an error, never
/// "consented". Policy problems (a retired policy version, `IsServiceSpecific = 0`) do not throw;
/// they are listed in the decoded value's `validation`.
public struct TCFDecodingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong.
    public enum Reason: Sendable, Equatable {
        /// The string (or one of its segments) is empty.
        case empty
        /// A character that is neither base64url nor standard base64.
        case invalidCharacter(Character)
        /// The field needs `needed` bits but only `available` are left.
        case truncated(needed: Int, available: Int)
        /// The version field holds a version this decoder does not know.
        case unsupportedVersion(Int)
        /// A segment's `SegmentType` is not one of the defined types, or is not allowed there.
        case invalidSegmentType(Int)
        /// The same segment type appears twice.
        case duplicateSegment(Int)
        /// A letter field (language or country code) holds a value above 25 (`Z`).
        case invalidLetter(Int)
        /// A range entry's end id is smaller than its start id.
        case rangeEndBeforeStart(start: Int, end: Int)
        /// An id lies outside `1...maxVendorId` (or is 0 where no maximum applies).
        case idOutOfRange(id: Int, maxVendorId: Int)
    }

    /// What is wrong.
    public let reason: Reason
    /// The spec's name of the field being read, like `vendorConsents.EndVendorId`; empty for
    /// problems with the text itself.
    public internal(set) var field: String
    /// The segment's index in the string, 0 for the first (the core segment of a TC string).
    public let segment: Int
    /// The offset, in bits from the start of the segment, where the offending field begins.
    /// For ``Reason/invalidCharacter(_:)`` it is six times the character's index in the segment.
    public let bitOffset: Int

    /// Creates an error for `field` at `bitOffset` of segment `segment`.
    public init(_ reason: Reason, field: String = "", segment: Int, bitOffset: Int) {
        self.reason = reason
        self.field = field
        self.segment = segment
        self.bitOffset = bitOffset
    }

    /// One line for a person: what is wrong, in which field, and where.
    public var description: String {
        let what: String
        switch reason {
        case .empty: what = "empty string"
        case .invalidCharacter(let character):
            what = "invalid character \"\(character)\" (base64url expected)"
        case .truncated(let needed, let available):
            what = "truncated: needs \(needed) bits, \(available) left"
        case .unsupportedVersion(let version): what = "unsupported version \(version)"
        case .invalidSegmentType(let type): what = "invalid segment type \(type)"
        case .duplicateSegment(let type): what = "segment type \(type) appears twice"
        case .invalidLetter(let value): what = "letter value \(value) is not A-Z"
        case .rangeEndBeforeStart(let start, let end): what = "range end \(end) is before start \(start)"
        case .idOutOfRange(let id, let maxVendorId):
            what = maxVendorId > 0
                ? "id \(id) is outside 1...\(maxVendorId) (MaxVendorId)"
                : "id \(id) is not a valid id (must be at least 1)"
        }
        let place = field.isEmpty ? "" : " in \(field)"
        return "\(what)\(place) at bit \(bitOffset) of segment \(segment)"
    }
}
