/// Fills the consent macros of an ad tag or pixel URL, as an ad server or a calling vendor does
/// before firing it.
///
/// | Macro | Spec | Value |
/// | --- | --- | --- |
/// | `{gdpr}` | Mobile In-App Consent APIs v1.0 | `1`, `0`, or empty when undetermined |
/// | `{gdpr_consent}` | Mobile In-App Consent APIs v1.0 | the TC string; with v1 keys only, the v1.1 consent string |
/// | `${GDPR}` | CMP API v2, "How do ad tags work?" | as `{gdpr}` |
/// | `${GDPR_CONSENT_XXXXX}` | Consent string format v2, URL-based services | the TC string; `XXXXX` is the receiving vendor's id |
///
/// Values are percent-encoded: every byte but the unreserved characters of RFC 3986
/// (`A-Z a-z 0-9 - . _ ~`) becomes `%XX`. A TC string (base64url) is unreserved already, so it
/// passes as is, as the spec requires; a v1 string in the standard alphabet has its `+ / =`
/// encoded. Absent values expand to nothing.
///
/// `{gdpr_consent}` names the `gdpr_consent` URL parameter that the v2 macro fills too, and
/// the v1 strings it once carried have not been valid since 2020, so it gets the TC string when
/// one is stored. `${GDPR_CONSENT_XXXXX}` is replaced only when `XXXXX` is a vendor id
/// (1-65535, decimal, no leading zero), as the spec asks the caller to check; otherwise it is
/// left as written. Checking that vendor's legal basis before firing the URL stays the
/// caller's job (``vendorIds(in:)`` lists the ids a template names). Macros are matched
/// exactly (case included) and in one pass: replaced text is never scanned again.
public struct ConsentMacros: Sendable, Hashable {
    /// The value of `{gdpr}` and `${GDPR}`.
    public let gdprApplies: GDPRApplicability
    /// The TC string, for `${GDPR_CONSENT_XXXXX}` and `{gdpr_consent}`.
    public let tcString: String?
    /// The v1.1 consent string, for `{gdpr_consent}` when there is no TC string.
    public let consentStringV1: String?

    /// Macros with the given values.
    public init(gdprApplies: GDPRApplicability, tcString: String?, consentStringV1: String? = nil) {
        self.gdprApplies = gdprApplies
        self.tcString = tcString
        self.consentStringV1 = consentStringV1
    }

    /// Macros with the values of `snapshot`.
    public init(_ snapshot: IABConsentSnapshot) {
        self.init(gdprApplies: snapshot.gdprApplies, tcString: snapshot.tcString, consentStringV1: snapshot.consentStringV1)
    }

    /// `template` with every consent macro replaced by its percent-encoded value.
    public func expand(_ template: String) -> String {
        let gdpr = Array(gdprApplies.macroValue.utf8)
        let tc = Self.percentEncoded(tcString ?? "")
        let consent = Self.percentEncoded(tcString ?? consentStringV1 ?? "")
        var output: [UInt8] = []
        output.reserveCapacity(template.utf8.count + tc.count)
        Self.scan(template) { piece in
            switch piece {
            case .text(let bytes): output.append(contentsOf: bytes)
            case .gdpr, .gdprV2: output.append(contentsOf: gdpr)
            case .gdprConsent: output.append(contentsOf: consent)
            case .gdprConsentForVendor: output.append(contentsOf: tc)
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// The vendor ids of the `${GDPR_CONSENT_XXXXX}` macros in `template` that would be
    /// replaced, in order of appearance (repeats included): the vendors whose legal basis a
    /// caller should check before firing the URL.
    public static func vendorIds(in template: String) -> [Int] {
        var ids: [Int] = []
        scan(template) { piece in
            if case .gdprConsentForVendor(let id) = piece { ids.append(id) }
        }
        return ids
    }

    // MARK: Scanning

    /// A run of literal text or one macro.
    private enum Piece {
        case text(ArraySlice<UInt8>)
        case gdpr, gdprConsent, gdprV2
        case gdprConsentForVendor(Int)
    }

    private static let gdprMacro = Array("{gdpr}".utf8)
    private static let gdprConsentMacro = Array("{gdpr_consent}".utf8)
    private static let gdprV2Macro = Array("${GDPR}".utf8)
    private static let gdprConsentV2Prefix = Array("${GDPR_CONSENT_".utf8)

    /// Calls `body` with the template's literal runs and macros, in order. Macros are ASCII, so
    /// cutting the UTF-8 bytes around them keeps every other character whole.
    private static func scan(_ template: String, _ body: (Piece) -> Void) {
        let bytes = Array(template.utf8)
        var index = 0, literalStart = 0
        while index < bytes.count {
            let byte = bytes[index]
            guard byte == UInt8(ascii: "{") || byte == UInt8(ascii: "$"),
                  let (piece, length) = macro(in: bytes, at: index)
            else {
                index += 1
                continue
            }
            if literalStart < index { body(.text(bytes[literalStart..<index])) }
            body(piece)
            index += length
            literalStart = index
        }
        if literalStart < bytes.count { body(.text(bytes[literalStart...])) }
    }

    /// The macro starting at `index`, and its length in bytes; nil when none does.
    private static func macro(in bytes: [UInt8], at index: Int) -> (Piece, Int)? {
        let rest = bytes[index...]
        if rest.starts(with: gdprMacro) { return (.gdpr, gdprMacro.count) }
        if rest.starts(with: gdprConsentMacro) { return (.gdprConsent, gdprConsentMacro.count) }
        if rest.starts(with: gdprV2Macro) { return (.gdprV2, gdprV2Macro.count) }
        guard rest.starts(with: gdprConsentV2Prefix) else { return nil }
        let digitsStart = index + gdprConsentV2Prefix.count
        var end = digitsStart
        while end < bytes.count, end - digitsStart <= 5, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[end]) {
            end += 1
        }
        guard end < bytes.count, bytes[end] == UInt8(ascii: "}"), end > digitsStart,
              bytes[digitsStart] != UInt8(ascii: "0"),
              let id = Int(String(decoding: bytes[digitsStart..<end], as: UTF8.self)), id <= 65_535
        else { return nil }
        return (.gdprConsentForVendor(id), end + 1 - index)
    }

    // MARK: Percent-encoding

    /// `text`'s UTF-8 bytes with everything but RFC 3986's unreserved characters as `%XX`.
    static func percentEncoded(_ text: String) -> [UInt8] {
        let hex = Array("0123456789ABCDEF".utf8)
        var output: [UInt8] = []
        output.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
                 UInt8(ascii: "_"), UInt8(ascii: "~"):
                output.append(byte)
            default:
                output.append(contentsOf: [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]])
            }
        }
        return output
    }
}

extension IABConsentSnapshot {
    /// `template` with its consent macros filled from this snapshot; see ``ConsentMacros``.
    public func expandingMacros(in template: String) -> String {
        ConsentMacros(self).expand(template)
    }
}
