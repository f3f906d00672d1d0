import TCF

/// The in-app consent management platform: ``ConsentManager`` and the consent value
/// (``ConsentState``). The vendors' side is the `IABConsentReader` library; the consent-string
/// codecs and the vendor list live in the `TCF` module it builds on.
public enum ConsentKitSDK {
    /// The SDK's version, sent as the `sdkVersion` of each consent event's proof. (A string's
    /// `CmpVersion` is the CMP identity's, from consentd or ``ConsentConfiguration``, not this.)
    public static let version = "0.1.0"
}
