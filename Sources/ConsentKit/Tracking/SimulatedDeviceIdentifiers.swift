import Foundation

/// Device identifiers given in advance, for tests: returned exactly as given (give
/// ``TrackingIdentifiers/zeroAdvertisingIdentifier`` to play a system that withholds the IDFA).
public struct SimulatedDeviceIdentifiers: DeviceIdentifierSource {
    /// The advertising identifier the simulated system reports.
    public var advertisingIdentifier: UUID?
    /// The vendor identifier the simulated system reports.
    public var vendorIdentifier: UUID?

    /// A device reporting these identifiers.
    public init(advertisingIdentifier: UUID?, vendorIdentifier: UUID?) {
        self.advertisingIdentifier = advertisingIdentifier
        self.vendorIdentifier = vendorIdentifier
    }
}
