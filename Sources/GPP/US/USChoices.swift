// The meanings of the US sections' 2-bit values. Every 2-bit field is 0 = not applicable; what 1
// and 2 mean depends on the field: a notice was given, the user opted out, the user did NOT
// consent. 3 is reserved: it decodes (as `reserved`, never as a yes or a no) and is refused on
// encode.

/// A 2-bit notice field (`SaleOptOutNotice`, …).
public enum USNotice: Int, Sendable, CaseIterable {
    /// 0: not applicable (the business does not do what the notice is about).
    case notApplicable = 0
    /// 1: the notice was provided.
    case provided = 1
    /// 2: the notice was not provided.
    case notProvided = 2
    /// 3: reserved; no meaning.
    case reserved = 3
}

/// A 2-bit opt-out field (`SaleOptOut`, an opt-out `SensitiveDataProcessing` entry, …).
public enum USOptOut: Int, Sendable, CaseIterable {
    /// 0: not applicable.
    case notApplicable = 0
    /// 1: the user opted out.
    case optedOut = 1
    /// 2: the user did not opt out.
    case didNotOptOut = 2
    /// 3: reserved; no meaning.
    case reserved = 3
}

/// A 2-bit consent field (`PersonalDataConsents`, a consent `SensitiveDataProcessing` entry, …).
/// Note the order: 1 is **no** consent.
public enum USConsent: Int, Sendable, CaseIterable {
    /// 0: not applicable.
    case notApplicable = 0
    /// 1: no consent.
    case noConsent = 1
    /// 2: consent.
    case consent = 2
    /// 3: reserved; no meaning.
    case reserved = 3
}

/// A 2-bit MSPA yes/no field (`MspaCoveredTransaction`, `MspaOptOutOptionMode`,
/// `MspaServiceProviderMode`).
public enum USMspaFlag: Int, Sendable, CaseIterable {
    /// 0: not applicable (not allowed for `MspaCoveredTransaction`).
    case notApplicable = 0
    /// 1: yes.
    case yes = 1
    /// 2: no.
    case no = 2
    /// 3: reserved; no meaning.
    case reserved = 3
}

/// `MspaMode` of usmd, usin, usky and usri.
public enum USMspaMode: Int, Sendable, CaseIterable {
    /// 0: not applicable.
    case notApplicable = 0
    /// 1: Opt-Out Option Mode.
    case optOutOptionMode = 1
    /// 2: Service Provider Mode.
    case serviceProviderMode = 2
    /// 3: reserved; no meaning.
    case reserved = 3
}
