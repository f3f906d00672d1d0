import Foundation

/// The identifiers the system gives the app, read as they are: `SystemDeviceIdentifiers`
/// (`ConsentKitAppTracking`) on a device, ``SimulatedDeviceIdentifiers`` in tests.
/// ``TrackingIdentifiers`` decides which of them may be used.
public protocol DeviceIdentifierSource: Sendable {
    /// The advertising identifier (IDFA) exactly as the system reports it: since iOS 14.5 all
    /// zeros unless the user authorized tracking.
    var advertisingIdentifier: UUID? { get async }

    /// The identifier for vendor (IDFV): the same for every app of one vendor on the device,
    /// new once all of them are removed; nil when the system has none yet (shortly after a
    /// restart, before the first unlock) or the platform has none.
    var vendorIdentifier: UUID? { get async }
}
