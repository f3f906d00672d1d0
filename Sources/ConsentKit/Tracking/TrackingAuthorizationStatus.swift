/// The user's answer to App Tracking Transparency (ATT) for this app, as the system keeps it:
/// the four states of Apple's `ATTrackingManager.AuthorizationStatus`.
///
/// Whether ATT exists at all on the device is a separate question
/// (``TrackingAuthorizing/isAvailable``); where a value may describe a device without ATT, it
/// is an optional whose nil means "unavailable".
public enum TrackingAuthorizationStatus: Sendable, Hashable {
    /// The app has not asked yet (or asked while it was not active, so the system showed nothing).
    case notDetermined
    /// The user allowed tracking (or allows every app to track).
    case authorized
    /// The user refused tracking for this app, or turned off "Allow Apps to Request to Track".
    case denied
    /// Tracking is off and the user cannot change it (a managed or child's device): the system
    /// never shows the prompt.
    case restricted
}
