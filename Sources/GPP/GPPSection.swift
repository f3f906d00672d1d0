import TCF

/// One section of a GPP string, decoded.
///
/// The two TCF sections are boxed (`indirect`): a TC string's value is some 300 bytes, every
/// other section's a few dozen, and an unboxed case would make every section that large to move.
public enum GPPSection: Sendable, Equatable {
    /// Section 2, `tcfeuv2`: the IAB Europe TC string, decoded by the TCF module's codec.
    indirect case tcfeuv2(TCString)
    /// Section 5, `tcfcav1`: IAB Canada's TCF.
    indirect case tcfcav1(TCFCanadaSection)
    /// Section 6, `uspv1`: the US Privacy string.
    case uspv1(USPrivacyV1)
    /// Sections 7–27: usnat and the US states.
    case us(USSection)
    /// A section this module does not decode (1, 4, ids registered later), kept as its text so
    /// the string re-encodes whole.
    case unknown(id: Int, text: String)

    /// The section's id.
    public var id: Int {
        switch self {
        case .tcfeuv2: GPPSectionID.tcfeuv2.rawValue
        case .tcfcav1: GPPSectionID.tcfcav1.rawValue
        case .uspv1: GPPSectionID.uspv1.rawValue
        case .us(let section): section.id.rawValue
        case .unknown(let id, _): id
        }
    }

    /// The section's API prefix, like `usnat`; nil for an unknown section.
    public var prefix: String? { GPPSectionID(rawValue: id)?.prefix }

    /// The section's text, as it goes between the `~`s.
    ///
    /// - Throws: ``GPPEncodingError`` naming the section and field that does not fit.
    public func encoded() throws(GPPEncodingError) -> String {
        switch self {
        case .tcfeuv2(let tcString):
            do { return try tcString.encoded() } catch {
                throw GPPEncodingError(.tcf(error), sectionId: id, field: error.field)
            }
        case .tcfcav1(let section): return try section.encoded()
        case .uspv1(let section): return try section.encoded()
        case .us(let section): return try section.encoded()
        case .unknown(let id, let text):
            guard !text.isEmpty, !text.contains("~") else { throw GPPEncodingError(.invalidText(text), sectionId: id) }
            return text
        }
    }
}
