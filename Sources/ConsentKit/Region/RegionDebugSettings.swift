/// Debug geography and the devices it applies to.
public struct RegionDebugSettings: Sendable, Equatable {
    /// The region to pretend to be in: ``DebugRegion/eea``, ``DebugRegion/notEEA``,
    /// ``DebugRegion/us`` or a state's (`DebugRegion.us(state: "CA")`).
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

    /// What the manager logs once at start in a debug build, as Google's SDK logged the id to
    /// list: `device`'s debug identifier and how to list it, or how to give it one, and the
    /// geography that applies.
    func startMessage(on device: DeviceInfo) -> String {
        let applies = geography(on: device).map { "; debug geography \($0.rawValue) applies" } ?? ""
        if let identifier = device.debugIdentifier {
            return "this device's debug identifier: \(identifier) (RegionDebugSettings(geography: .eea, "
                + "deviceIdentifiers: [\"\(identifier)\"]) makes it a debug device)\(applies)"
        }
        if device.isSimulator { return "this is the simulator: a debug geography needs no debug identifier\(applies)" }
        return "this device has no debug identifier: set ConsentConfiguration.device to "
            + "await DeviceInfo.current(identifiers: SystemDeviceIdentifiers()) (ConsentKitAppTracking) to list it in "
            + "RegionDebugSettings.deviceIdentifiers"
    }
}

/// What the SDK knows of the device it runs on.
public struct DeviceInfo: Sendable, Equatable {
    /// The identifier a developer lists to make this a debug device
    /// (``RegionDebugSettings/deviceIdentifiers``); nil when there is none. ``current`` sets
    /// none, as ConsentKit reads no device identifier; `ConsentKitAppTracking`'s
    /// `DeviceInfo.current(identifiers:)` sets the identifier for vendor (IDFV). The manager
    /// logs it once at start in debug builds.
    public var debugIdentifier: String?
    /// Whether this is the iOS simulator.
    public var isSimulator: Bool

    /// Describes a device.
    public init(debugIdentifier: String?, isSimulator: Bool) {
        self.debugIdentifier = debugIdentifier
        self.isSimulator = isSimulator
    }

    /// The device the code runs on: whether it is the simulator; no debug identifier
    /// (`ConsentKitAppTracking`'s `DeviceInfo.current(identifiers:)` adds the IDFV).
    public static var current: DeviceInfo {
        #if targetEnvironment(simulator)
        DeviceInfo(debugIdentifier: nil, isSimulator: true)
        #else
        DeviceInfo(debugIdentifier: nil, isSimulator: false)
        #endif
    }
}
