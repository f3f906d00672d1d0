import ConsentdAPI
extension GoogleAdsChoice {
    /// The ads a decision records in Google's terms, given the Google status it reads as
    /// (``GoogleConsentStatus/of(_:config:gdprApplies:)``): ad-free when the user prefers the
    /// paid version, else the status's personalized or non-personalized ads; nil while the
    /// status is ``GoogleConsentStatus/unknown``.
    ///
    /// Unknown means Google's re-consent rule set the decision aside (an ad-tech provider the
    /// user has not seen, or a change to non-personalized-only serving): the user has not made a
    /// Google choice that holds. Recording non-personalized ads would claim a choice nobody made,
    /// and a later real choice would look like a change of mind, so no choice is recorded. (Ads
    /// are still requested with `npa=1` meanwhile, ``GoogleAdsConsent/adRequestParameters``:
    /// that is how ads are served, not what the user chose.)
    public init?(_ decision: ConsentState, status: GoogleConsentStatus) {
        switch (decision.prefersAdFree, status) {
        case (true, _): self = .adFree
        case (false, .personalized): self = .personalized
        case (false, .nonPersonalized): self = .nonPersonalized
        case (false, .unknown): return nil
        }
    }
}
