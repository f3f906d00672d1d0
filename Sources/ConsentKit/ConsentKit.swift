import TCF

/// The in-app consent management platform.
///
/// For now this module only names the SDK and its version; the consent state, IAB in-app keys,
/// region decision, Google signals and App Tracking Transparency arrive in later releases.
/// The consent-string codecs and the vendor list live in the `TCF` module it builds on.
public enum ConsentKit {
    /// The SDK's version, as written into `CmpVersion` by the CMP once it writes strings.
    public static let version = "0.1.0"
}
