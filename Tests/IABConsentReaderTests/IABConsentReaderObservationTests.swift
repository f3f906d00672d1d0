import Foundation
import Testing
@testable import IABConsentReader

/// The reader observes a `UserDefaultsStore`; the changes come from a second store over the same
/// suite, as from a CMP built on ConsentKit elsewhere in the app.
@Suite("Observing the IAB keys")
struct IABConsentReaderObservationTests {
    @Test("an observer hears a change that changes the snapshot, with the new snapshot")
    func hearsChange() throws {
        try withTestSuite { name, store in
            let cmp = try #require(UserDefaultsStore(suiteName: name))
            let heard = Locked<[IABConsentSnapshot]>([])
            let token = IABConsentReader(store: store).observe { snapshot in heard.withLock { $0.append(snapshot) } }
            cmp.write([IABKey.gdprApplies: .integer(1), IABKey.vendorConsents: .string("0000001")])
            let snapshots = heard.withLock { $0 }
            #expect(snapshots.count == 1)
            #expect(snapshots.first?.gdprApplies == .applies)
            #expect(snapshots.first?.vendorConsents == [7])
            _ = token
        }
    }

    @Test("an observer does not hear a rewrite of the same values")
    func identicalRewriteIsSilent() throws {
        try withTestSuite { name, store in
            let cmp = try #require(UserDefaultsStore(suiteName: name))
            let keys: [String: StoredValue?] = [IABKey.gdprApplies: .integer(1), IABKey.tcString: .string("CQ")]
            cmp.write(keys)
            let heard = Locked(0)
            let token = IABConsentReader(store: store).observe { _ in heard.withLock { $0 += 1 } }
            cmp.write(keys)
            #expect(heard.withLock { $0 } == 0)
            cmp.write([IABKey.tcString: .string("CR")])
            #expect(heard.withLock { $0 } == 1)
            _ = token
        }
    }

    @Test("an observer does not hear changes to keys a snapshot does not read")
    func unrelatedKeysAreSilent() throws {
        try withTestSuite { name, store in
            let cmp = try #require(UserDefaultsStore(suiteName: name))
            let heard = Locked(0)
            let token = IABConsentReader(store: store).observe { _ in heard.withLock { $0 += 1 } }
            cmp.write(["SomeAppSetting": .integer(3), "IABGPP_HDR_Version": .string("1")])
            #expect(heard.withLock { $0 } == 0)
            _ = token
        }
    }

    @Test("cancelling the token stops the calls")
    func cancelStops() throws {
        try withTestSuite { name, store in
            let cmp = try #require(UserDefaultsStore(suiteName: name))
            let heard = Locked(0)
            let token = IABConsentReader(store: store).observe { _ in heard.withLock { $0 += 1 } }
            cmp.write([IABKey.gdprApplies: .integer(1)])
            token.cancel()
            cmp.write([IABKey.gdprApplies: .integer(0)])
            #expect(heard.withLock { $0 } == 1)
        }
    }

    @Test("an observer may write to the store from its handler without deadlocking")
    func handlerMayWrite() throws {
        try withTestSuite { name, store in
            let cmp = try #require(UserDefaultsStore(suiteName: name))
            let heard = Locked(0)
            let token = IABConsentReader(store: store).observe { snapshot in
                heard.withLock { $0 += 1 }
                if snapshot.gdprApplies == .applies { store.write([IABKey.publisherCC: .string("FR")]) }
            }
            cmp.write([IABKey.gdprApplies: .integer(1)])
            #expect(heard.withLock { $0 } == 2)
            _ = token
        }
    }

    @Test("the snapshot stream yields the current snapshot, then each change", timeLimitWhereAvailable(minutes: 1))
    func stream() async throws {
        let name = "consentkit-tests-\(UUID().uuidString)"
        defer { UserDefaults.standard.removePersistentDomain(forName: name) }
        let store = try #require(UserDefaultsStore(suiteName: name))
        let cmp = try #require(UserDefaultsStore(suiteName: name))
        cmp.write([IABKey.gdprApplies: .integer(0)])
        var snapshots = IABConsentReader(store: store).snapshots().makeAsyncIterator()
        let current = await snapshots.next()
        #expect(current?.gdprApplies == .doesNotApply)
        cmp.write([IABKey.gdprApplies: .integer(1)])
        let changed = await snapshots.next()
        #expect(changed?.gdprApplies == .applies)
        cmp.write([IABKey.vendorConsents: .string("01")])
        let changedAgain = await snapshots.next()
        #expect(changedAgain?.vendorConsents == [2])
    }
}
