import Foundation
import Testing

/// The built `consentd`'s CMP identity settings: options, environment variables, exit status 78
/// for a bad value, and the warning while it uses the development identity.
@Suite("consentd CMP identity settings")
struct ConsentdSettingsTests {
    @Test("an id out of range stops consentd with status 78, naming the setting and the range", arguments: [
        (["--cmp-id", "1"], [:], "--cmp-id (CONSENTD_CMP_ID) is 1; it must be a whole number in 2...4095"),
        ([], ["CONSENTD_CMP_ID": "registered"], "--cmp-id (CONSENTD_CMP_ID) is registered; it must be a whole number in 2...4095"),
        (["--cmp-id", "300", "--cmp-version", "4096"], [:], "--cmp-version (CONSENTD_CMP_VERSION) is 4096; it must be a whole number in 0...4095"),
        ([], ["CONSENTD_CMP_VERSION": "2"], "--cmp-version (CONSENTD_CMP_VERSION) is 2, but no CMP id is set"),
    ] as [([String], [String: String], String)])
    func badSettingExits78(arguments: [String], environment: [String: String], message: String) throws {
        let directory = Self.temporaryDirectory()
        let result = try Self.runConsentd(
            arguments + ["--port", "0", "--database", "sqlite:" + directory.appendingPathComponent("db.sqlite").path,
                         "--secret-file", directory.appendingPathComponent("secret").path],
            environment: environment)
        #expect(result.status == 78)
        #expect(result.error.hasPrefix("consentd: settings: \(message)"))
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("db.sqlite").path))
    }

    @Test("without a CMP id consentd warns at start that 4095 is for development and how to set the registered one")
    func developmentIdentityWarns() throws {
        let log = try startAndReadStandardError(arguments: [], environment: [:])
        #expect(log.contains("CMP id 4095 is the development identity"))
        #expect(log.contains("--cmp-id ID [--cmp-version VERSION] (or CONSENTD_CMP_ID and CONSENTD_CMP_VERSION)"))
    }

    @Test("with a CMP id from the environment and a version option consentd starts without the warning")
    func registeredIdentityDoesNotWarn() throws {
        let log = try startAndReadStandardError(arguments: ["--cmp-version", "7"], environment: ["CONSENTD_CMP_ID": "300"])
        #expect(!log.contains("development identity"))
    }

    /// Starts consentd until it listens, stops it, and returns what it wrote on standard error.
    private func startAndReadStandardError(arguments: [String], environment: [String: String]) throws -> String {
        let directory = Self.temporaryDirectory()
        let errorFile = directory.appendingPathComponent("stderr.log")
        _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
        let handle = try FileHandle(forWritingTo: errorFile)
        let server = try ConsentdProcess(
            arguments: arguments + ["--port", "0", "--database", "sqlite:" + directory.appendingPathComponent("db.sqlite").path,
                                    "--secret-file", directory.appendingPathComponent("secret").path],
            environment: environment, standardError: handle)
        server.stop()
        try handle.close()
        return try String(contentsOf: errorFile, encoding: .utf8)
    }

    static func temporaryDirectory() -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("consentd-settings-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Runs the built `consentd` to its end.
    static func runConsentd(_ arguments: [String], environment: [String: String]) throws -> Consent.Result {
        let process = Process()
        process.executableURL = Bundle.main.bundleURL.appendingPathComponent("consentd")
        process.arguments = arguments
        // Tests never reach the internet: no vendor-list updates unless a test asks for them.
        process.environment = ProcessInfo.processInfo.environment.merging(["CONSENTD_VENDOR_LIST_UPDATES": "false"]) { $1 }
            .merging(environment) { $1 }
        let stdout = Pipe(), stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        let error = stderr.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Consent.Result(status: process.terminationStatus, output: String(decoding: output, as: UTF8.self),
                              error: String(decoding: error, as: UTF8.self))
    }
}
