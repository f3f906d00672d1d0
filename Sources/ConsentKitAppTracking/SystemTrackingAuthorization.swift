import ConsentKit
#if canImport(AppTrackingTransparency)
import AppTrackingTransparency

/// App Tracking Transparency on this device: Apple's `ATTrackingManager`. Asking needs
/// `NSUserTrackingUsageDescription` in the app's Info.plist (without it the request crashes).
///
/// `ATTrackingManager` is iOS 14, macOS 11, tvOS 14 and visionOS 1: the package's iOS 15 and
/// macOS 12 minimums and visionOS's first release all have it. tvOS declares no minimum (SwiftPM's
/// default is older than 14), so there the type checks at run time and reports ATT unavailable
/// below tvOS 14. watchOS has no AppTrackingTransparency.
public struct SystemTrackingAuthorization: TrackingAuthorizing {
    /// The system's ATT.
    public init() {}

    /// True from iOS and tvOS 14 and macOS 11.
    public var isAvailable: Bool {
        if #available(tvOS 14, *) { return true }
        return false
    }

    /// `ATTrackingManager.trackingAuthorizationStatus`.
    public var status: TrackingAuthorizationStatus {
        guard #available(tvOS 14, *) else { return .notDetermined }
        return TrackingAuthorizationStatus(ATTrackingManager.trackingAuthorizationStatus)
    }

    /// `ATTrackingManager.requestTrackingAuthorization()`, the async form: a completion closure
    /// written in main-actor code would trap, as the system calls it off the main thread.
    public func requestAuthorization() async -> TrackingAuthorizationStatus {
        guard #available(tvOS 14, *) else { return .notDetermined }
        return TrackingAuthorizationStatus(await ATTrackingManager.requestTrackingAuthorization())
    }
}

@available(tvOS 14, *)
extension TrackingAuthorizationStatus {
    /// The status Apple's value names; a status added later counts as denied.
    init(_ status: ATTrackingManager.AuthorizationStatus) {
        switch status {
        case .notDetermined: self = .notDetermined
        case .authorized: self = .authorized
        case .denied: self = .denied
        case .restricted: self = .restricted
        @unknown default: self = .denied
        }
    }
}

#else

/// App Tracking Transparency on this platform, which has none (Linux, watchOS): never
/// available, never asks.
public struct SystemTrackingAuthorization: TrackingAuthorizing {
    /// The platform's (absent) ATT.
    public init() {}

    /// Always false: the platform has no ATT.
    public var isAvailable: Bool { false }

    /// Always ``TrackingAuthorizationStatus/notDetermined``.
    public var status: TrackingAuthorizationStatus { .notDetermined }

    /// Shows nothing; returns ``TrackingAuthorizationStatus/notDetermined``.
    public func requestAuthorization() async -> TrackingAuthorizationStatus { .notDetermined }
}

#endif
