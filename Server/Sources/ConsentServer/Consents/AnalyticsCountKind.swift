/// What a row of `analytics_counts` counts (its `kind`; the item is the id or name within it).
/// The raw values are the API's.
public enum AnalyticsCountKind: String, Sendable, CaseIterable {
    /// The events a rate is out of: `tcf` (events whose record carries an id list), `us` (events
    /// whose GPP string's section is a US one).
    case events
    /// Consent per purpose id.
    case purposeConsent
    /// No objection to the legitimate interest, per purpose id.
    case purposeLegitimateInterest
    /// Opt-in per special feature id.
    case specialFeatureOptin
    /// Consent per vendor id.
    case vendorConsent
    /// No objection to the legitimate interest, per vendor id.
    case vendorLegitimateInterest
    /// Consent per Google ad-tech provider id (the Additional Consent string's consented ids).
    case additionalConsent
    /// The Google choice: `personalized`, `nonPersonalized`, `adFree` (the record's
    /// `googleAdsChoice`) and `additionalConsent` (an Additional Consent string carried).
    case google
    /// The US opt-outs: `saleOptOut`, `sharingOptOut`, `targetedAdvertisingOptOut`,
    /// `sensitiveDataLimit`, `gpc` (GPC signalled).
    case us
}
