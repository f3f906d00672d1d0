/// A consent string of either TCF version, decoded by looking at its version field.
///
/// Use this where strings of both generations arrive (logs, ad requests, old app installs);
/// use ``TCString`` or ``ConsentStringV1`` directly when the version is known.
public enum ConsentString: Sendable, Equatable {
    /// A TCF v1.1 consent string.
    case v1(ConsentStringV1)
    /// A TCF v2.x TC string.
    case v2(TCString)

    /// Decodes `string` as v1.1 or v2.x according to its first six bits.
    ///
    /// - Throws: ``TCFDecodingError``; ``TCFDecodingError/Reason/unsupportedVersion(_:)`` when
    ///   the version is neither 1 nor 2.
    public init(decoding string: String) throws(TCFDecodingError) {
        // The version is the first six bits, which is exactly the first base64 character.
        switch string.utf8.first {
        case UInt8(ascii: "B"): self = .v1(try ConsentStringV1(decoding: string))
        case UInt8(ascii: "C"): self = .v2(try TCString(decoding: string))
        case nil: throw TCFDecodingError(.empty, segment: 0, bitOffset: 0)
        default:
            // Let the segment reader report a bad character, else the version it found.
            let version = try Segment.read(string.prefix { $0 != "." }, index: 0) { (reader: inout BitReader) throws(TCFDecodingError) in try reader.read(6, "Version") }
            throw TCFDecodingError(.unsupportedVersion(version), field: "Version", segment: 0, bitOffset: 0)
        }
    }

    /// Encodes the value in its own version's format.
    public func encoded() throws(TCFEncodingError) -> String {
        switch self {
        case .v1(let value): try value.encoded()
        case .v2(let value): try value.encoded()
        }
    }

    /// The policy-level findings of the decoded string.
    public var validation: [ValidationFinding] {
        switch self {
        case .v1(let value): value.validation
        case .v2(let value): value.validation
        }
    }
}
