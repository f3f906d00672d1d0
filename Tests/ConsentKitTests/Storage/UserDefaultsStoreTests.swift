import Foundation
import TCF
import Testing
@testable import ConsentKit

/// A suite of its own per test, removed afterwards.
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

@Suite("UserDefaults store")
struct UserDefaultsStoreTests {
    @Test("values come back with the types a third-party SDK reads them with")
    func typesAsReadersSeeThem() throws {
        try withTestSuite { name, store in
            store.write(["s": .string("CPXx"), "i": .integer(1), "b": .bool(true)])
            let defaults = try #require(UserDefaults(suiteName: name))
            #expect(defaults.string(forKey: "s") == "CPXx")
            #expect(defaults.integer(forKey: "i") == 1)
            #expect((defaults.object(forKey: "i") as? NSNumber)?.intValue == 1)
            #expect(defaults.bool(forKey: "b"))
            #expect(store.values(forKeys: ["s", "i", "b", "missing"]) == ["s": .string("CPXx"), "i": .integer(1), "b": .bool(true)])
        }
    }

    @Test("nil removes a key")
    func nilRemoves() throws {
        try withTestSuite { name, store in
            store.write(["k": .integer(0)])
            store.write(["k": nil])
            #expect(store.value(forKey: "k") == nil)
            #expect(UserDefaults(suiteName: name)?.object(forKey: "k") == nil)
        }
    }

    @Test("observers hear once per change, after all of it")
    func observersHearOncePerChange() throws {
        try withTestSuite { _, store in
            let seen = Locked<[[String: StoredValue]]>([])
            let token = store.observe { seen.withLock { $0.append(store.values(forKeys: ["a", "b"])) } }
            store.write(["a": .integer(1), "b": .integer(1)])
            store.write(["a": .integer(2), "b": .integer(2)])
            #expect(seen.withLock { $0 } == [["a": .integer(1), "b": .integer(1)], ["a": .integer(2), "b": .integer(2)]])
            token.cancel()
            store.write(["a": .integer(3)])
            #expect(seen.withLock { $0.count } == 2)
        }
    }

    @Test("a store hears, once, what another store over the same suite wrote")
    func storesOverOneSuiteHearEachOther() throws {
        try withTestSuite { name, writer in
            let reader = try #require(UserDefaultsStore(suiteName: name))
            let other = try #require(UserDefaultsStore(suiteName: name + "-other"))
            let heard = Locked(0)
            let unrelated = Locked(0)
            let token = reader.observe { heard.withLock { $0 += 1 } }
            let otherToken = other.observe { unrelated.withLock { $0 += 1 } }
            writer.write(["a": .integer(1), "b": .integer(2), "c": .integer(3)])
            #expect(heard.withLock { $0 } == 1)
            #expect(unrelated.withLock { $0 } == 0)
            _ = (token, otherToken)
            UserDefaults.standard.removePersistentDomain(forName: name + "-other")
        }
    }

    @Test("a change reaches the disk: a new store over the suite reads it, and on Linux the suite's plist holds it")
    func persists() throws {
        try withTestSuite { name, store in
            store.write(["IABTCF_TCString": .string("CQ"), "IABTCF_gdprApplies": .integer(1)])
            #expect(store.defaults.synchronize())
            let again = try #require(UserDefaultsStore(suiteName: name))
            #expect(again.value(forKey: "IABTCF_TCString") == .string("CQ"))
            #if os(Linux)
            // swift-corelibs-foundation keeps a suite in $XDG_CONFIG_HOME (default ~/.config)/NAME.plist.
            let configHome = ProcessInfo.processInfo.environment["XDG_CONFIG_HOME"].map { URL(fileURLWithPath: $0) }
                ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".config")
            let data = try Data(contentsOf: configHome.appendingPathComponent("\(name).plist"))
            let plist = try #require(try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any])
            #expect(plist["IABTCF_TCString"] as? String == "CQ")
            #expect((plist["IABTCF_gdprApplies"] as? NSNumber)?.intValue == 1)
            #endif
        }
    }
}

@Suite("Binary strings")
struct BinaryStringTests {
    @Test("a binary string round-trips its ids; position n is id n+1")
    func roundTrip() {
        #expect(BinaryString.encode([1, 3, 8], length: 8) == "10100001")
        #expect(BinaryString.decode("10100001") == [1, 3, 8])
        #expect(BinaryString.encode([], length: 0) == "")
    }

    @Test("other characters, or more positions than ids exist, decode to nil, never to consent")
    func badInput() {
        #expect(BinaryString.decode("10x1") == nil)
        #expect(BinaryString.decode(String(repeating: "1", count: IDSet.maxID + 1)) == nil)
        #expect(BinaryString.decode(String(repeating: "0", count: IDSet.maxID) ) == [])
    }
}
