import ConsentKit

extension DeviceInfo {
    /// The device the code runs on (``ConsentKit/DeviceInfo/current``) with its identifier for
    /// vendor (IDFV, from `identifiers`: ``SystemDeviceIdentifiers`` reads the system's) as the
    /// debug identifier, so that ``ConsentKit/RegionDebugSettings/deviceIdentifiers`` can list
    /// it. Give it to ``ConsentKit/ConsentConfiguration/device``; the manager logs the
    /// identifier once at start in debug builds, for the developer to copy. Nil where the
    /// platform has no IDFV (macOS, Linux). The identifier is compared on the device, never sent.
    public static func current(identifiers: any DeviceIdentifierSource) async -> DeviceInfo {
        var device: DeviceInfo = .current
        device.debugIdentifier = await identifiers.vendorIdentifier?.uuidString
        return device
    }
}
