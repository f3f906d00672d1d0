import Foundation
import Testing
import ConsentKit
import ConsentKitAppTracking

/// Seed 001 (Google's Consent SDK, "Testing"): a developer reads the device's identifier from the
/// log, lists it in `debugIdentifiers`, and that device's requests carry the debug geography.
@Suite("001-27: debug devices are listed by their identifier for vendor")
struct DebugDeviceTests {
    static let vendorIdentifier = UUID(uuidString: "8D3C5E2A-41F0-4B7E-9C1D-2A6B3F4E5D60")!

    /// Answers `GET /v1/config` as consentd does (the EEA) and every other request with 404,
    /// keeping the URLs asked.
    final class RecordingConsentd: HTTPTransport, @unchecked Sendable {
        private let lock = NSLock()
        private var asked: [URL] = []
        var urls: [URL] { lock.withLock { asked } }

        func send(_ request: TransportRequest) async throws -> TransportResponse {
            lock.withLock { asked.append(request.url) }
            guard request.url.path.hasSuffix("/v1/config") else { return TransportResponse(status: 404, body: Data()) }
            return TransportResponse(status: 200, body: Data("""
                {"appId":"com.example.app","gdprApplies":true,"region":"eea","country":"DE","geoSource":"debug",
                 "publishers":[{"id":"pub-1","name":"Example","vendorIds":[755],"adTechProviders":[],"nonPersonalizedOnly":false}],
                 "vendorIds":[755],"adTechProviders":[],"vendorListVersion":45,"tcfPolicyVersion":4,"gvlSpecificationVersion":3}
                """.utf8))
        }
    }

    @Test("001-27: the device's debug identifier is its identifier for vendor")
    func identifierIsTheIDFV() async {
        let device = await DeviceInfo.current(identifiers: SimulatedDeviceIdentifiers(advertisingIdentifier: nil, vendorIdentifier: Self.vendorIdentifier))
        #expect(device.debugIdentifier == Self.vendorIdentifier.uuidString)
        #expect(device.isSimulator == DeviceInfo.current.isSimulator)
        let withoutIDFV = await DeviceInfo.current(identifiers: SimulatedDeviceIdentifiers(advertisingIdentifier: nil, vendorIdentifier: nil))
        #expect(withoutIDFV.debugIdentifier == nil)
    }

    @Test(
        "001-27: a device that is not the simulator sends the debug geography exactly when its identifier for vendor is listed",
        arguments: [true, false])
    func listedDeviceSendsDebugGeography(listed: Bool) async throws {
        var device = await DeviceInfo.current(identifiers: SimulatedDeviceIdentifiers(advertisingIdentifier: nil, vendorIdentifier: Self.vendorIdentifier))
        device.isSimulator = false
        let consentd = RecordingConsentd()
        let manager = ConsentManager(configuration: ConsentConfiguration(
            consentd: ConsentdEndpoint(baseURL: URL(string: "https://consent.example.com")!, publishableKey: "ck_pub_k_s", publisherIds: ["pub-1"]),
            cmp: CMPIdentity(cmpId: 300, cmpVersion: 1), store: InMemoryKeyValueStore(), transport: consentd,
            debug: RegionDebugSettings(geography: .notEEA, deviceIdentifiers: listed ? [Self.vendorIdentifier.uuidString] : ["OTHER-DEVICE"]),
            device: device, log: .silent, sync: .disabled))
        await manager.refreshed()
        let config = try #require(consentd.urls.first { $0.path.hasSuffix("/v1/config") })
        let query = URLComponents(url: config, resolvingAgainstBaseURL: false)?.queryItems ?? []
        #expect(query.contains(URLQueryItem(name: "debug_geo", value: "not_eea")) == listed, "\(config)")
    }
}
