/// Debug geography and the devices it applies to.
public struct RegionDebugSettings: Sendable, Equatable {
    /// The region to pretend to be in.
    public var geography: DebugRegion?
    /// Identifiers of the devices the debug geography applies to (compared with
    /// ``DeviceInfo/debugIdentifier``).
    public var deviceIdentifiers: Set<String>

    /// Debug settings; nothing applies on a device not listed, except the simulator.
    public init(geography: DebugRegion? = nil, deviceIdentifiers: Set<String> = []) {
        self.geography = geography
        self.deviceIdentifiers = deviceIdentifiers
    }

    /// The geography to force on `device`: only on a listed device or the simulator.
    public func geography(on device: DeviceInfo) -> DebugRegion? {
        guard let geography else { return nil }
        if device.isSimulator { return geography }
        if let identifier = device.debugIdentifier, deviceIdentifiers.contains(identifier) { return geography }
        return nil
    }
}

/// What the SDK knows of the device it runs on.
public struct DeviceInfo: Sendable, Equatable {
    /// The identifier a developer lists to make this a debug device; nil when there is none.
    /// ``current`` sets none: an app that lists devices passes its own, typically the identifier
    /// for vendor (`SystemDeviceIdentifiers` in `ConsentKitAppTracking` reads it).
    public var debugIdentifier: String?
    /// Whether this is the iOS simulator.
    public var isSimulator: Bool

    /// Describes a device.
    public init(debugIdentifier: String?, isSimulator: Bool) {
        self.debugIdentifier = debugIdentifier
        self.isSimulator = isSimulator
    }

    /// The device the code runs on: whether it is the simulator; no debug identifier.
    public static var current: DeviceInfo {
        #if targetEnvironment(simulator)
        DeviceInfo(debugIdentifier: nil, isSimulator: true)
        #else
        DeviceInfo(debugIdentifier: nil, isSimulator: false)
        #endif
    }
}
