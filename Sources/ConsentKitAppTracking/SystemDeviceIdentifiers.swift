import ConsentKit
import Foundation
#if canImport(AdSupport)
import AdSupport
#endif
#if canImport(UIKit) && !os(watchOS)
import UIKit
#endif

/// The device's identifiers: `ASIdentifierManager` (AdSupport) for the advertising
/// identifier, `UIDevice.identifierForVendor` (UIKit) for the vendor's; nil where the platform
/// has no such framework (Linux, watchOS; macOS has no vendor identifier).
///
/// Both APIs are older than every minimum the package supports (AdSupport: iOS 6, macOS 10.14,
/// tvOS 9; `identifierForVendor`: iOS 6, tvOS 9), so neither needs an availability check. The
/// identifiers are read and handed to the caller, never sent anywhere by ConsentKit.
public struct SystemDeviceIdentifiers: DeviceIdentifierSource {
    /// The system's identifiers.
    public init() {}

    /// `ASIdentifierManager.shared().advertisingIdentifier`, zeros included.
    public var advertisingIdentifier: UUID? {
        get async {
            #if canImport(AdSupport)
            return ASIdentifierManager.shared().advertisingIdentifier
            #else
            return nil
            #endif
        }
    }

    /// `UIDevice.current.identifierForVendor`, read on the main actor (UIDevice lives there).
    public var vendorIdentifier: UUID? {
        get async {
            #if canImport(UIKit) && !os(watchOS)
            return await MainActor.run { UIDevice.current.identifierForVendor }
            #else
            return nil
            #endif
        }
    }
}
