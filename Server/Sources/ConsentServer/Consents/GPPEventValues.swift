import GPP

/// The values of an event's GPP string that consentd keeps in columns of its own, for queries
/// (`consent_events.gpp_*`, migration 4): the section the choice was made under and its opt-outs.
///
/// The section is the string's first US section (usnat or a state's: the one whose opt-outs the
/// user chose), else its first section (`2` for a TCF choice's tcfeuv2). An opt-out is true for
/// 1 (opted out), false for 2 (did not), nil when the section has no such field or says 0 (not
/// applicable: MSPA Service Provider Mode); `gpc` is the GPC sub-section's `Gpc`, nil without one.
struct GPPEventValues: Sendable, Equatable {
    /// The section's id.
    var sectionId: Int
    /// `SaleOptOut`.
    var saleOptOut: Bool?
    /// `SharingOptOut` (usnat, usca).
    var sharingOptOut: Bool?
    /// `TargetedAdvertisingOptOut`.
    var targetedAdvertisingOptOut: Bool?
    /// `Gpc`.
    var gpc: Bool?
    /// Whether the user limited the use of sensitive data: true when a category of
    /// `SensitiveDataProcessing` is opted out of, where the section makes it an opt-out (usca,
    /// usut, usia); nil where it is consent, and without a US section. Not a column: the
    /// analytics count it (AnalyticsTally).
    var sensitiveDataLimit: Bool?

    /// The values of `text`; nil when it has no section or does not decode (an event's string was
    /// checked when it was received, so only a string without sections gets here).
    init?(gppString text: String) {
        guard let gpp = try? GPPString(decoding: text) else { return nil }
        let us = gpp.sections.lazy.compactMap { section -> USSection? in
            if case .us(let value) = section { return value }
            return nil
        }.first
        guard let id = us?.id.rawValue ?? gpp.sections.first?.id else { return nil }
        func flag(_ optOut: USOptOut?) -> Bool? {
            switch optOut {
            case .optedOut?: true
            case .didNotOptOut?: false
            default: nil
            }
        }
        sectionId = id
        saleOptOut = flag(us?.saleOptOut)
        sharingOptOut = flag(us?.sharingOptOut)
        targetedAdvertisingOptOut = flag(us?.targetedAdvertisingOptOut)
        gpc = us?.gpc
        sensitiveDataLimit = us?.layout.sensitiveDataIsOptOut == true ? us?.sensitiveDataOptOuts.map { $0.contains(.optedOut) } : nil
    }

    /// A flag as the columns keep it: 1, 0, or NULL.
    static func column(_ flag: Bool?) -> Int? { flag.map { $0 ? 1 : 0 } }
}
