import ConsentKit

extension TrackingIdentifiers {
    /// The identifiers now, from the system: ATT's status (``SystemTrackingAuthorization``), the
    /// advertising and vendor identifiers (``SystemDeviceIdentifiers``; the advertising one is
    /// read only when tracking is authorized), and the installation id kept in `store`.
    public static func current(store: any KeyValueStore) async -> TrackingIdentifiers {
        await current(tracking: SystemTrackingAuthorization(), device: SystemDeviceIdentifiers(), store: store)
    }
}
