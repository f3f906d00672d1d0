@testable import ConsentKit
import ConsentKitFormats
import ConsentdAPI
import Foundation
import TCF
import Testing

/// What the SDK sends and takes of the consent record seed 002 (iubenda) describes: the proof
/// content of the notice shown, a TC string set by hand with its Additional Consent string, and a
/// remote decision that holds only a TCF v1.1 string.
@Suite("Seed 002's consent record in the SDK")
struct SeedRecordTests {
    private static func syncingManager(_ folder: TestFolder, store: InMemoryKeyValueStore = InMemoryKeyValueStore()) -> ConsentManager {
        ConsentManager(configuration: ConsentConfiguration(
            consentd: endpoint, cmp: testCMP, store: store, transport: FakeConsentd(gdprApplies: true), regionTimeout: 120,
            cacheDirectory: folder.cacheDirectory, log: .silent, now: { testDate },
            sync: ConsentSyncSettings(directory: folder.url.appendingPathComponent("sync", isDirectory: true), initialBackoff: 600, maximumBackoff: 600)))
    }

    private static func pending(_ folder: TestFolder) throws -> [OutboxEntry] {
        let outbox = try Outbox(directory: folder.url.appendingPathComponent("sync", isDirectory: true), capacity: 1_000)
        _ = try outbox.load(now: Date())
        return outbox.pending
    }

    @Test("002-15: a decision recorded with the hash of the notice document shown sends it as the proof's documentHash; one without a notice sends none")
    func proofCarriesTheDocumentHash() async throws {
        let folder = try TestFolder()
        let manager = Self.syncingManager(folder)
        #expect(await manager.refreshed().succeeded)
        let hash = ConsentProof.hash(ofDocument: Array(#"{"protocol":1}"#.utf8))
        try manager.record(ConsentState.agreeToAll(scope: manager.scope(), at: testDate), method: .acceptAll, documentHash: hash)
        try manager.disagreeToAll()
        let entries = try Self.pending(folder)
        try #require(entries.count == 2)
        #expect(entries[0].event.consent.proof.documentHash == hash)
        #expect(entries[0].event.consent.proof.method == .acceptAll)
        #expect(entries[1].event.consent.proof.documentHash == nil)
    }

    @Test("002-15: the document hash is SHA-256 (FIPS 180-4 test vectors)", arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
        (String(repeating: "a", count: 1_000_000), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"),
    ])
    func documentHashIsSHA256(message: String, digest: String) {
        #expect(ConsentProof.hash(ofDocument: Array(message.utf8)) == digest)
    }

    @Test("002-4: setConsent(tcString:additionalConsent:) takes the ad-tech providers the AC string consents to and discloses")
    func setConsentKeepsTheAdditionalConsent() throws {
        let store = InMemoryKeyValueStore()
        let manager = makeManager(store: store, consentd: nil)
        manager.start(refreshing: false)
        let string = try ConsentState.agreeToAll(scope: testScope(count: 30), at: testDate).tcString(cmp: CMPIdentity(cmpId: 10, cmpVersion: 1)).encoded()
        try manager.setConsent(tcString: string, additionalConsent: "2~89~dv.1301")
        let decision = try #require(manager.consent)
        #expect(decision.adTechProviderConsents == [89])
        #expect(decision.disclosedAdTechProviders == [89, 1301])
        #expect(store.value(forKey: IABKey.addtlConsent)?.string == "2~89~dv.1301")
        #expect(decision.vendorConsents == ConsentState.agreeToAll(scope: testScope(count: 30), at: testDate).vendorConsents)
    }

    @Test("002-4: a malformed Additional Consent string is refused and nothing is written")
    func setConsentRefusesABadAdditionalConsent() throws {
        let store = InMemoryKeyValueStore()
        let manager = makeManager(store: store, consentd: nil)
        manager.start(refreshing: false)
        let string = try ConsentState.agreeToAll(scope: testScope(count: 30), at: testDate).tcString(cmp: CMPIdentity(cmpId: 10, cmpVersion: 1)).encoded()
        #expect(throws: ConsentKitError.invalidAdditionalConsent("1~89")) {
            try manager.setConsent(tcString: string, additionalConsent: "1~89")
        }
        #expect(manager.consent == nil)
        #expect(store.value(forKey: IABKey.tcString) == nil)
    }

    static let version1 = "BOEFEAyOEFEAyAHABDENAI4AAAB9vABAASA"
    static let remoteProof = ConsentProof(noticeId: "web", noticeVersion: "3", language: "en", sdkVersion: "1.0", platform: .web, method: .custom)

    @Test("002-3: a remote decision holding only a v1.1 string (iubenda's cookieTCFv1) is read from consentStringV1, at the remote's time")
    func remoteVersion1OnlyDecisionIsApplied() throws {
        let v1 = try ConsentStringV1(decoding: Self.version1)
        let remote = SubjectState(subjectId: "user-1", eventId: UUID().uuidString.lowercased(), collectedAt: "2026-03-04T05:06:07.890Z",
                                  receivedAt: "2026-03-04T05:06:08.000Z", consent: ConsentRecord(consentStringV1: Self.version1, proof: Self.remoteProof))
        let decision = try #require(RemoteDecision.state(of: remote, scope: nil))
        let taken = ConsentState(consentStringV1: v1, takenOver: nil)
        #expect(decision.purposeConsents == taken.purposeConsents)
        #expect(decision.vendorConsents == v1.vendorConsents)
        #expect(decision.tcfPolicyVersion == ConsentState.version1PolicyVersion)
        #expect(decision.updated == ISO8601.date("2026-03-04T05:06:07.890Z"))
        #expect(decision.noticeVersion == 3)
        // For this app's scope: only the vendors it discloses.
        let scope = testScope(count: 30)
        let scoped = try #require(RemoteDecision.state(of: remote, scope: scope))
        #expect(scoped.vendorConsents == v1.vendorConsents.intersection(scope.vendorIds))
    }

    @Test("002-3: a remote TC string still wins over its v1.1 string, and a v1.1 string that does not decode makes no decision")
    func remoteTCStringWinsOverVersion1() throws {
        let state = ConsentState.agreeToAll(scope: testScope(count: 30), at: testDate)
        let tcString = try state.tcString(cmp: testCMP).encoded()
        let both = SubjectState(subjectId: "user-1", eventId: "e", collectedAt: "2026-03-04T05:06:07.890Z", receivedAt: "2026-03-04T05:06:08.000Z",
                                consent: ConsentRecord(tcString: tcString, consentStringV1: Self.version1, proof: Self.remoteProof))
        #expect(RemoteDecision.state(of: both, scope: nil)?.vendorConsents == state.vendorConsents)
        let broken = SubjectState(subjectId: "user-1", eventId: "e", collectedAt: "2026-03-04T05:06:07.890Z", receivedAt: "2026-03-04T05:06:08.000Z",
                                  consent: ConsentRecord(consentStringV1: "not a string", proof: Self.remoteProof))
        #expect(RemoteDecision.state(of: broken, scope: nil) == nil)
    }
}
