@testable import ConsentServer
import Testing

/// The settings that keep consentd safe on a public address (issue 24: H2's default, H4's
/// descriptor reserve, M1's per-address cap).
@Suite("Connection limits and safe defaults")
struct ConnectionLimitsTests {
    @Test("h2: the demo is on by default while consentd listens on a loopback address", arguments: ["127.0.0.1", "127.0.0.2", "::1", "localhost"])
    func h2DemoDefaultsToOnOnLoopback(host: String) {
        var settings = ServerSettings()
        settings.host = host
        #expect(settings.demo)
        #expect(settings.demoExposureWarning == nil)
    }

    @Test("h2: the demo is off by default on any other address, and on only when set, with a warning", arguments: ["0.0.0.0", "::", "192.0.2.7"])
    func h2DemoDefaultsToOffElsewhere(host: String) {
        var settings = ServerSettings()
        settings.host = host
        #expect(!settings.demo)
        #expect(settings.demoExposureWarning == nil)
        settings.demo = true
        #expect(settings.demo)
        #expect(settings.demoExposureWarning?.contains("--demo false") == true)
    }

    @Test("m1: one address may hold 64 connections by default, and any number behind a trusted proxy unless set")
    func m1PerAddressCapDefaults() {
        var settings = ServerSettings()
        #expect(settings.maxConnectionsPerAddress == 64)
        settings.clientIPHeader = "X-Forwarded-For"
        #expect(settings.maxConnectionsPerAddress == 0)
        settings.maxConnectionsPerAddress = 16
        #expect(settings.maxConnectionsPerAddress == 16)
    }

    @Test("h4: the caps are kept when they and the reserve fit in the descriptor limit")
    func h4CapsKeptWhenTheyFit() {
        let caps = ListenerCaps(ServerSettings(), descriptorLimit: 20_000)
        #expect(caps == ListenerCaps(main: 1024, demoFrame: 64, warning: nil))
    }

    @Test("h4: caps that do not fit with the reserve are lowered in proportion, with a warning naming the limit")
    func h4CapsLoweredToFitTheDescriptorLimit() throws {
        let caps = ListenerCaps(ServerSettings(), descriptorLimit: 1024)
        #expect(caps.main + caps.demoFrame + ListenerCaps.reserve <= 1024)
        #expect(caps.main == 1024 * (1024 - ListenerCaps.reserve) / 1088)
        #expect(caps.demoFrame == 64 * (1024 - ListenerCaps.reserve) / 1088)
        let warning = try #require(caps.warning)
        #expect(warning.contains("may open 1024 files"))
        #expect(warning.contains("--max-connections"))
    }

    @Test("h4: without the demo its port takes no share")
    func h4NoDemoNoShare() {
        var settings = ServerSettings()
        settings.demo = false
        #expect(ListenerCaps(settings, descriptorLimit: 1024 + ListenerCaps.reserve) == ListenerCaps(main: 1024, demoFrame: 0, warning: nil))
    }
}
