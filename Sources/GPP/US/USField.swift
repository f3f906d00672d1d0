/// A field of the US sections (usnat and the states), named exactly as the IAB section specs'
/// tables spell it; the raw value is that name.
public enum USField: String, Sendable, CaseIterable {
    /// `Version` Int(6): the section's version (in usmd/usin/usky/usri, the section header's).
    case version = "Version"
    /// `MspaVersion` Int(6) (usmd, usin, usky, usri).
    case mspaVersion = "MspaVersion"
    /// `SharingNotice`: notice of sharing personal data with third parties.
    case sharingNotice = "SharingNotice"
    /// `ProcessingNotice`: notice describing the processing of personal data.
    case processingNotice = "ProcessingNotice"
    /// `SaleOptOutNotice`: notice of the right to opt out of sale.
    case saleOptOutNotice = "SaleOptOutNotice"
    /// `SharingOptOutNotice` (usnat, usca): notice of the right to opt out of sharing.
    case sharingOptOutNotice = "SharingOptOutNotice"
    /// `TargetedAdvertisingOptOutNotice`: notice of the right to opt out of targeted advertising.
    case targetedAdvertisingOptOutNotice = "TargetedAdvertisingOptOutNotice"
    /// `SensitiveDataProcessingOptOutNotice` (usnat, usut).
    case sensitiveDataProcessingOptOutNotice = "SensitiveDataProcessingOptOutNotice"
    /// `SensitiveDataLimitUseNotice` (usnat, usca): notice of the right to limit use of
    /// sensitive personal information.
    case sensitiveDataLimitUseNotice = "SensitiveDataLimitUseNotice"
    /// `SensitiveDataOptOutNotice` (usia).
    case sensitiveDataOptOutNotice = "SensitiveDataOptOutNotice"
    /// `SaleOptOut`: opted out of the sale of personal data.
    case saleOptOut = "SaleOptOut"
    /// `SharingOptOut` (usnat, usca): opted out of sharing.
    case sharingOptOut = "SharingOptOut"
    /// `TargetedAdvertisingOptOut`: opted out of targeted advertising.
    case targetedAdvertisingOptOut = "TargetedAdvertisingOptOut"
    /// `SensitiveDataProcessing` N-Bitfield(2, n): per category, consent (most states) or
    /// opt-out (usca, usut, usia).
    case sensitiveDataProcessing = "SensitiveDataProcessing"
    /// `KnownChildSensitiveDataConsents`: an Int(2) or an N-Bitfield(2, n) of consents.
    case knownChildSensitiveDataConsents = "KnownChildSensitiveDataConsents"
    /// `KnownChildSensitiveDataConsent` Int(2): Tennessee's table spells it in the singular.
    case knownChildSensitiveDataConsent = "KnownChildSensitiveDataConsent"
    /// `PersonalDataConsents` (usnat, usca): consent to use beyond the disclosed purpose.
    case personalDataConsents = "PersonalDataConsents"
    /// `AdditionalDataProcessingConsent`: consent to processing beyond the disclosed purposes.
    case additionalDataProcessingConsent = "AdditionalDataProcessingConsent"
    /// `MspaCoveredTransaction`: 1 the transaction is covered by the MSPA, 2 it is not.
    case mspaCoveredTransaction = "MspaCoveredTransaction"
    /// `MspaOptOutOptionMode`: 1 yes, 2 no.
    case mspaOptOutOptionMode = "MspaOptOutOptionMode"
    /// `MspaServiceProviderMode`: 1 yes, 2 no.
    case mspaServiceProviderMode = "MspaServiceProviderMode"
    /// `MspaMode` (usmd, usin, usky, usri): 1 opt-out option mode, 2 service provider mode.
    case mspaMode = "MspaMode"
    /// `Gpc` Boolean, in the GPC sub-section: the user agent sent Global Privacy Control.
    case gpc = "Gpc"
}
