import Foundation

/// The identifiers the app and the SDK may use, given the ATT status (as in the IOLib note):
///
/// | status | advertising (IDFA) | vendor (IDFV) | installation id |
/// |---|---|---|---|
/// | authorized | yes | yes | yes |
/// | notDetermined, denied, restricted, ATT unavailable | nil | yes | yes |
///
/// The system reports an advertising identifier of all zeros when it withholds it; that is
/// treated as nil too, whatever the status. (IOLib's table still lists the IDFA for
/// notDetermined: apps built against iOS 13 got it then. Since iOS 14.5 the system hands out
/// zeros until the user authorizes, and ConsentKit supports iOS 15 and later.)
public struct TrackingIdentifiers: Sendable, Hashable {
    /// The advertising identifier: only when tracking is authorized, never zeros.
    public let advertisingIdentifier: UUID?
    /// The identifier for vendor, as the system gives it.
    public let vendorIdentifier: UUID?
    /// ConsentKit's random id for this installation (see ``InstallationIdentifier``).
    public let installationId: UUID

    /// The IDFA the system reports when it withholds it: 00000000-0000-0000-0000-000000000000.
    public static let zeroAdvertisingIdentifier = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))

    /// The identifiers allowed under `trackingStatus` (nil: ATT unavailable): the advertising
    /// identifier is dropped unless the status is authorized, and when it is all zeros.
    public init(trackingStatus: TrackingAuthorizationStatus?, advertisingIdentifier: UUID?, vendorIdentifier: UUID?, installationId: UUID) {
        let allowed = trackingStatus == .authorized && advertisingIdentifier != Self.zeroAdvertisingIdentifier
        self.advertisingIdentifier = allowed ? advertisingIdentifier : nil
        self.vendorIdentifier = vendorIdentifier
        self.installationId = installationId
    }

    /// The identifiers now: the status from `tracking`, the system's identifiers from `device`,
    /// the installation id from `store` (made there on first use). `ConsentKitAppTracking` has
    /// `current(store:)`, which reads the system's.
    public static func current(
        tracking: any TrackingAuthorizing, device: any DeviceIdentifierSource, store: any KeyValueStore
    ) async -> TrackingIdentifiers {
        let status = tracking.isAvailable ? tracking.status : nil
        // The IDFA is not even read unless tracking is authorized.
        let advertising = status == .authorized ? await device.advertisingIdentifier : nil
        return TrackingIdentifiers(
            trackingStatus: status, advertisingIdentifier: advertising,
            vendorIdentifier: await device.vendorIdentifier, installationId: InstallationIdentifier.id(in: store))
    }
}
