/// App Tracking Transparency as the SDK sees it: the current status and the one request the
/// system answers with a prompt.
///
/// `SystemTrackingAuthorization` (`ConsentKitAppTracking`) is Apple's `ATTrackingManager`;
/// ``SimulatedTrackingAuthorization`` behaves like it in tests, the app's included.
public protocol TrackingAuthorizing: Sendable {
    /// Whether this device has ATT (iOS and tvOS 14+, macOS 11+). When false, ``status`` means
    /// nothing and ``requestAuthorization()`` shows no prompt; ``ConsentFlow`` then treats ATT
    /// as unavailable.
    var isAvailable: Bool { get }

    /// The status now, without asking.
    var status: TrackingAuthorizationStatus { get }

    /// Asks the user, and returns the status afterwards. The system shows its prompt once per
    /// installation, only while the status is ``TrackingAuthorizationStatus/notDetermined``
    /// and the app is active; every other call returns the current status at once.
    func requestAuthorization() async -> TrackingAuthorizationStatus
}
