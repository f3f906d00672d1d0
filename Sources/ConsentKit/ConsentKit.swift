import TCF

/// The in-app consent management platform: ``ConsentManager`` and the consent value
/// (``ConsentState``) on the CMP's side, ``IABConsentReader`` on the vendors' side.
/// The consent-string codecs and the vendor list live in the `TCF` module it builds on.
public enum ConsentKitSDK {
    /// The SDK's version, as written into `CmpVersion` by the CMP once it writes strings.
    public static let version = "0.1.0"
}
