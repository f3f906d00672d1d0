/// The Info.plist keys ``InfoPlistCheck`` looks at, named as they are spelled in the plist.
public enum InfoPlistKey: String, Sendable, CaseIterable {
    /// Apple's purpose string for App Tracking Transparency: the text of the system's tracking
    /// prompt. A non-empty string, needed by any app that asks for tracking permission.
    case userTrackingUsageDescription = "NSUserTrackingUsageDescription"
    /// The AdMob app ID, `ca-app-pub-<16 digits>~<10 digits>`, a string. The Google Mobile Ads
    /// SDK and Google's User Messaging Platform need it.
    case gadApplicationIdentifier = "GADApplicationIdentifier"
    /// The Boolean `YES` that makes the Google Mobile Ads SDK wait with app measurement until the
    /// app starts the SDK or loads an ad, that is until consent is known.
    case gadDelayAppMeasurementInit = "GADDelayAppMeasurementInit"
}
