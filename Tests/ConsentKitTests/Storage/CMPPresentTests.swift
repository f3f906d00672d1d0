import Foundation
import Testing
import TCF
@testable import ConsentKit

/// Audit item 9 (seed 000 "the CMP sets IABConsent_CMPPresent as soon as it is loaded"): with
/// the v1 keys asked for, `start()` announces the CMP before any network answer.
@Suite("000-2: IABConsent_CMPPresent")
struct CMPPresentTests {
    @Test("000-2, 000-10: start() with the v1 keys writes IABConsent_CMPPresent at once, and the region decision IABConsent_SubjectToGDPR",
          arguments: [IABKeyGenerations.version1, .all])
    func startWritesCMPPresent(generations: IABKeyGenerations) async throws {
        let store = InMemoryKeyValueStore()
        let manager = makeManager(store: store, http: ScriptedTransport.offline(), override: .applies, generations: generations)
        manager.start(refreshing: false)
        #expect(store.value(forKey: IABKey.cmpPresent) == .bool(true))
        await manager.refresh()
        #expect(store.value(forKey: IABKey.subjectToGDPR) == .string("1"))
        #expect(store.value(forKey: IABKey.cmpPresent) == .bool(true))
    }

    @Test("000-2: with the default generations (v2 and the GPP's) start() writes no v1 key, CMPPresent included")
    func defaultWritesNoVersion1Key() {
        let store = InMemoryKeyValueStore()
        makeManager(store: store, http: ScriptedTransport.offline()).start(refreshing: false)
        #expect(ConsentConfiguration(consentd: nil).generations == [.version2, .gpp])
        #expect(store.value(forKey: IABKey.cmpPresent) == nil)
        #expect(store.value(forKey: IABKey.cmpSdkID) == .integer(testCMP.cmpId))
    }
}
