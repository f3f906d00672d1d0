/// What an app does that its Info.plist has to declare: the input of ``InfoPlistCheck``.
///
/// The keys an Info.plist needs follow from what the app does, which the plist itself cannot
/// say: a missing `GADApplicationIdentifier` is only wrong in an app that shows Google ads.
public struct AppUsage: Sendable, Equatable {
    /// The app asks for tracking permission through App Tracking Transparency
    /// (`ATTrackingManager.requestTrackingAuthorization`), directly or through an SDK such as
    /// Google's IDFA explainer.
    public var usesAppTrackingTransparency: Bool

    /// The app shows ads through the Google Mobile Ads SDK and gates them, and Google's app
    /// measurement, on the consent this CMP collects.
    public var usesGoogleMobileAdsWithConsent: Bool

    /// An app that uses ATT and Google Mobile Ads as given.
    public init(usesAppTrackingTransparency: Bool, usesGoogleMobileAdsWithConsent: Bool) {
        self.usesAppTrackingTransparency = usesAppTrackingTransparency
        self.usesGoogleMobileAdsWithConsent = usesGoogleMobileAdsWithConsent
    }
}
