import ConsentServer
import ConsentdAPI
import Foundation
import Logging
import Testing

/// The engines the store suite runs on: SQLite always, PostgreSQL when CONSENTD_TEST_POSTGRES_URL
/// names a database (`.ci/run` starts one; `scripts/postgres start DIR` does it by hand).
enum StoreEngine: String, CustomTestStringConvertible, Sendable {
    case sqlite
    case postgresql

    static var postgresURL: String? {
        ProcessInfo.processInfo.environment["CONSENTD_TEST_POSTGRES_URL"].flatMap { $0.isEmpty ? nil : $0 }
    }

    static var configured: [StoreEngine] {
        postgresURL == nil ? [.sqlite] : [.sqlite, .postgresql]
    }

    var testDescription: String { rawValue }

    /// A fresh, migrated database. SQLite gets a new file; PostgreSQL is shared, so tests keep apart
    /// by using their own app ids (`uniqueAppId()`).
    func open() async throws -> Database {
        var logger = Logger(label: "test")
        logger.logLevel = .warning
        let url = switch self {
        case .sqlite: "sqlite:" + temporaryDirectory().appendingPathComponent("consentd.sqlite").path
        case .postgresql: StoreEngine.postgresURL!
        }
        let database = try await Database.open(url: url, logger: logger)
        try await Migrations.run(on: database)
        return database
    }
}

/// A new empty directory under the system's temporary directory.
func temporaryDirectory() -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("consentd-tests-\(UUID().uuidString)")
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// An app id no other test uses, so tests sharing a PostgreSQL database do not see each other.
func uniqueAppId() -> String {
    "com.example.test-" + UUID().uuidString.lowercased().prefix(8)
}

/// A fixed secret for tests.
let testSecret = try! ServerSecret(material: Data(repeating: 7, count: 32))

/// A checked consent event with sensible defaults.
func event(
    _ id: UUID = UUID(), subject: String? = "user-1", collectedAt: Int64 = 1_763_000_000_000,
    purposes: [Int] = [1, 2, 3], method: ConsentProof.Method = .custom
) -> CheckedConsentEvent {
    CheckedConsentEvent(
        eventId: id.uuidString.lowercased(), subjectId: subject, collectedAtMilliseconds: collectedAt,
        consent: ConsentRecord(
            purposeConsents: purposes,
            proof: ConsentProof(noticeId: "main", noticeVersion: "1", language: "en", sdkVersion: "1.0", platform: .ios, method: method)))
}

/// Opens a store on `engine`, runs `body`, closes the database.
func withStore<R>(_ engine: StoreEngine, _ body: (ConsentStore, Database) async throws -> R) async throws -> R {
    let database = try await engine.open()
    do {
        let result = try await body(ConsentStore(database: database, secret: testSecret), database)
        await database.close()
        return result
    } catch {
        await database.close()
        throw error
    }
}
