import Foundation
import TCF
import IABStorage
import Testing

/// The repository's public test data in `Fixtures/` (see `Fixtures/README.md`), found the way
/// `TCFTests` finds it.
enum Fixtures {
    /// `<repository>/Fixtures`.
    static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // IABConsentReaderTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()  // repository
        .appendingPathComponent("Fixtures")

    /// Line `number` (from 1) of `vectors/real-world-v2.txt`.
    static func realWorldString(line number: Int) throws -> String {
        let text = try String(contentsOf: root.appendingPathComponent("vectors/real-world-v2.txt"), encoding: .utf8)
        return String(text.split(separator: "\n")[number - 1])
    }

    /// The real GVL v3 (#45, 2024-03-21), decoded once.
    static let vendorList: VendorList = {
        let data = try! Data(contentsOf: root.appendingPathComponent("gvl/gvl-v3_vendor-list-v45_2024-03-21.json"))
        return try! VendorList(jsonData: data)
    }()
}

/// `.timeLimit(.minutes(minutes))` where Swift Testing has it (iOS 16, macOS 13, tvOS 16,
/// watchOS 9); no limit on older systems, where the test still runs. (As in `ConsentKitTests`:
/// test targets share no files.)
func timeLimitWhereAvailable(minutes: UInt64) -> any TestTrait {
    if #available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *) {
        return .timeLimit(.minutes(minutes))
    }
    return .enabled(if: true, "no time limit before iOS 16 and macOS 13")
}

/// A suite of its own per test, removed afterwards (as in `ConsentKitTests`).
func withTestSuite<R>(_ body: (String, UserDefaultsStore) throws -> R) throws -> R {
    let name = "consentkit-tests-\(UUID().uuidString)"
    let store = try #require(UserDefaultsStore(suiteName: name))
    defer { UserDefaults.standard.removePersistentDomain(forName: name) }
    return try body(name, store)
}

/// ``withTestSuite`` for async tests.
func withTestSuite<R>(_ body: (String, UserDefaultsStore) async throws -> R) async throws -> R {
    let name = "consentkit-tests-\(UUID().uuidString)"
    let store = try #require(UserDefaultsStore(suiteName: name))
    defer { UserDefaults.standard.removePersistentDomain(forName: name) }
    return try await body(name, store)
}
