/// The GPP sections this module reads and writes, by their registered id; each case is named
/// after the section's client-side API prefix (`Sections/Section Information.md`).
public enum GPPSectionID: Int, Sendable, CaseIterable, Comparable {
    /// 2: IAB Europe TCF v2 (the TC string as a section).
    case tcfeuv2 = 2
    /// 5: IAB Canada TCF.
    case tcfcav1 = 5
    /// 6: the discontinued US Privacy string (CCPA), read for compatibility.
    case uspv1 = 6
    /// 7: the MSPA US National approach.
    case usnat = 7
    /// 8: California.
    case usca = 8
    /// 9: Virginia.
    case usva = 9
    /// 10: Colorado.
    case usco = 10
    /// 11: Utah.
    case usut = 11
    /// 12: Connecticut.
    case usct = 12
    /// 13: Florida.
    case usfl = 13
    /// 14: Montana.
    case usmt = 14
    /// 15: Oregon.
    case usor = 15
    /// 16: Texas.
    case ustx = 16
    /// 17: Delaware.
    case usde = 17
    /// 18: Iowa.
    case usia = 18
    /// 19: Nebraska.
    case usne = 19
    /// 20: New Hampshire.
    case usnh = 20
    /// 21: New Jersey.
    case usnj = 21
    /// 22: Tennessee.
    case ustn = 22
    /// 23: Minnesota.
    case usmn = 23
    /// 24: Maryland.
    case usmd = 24
    /// 25: Indiana.
    case usin = 25
    /// 26: Kentucky.
    case usky = 26
    /// 27: Rhode Island.
    case usri = 27

    /// The client-side API prefix, like `usnat`, exactly as the GPP spells it.
    public var prefix: String { "\(self)" }

    /// The section whose API prefix is `prefix`, if this module knows it.
    public init?(prefix: String) {
        guard let id = Self.allCases.first(where: { $0.prefix == prefix }) else { return nil }
        self = id
    }

    /// Whether this is a US section (usnat or a state, ids 7–27).
    public var isUS: Bool { rawValue >= 7 }

    /// Orders sections by id.
    public static func < (lhs: GPPSectionID, rhs: GPPSectionID) -> Bool { lhs.rawValue < rhs.rawValue }
}
