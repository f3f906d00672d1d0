@testable import ConsentServer
import ConsentdAPI
import Foundation
import Logging
import Synchronization
import Testing

/// `--cmp-id` / `--cmp-version`: the CMP identity is the operator's setting.
@Suite("CMP identity setting")
struct CMPSettingsTests {
    @Test("without settings consentd uses the development identity, CMP id 4095 version 1")
    func defaultIsDevelopment() throws {
        var settings = ServerSettings()
        #expect(settings.cmp == AppConfig.CMP(id: 4095, version: 1, isDevelopment: true))
        try settings.setCMP(id: nil, version: nil)
        #expect(settings.cmp == .development)
    }

    @Test("an id and version the operator gives are taken, not marked as development", arguments: [
        ("300", nil, AppConfig.CMP(id: 300, version: 1)),
        ("300", "7", AppConfig.CMP(id: 300, version: 7)),
        ("2", "0", AppConfig.CMP(id: 2, version: 0)),
        ("4094", "4095", AppConfig.CMP(id: 4094, version: 4095)),
    ] as [(String, String?, AppConfig.CMP)])
    func operatorIdentity(id: String, version: String?, expected: AppConfig.CMP) throws {
        var settings = ServerSettings()
        try settings.setCMP(id: id, version: version)
        #expect(settings.cmp == expected)
        #expect(!settings.cmp.isDevelopment)
    }

    @Test("id 4095 given explicitly stays marked as development: the IAB never assigns it")
    func explicitDevelopmentId() throws {
        var settings = ServerSettings()
        try settings.setCMP(id: "4095", version: "3")
        #expect(settings.cmp == AppConfig.CMP(id: 4095, version: 3, isDevelopment: true))
    }

    @Test("a bad id or version is refused, naming the setting, the value and the range", arguments: [
        ("1", nil, "settings: --cmp-id (CONSENTD_CMP_ID) is 1; it must be a whole number in 2...4095: the id the IAB registered for your CMP"),
        ("4096", nil, "settings: --cmp-id (CONSENTD_CMP_ID) is 4096; it must be a whole number in 2...4095: the id the IAB registered for your CMP"),
        ("abc", nil, "settings: --cmp-id (CONSENTD_CMP_ID) is abc; it must be a whole number in 2...4095: the id the IAB registered for your CMP"),
        ("", nil, "settings: --cmp-id (CONSENTD_CMP_ID) is ; it must be a whole number in 2...4095: the id the IAB registered for your CMP"),
        ("300", "4096", "settings: --cmp-version (CONSENTD_CMP_VERSION) is 4096; it must be a whole number in 0...4095: your CMP's version"),
        ("300", "-1", "settings: --cmp-version (CONSENTD_CMP_VERSION) is -1; it must be a whole number in 0...4095: your CMP's version"),
        ("300", "1.5", "settings: --cmp-version (CONSENTD_CMP_VERSION) is 1.5; it must be a whole number in 0...4095: your CMP's version"),
    ] as [(String, String?, String)])
    func badValues(id: String, version: String?, message: String) {
        var settings = ServerSettings()
        #expect {
            try settings.setCMP(id: id, version: version)
        } throws: { error in
            "\(error)" == message
        }
        #expect(settings.cmp == .development)
    }

    @Test("a version without an id is refused: the version belongs to a registered id")
    func versionWithoutId() {
        var settings = ServerSettings()
        #expect {
            try settings.setCMP(id: nil, version: "2")
        } throws: { error in
            let error = error as! ConfigurationError
            return error.field == "--cmp-version (CONSENTD_CMP_VERSION)" && error.message.contains("give --cmp-id (CONSENTD_CMP_ID) too")
        }
    }

    @Test("consentd refuses to start with an identity out of range set in code")
    func startRefusesOutOfRange() async throws {
        let directory = temporaryDirectory()
        var settings = ServerSettings()
        settings.databaseURL = "sqlite:" + directory.appendingPathComponent("db.sqlite").path
        settings.secretFile = directory.appendingPathComponent("secret").path
        settings.cmp = AppConfig.CMP(id: 0, version: 1)
        await #expect {
            try await Consentd.start(settings: settings, logger: Logger(label: "test"))
        } throws: { error in
            (error as? ConfigurationError)?.field == "--cmp-id (CONSENTD_CMP_ID)"
        }
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("db.sqlite").path))
    }

    @Test("consentd warns at start while it uses the development identity, and says how to set the registered one")
    func startWarnsAboutDevelopmentIdentity() async throws {
        let development = try await startupWarnings { _ in }
        #expect(development == [ServerSettings.developmentCMPWarning])
        #expect(ServerSettings.developmentCMPWarning.contains("4095"))
        #expect(ServerSettings.developmentCMPWarning.contains("--cmp-id"))
        #expect(ServerSettings.developmentCMPWarning.contains("CONSENTD_CMP_ID"))
        let registered = try await startupWarnings { $0.cmp = AppConfig.CMP(id: 300, version: 2) }
        #expect(registered == [])
    }

    /// The warnings `Consentd.start` logs with the settings `configure` makes.
    private func startupWarnings(_ configure: (inout ServerSettings) -> Void) async throws -> [String] {
        let directory = temporaryDirectory()
        var settings = ServerSettings()
        settings.databaseURL = "sqlite:" + directory.appendingPathComponent("db.sqlite").path
        settings.secretFile = directory.appendingPathComponent("secret").path
        configure(&settings)
        let recorder = RecordingLogHandler()
        let server = try await Consentd.start(settings: settings, logger: Logger(label: "test", factory: { _ in recorder }))
        await server.close()
        return recorder.messages(at: .warning)
    }
}

/// A log handler that keeps what is logged, for tests.
struct RecordingLogHandler: LogHandler {
    private let records = Records()
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    final class Records: Sendable {
        let entries = Mutex<[(Logger.Level, String)]>([])
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        records.entries.withLock { $0.append((event.level, event.message.description)) }
    }

    /// The messages logged at exactly `level`, in order.
    func messages(at level: Logger.Level) -> [String] {
        records.entries.withLock { $0.filter { $0.0 == level }.map(\.1) }
    }
}
