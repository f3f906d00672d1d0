import Foundation
import Testing
import TCF
@testable import ConsentKit

/// v1.1 consent strings of registered CMPs, from `Fixtures/vectors/` (file named per string).
let version1Strings: [(string: String, cmpId: Int)] = [
    ("BOEFEAyOEFEAyAHABDENAI4AAAB9vABAASA", 7),  // iab-consent-string-sdk-swift.json
    ("BOhs9bQOjjnLQAXABBENCfeAAAApmABgAYADoA", 23),  // iab-consent-string-sdk-js.json
    ("BN5lERiOMYEdiAOAWeFRAAYAAaAAptQ", 14),  // iab-consent-string-sdk-java.json
    ("BN5lERiOMYEdiAKAWXEND1HoSBE6CAFAApAMgBkIDIgM0AgOJxAnQA", 10),  // iab-consent-string-sdk-java.json
]

@Suite("Taking over another CMP's consent at the first start")
struct ConsentTakeoverTests {
    /// Lines of `Fixtures/vectors/real-world-v2.txt`, one per CMP id: 2, 6, 7, 9, 10, 28, 123, 218, 352.
    static let realWorldLines = [149, 150, 1, 386, 175, 141, 199, 209, 218]

    @Test("another CMP's TC string becomes the decision, with its CMP, its dates and its choices", arguments: realWorldLines)
    func takesOverTCString(line: Int) throws {
        let string = try Fixtures.realWorldString(line: line)
        let foreign = try TCString(decoding: string)
        let store = InMemoryKeyValueStore([IABKey.tcString: .string(string), IABKey.gdprApplies: .integer(1), IABKey.cmpSdkID: .integer(foreign.cmpId)])
        let manager = makeManager(store: store, consentd: nil)
        let events = EventLog(manager)
        manager.start(refreshing: false)

        let taken = try #require(manager.consent)
        #expect(taken.takenOver == ConsentTakeover(cmp: CMPIdentity(cmpId: foreign.cmpId, cmpVersion: foreign.cmpVersion), key: IABKey.tcString))
        #expect(taken.vendorConsents == foreign.vendorConsents)
        #expect(taken.purposeConsents == foreign.purposesConsent)
        #expect(taken.specialFeatureOptIns == foreign.specialFeatureOptIns)
        #expect(taken.tcfPolicyVersion == foreign.tcfPolicyVersion)
        #expect(taken.created == foreign.created.date)
        #expect(taken.updated == foreign.lastUpdated.date)
        #expect(manager.gdprApplies == .applies)
        #expect(events.all == [.ready(taken, .applies)])

        // Written as ConsentKit's own keys, the string still naming the CMP that collected it.
        #expect(store.value(forKey: IABKey.cmpSdkID) == .integer(testCMP.cmpId))
        let written = try TCString(decoding: try #require(store.value(forKey: IABKey.tcString)?.string))
        #expect(written.cmpId == foreign.cmpId)
        #expect(written.vendorConsents == foreign.vendorConsents)
        #expect(store.value(forKey: ConsentStorage.decisionKey) != nil)

        // The next launch restores it as ConsentKit's record, still marked as taken over.
        let relaunched = makeManager(store: store, consentd: nil)
        relaunched.start(refreshing: false)
        #expect(relaunched.consent == taken)
    }

    @Test("another CMP's v1.1 string becomes the decision: vendor consents kept, v1 purposes mapped, policy version 1",
          arguments: version1Strings.map(\.string))
    func takesOverVersion1String(string: String) throws {
        let foreign = try ConsentStringV1(decoding: string)
        let store = InMemoryKeyValueStore([IABKey.cmpPresent: .bool(true), IABKey.consentString: .string(string)])
        let manager = makeManager(store: store, consentd: nil, generations: .all)
        manager.start(refreshing: false)

        let taken = try #require(manager.consent)
        #expect(taken.takenOver == ConsentTakeover(cmp: CMPIdentity(cmpId: foreign.cmpId, cmpVersion: foreign.cmpVersion), key: IABKey.consentString))
        #expect(taken.vendorConsents == foreign.vendorConsents)
        #expect(taken.tcfPolicyVersion == ConsentState.version1PolicyVersion)
        #expect(taken.updated == foreign.lastUpdated.date)
        // Written back, the v1 string keeps the same vendor consents and v1 purposes.
        let written = try ConsentStringV1(decoding: try #require(store.value(forKey: IABKey.consentString)?.string))
        #expect(written.vendorConsents == foreign.vendorConsents)
        #expect(written.purposesAllowed == foreign.purposesAllowed.intersection(IDSet(1...5)))
        #expect(written.cmpId == foreign.cmpId)
    }

    @Test("a v1.1 string's purposes: a v2 purpose is consented only when every v1 purpose standing for it is allowed")
    func version1PurposeMapping() throws {
        // Purposes 1, 2 and 3 of v1 allowed, 4 and 5 not.
        let string = ConsentStringV1(
            created: TCFTimestamp(testDate), lastUpdated: TCFTimestamp(testDate), cmpId: 10, cmpVersion: 1, consentScreen: 0,
            consentLanguage: "EN", vendorListVersion: 180, purposesAllowed: [1, 2, 3], maxVendorId: 10, vendorConsents: [3, 7])
        let state = ConsentState(consentStringV1: string, takenOver: nil)
        // v1 1 ← 1; 2 ← 3, 5; 3 ← 2, 4, 7; 4 ← 6, 8, 11; 5 ← 8, 9: purpose 8 needs both 4 and 5.
        #expect(state.purposeConsents == [1, 2, 3, 4, 5, 7])
        #expect(state.vendorConsents == [3, 7])
    }

    @Test("the ask rules judge a taken-over decision: a v1.1 string, of an older policy, is asked again")
    func takenOverOlderPolicyIsAskedAgain() async throws {
        let store = InMemoryKeyValueStore([IABKey.consentString: .string(version1Strings[1].string)])
        let manager = makeManager(store: store, consentd: nil, override: .applies, publisher: PublisherSettings(vendorIds: [755]))
        await manager.refreshed()
        #expect(manager.consent?.takenOver?.cmp.cmpId == version1Strings[1].cmpId)
        #expect(manager.askVerdict() == .policyVersionChanged(decided: 1, current: try #require(Fixtures.vendorList.tcfPolicyVersion)))
    }

    @Test("the ask rules judge a taken-over decision: vendors added since are asked for, a current one holds")
    func takenOverDecisionIsJudged() async throws {
        let other = CMPIdentity(cmpId: 10, cmpVersion: 3)
        let decided = ConsentState.agreeToAll(scope: testScope(vendorIds: [8, 755]), at: testDate.addingTimeInterval(-86_400))
        let string = try decided.tcString(cmp: other).encoded()

        let holds = makeManager(store: InMemoryKeyValueStore([IABKey.tcString: .string(string)]), consentd: nil, override: .applies,
                                publisher: PublisherSettings(vendorIds: [8, 755]))
        await holds.refreshed()
        #expect(holds.consent?.takenOver?.cmp == other)
        #expect(holds.askVerdict() == .decisionHolds)

        let added = makeManager(store: InMemoryKeyValueStore([IABKey.tcString: .string(string)]), consentd: nil, override: .applies,
                                publisher: PublisherSettings(vendorIds: [8, 755, 793]))
        await added.refreshed()
        #expect(added.askVerdict() == .vendorsAdded([793]))

        let expired = makeManager(store: InMemoryKeyValueStore([IABKey.tcString: .string(string)]), consentd: nil, override: .applies,
                                  publisher: PublisherSettings(vendorIds: [8, 755]), now: testDate.addingTimeInterval(400 * 86_400))
        await expired.refreshed()
        #expect(expired.askVerdict() == .expired(decidedAt: Date(timeIntervalSince1970: 1_772_496_000)))
    }

    @Test("changing a taken-over decision makes it ConsentKit's own: its strings carry ConsentKit's CMP id")
    func changedDecisionIsOwn() async throws {
        let decided = ConsentState.agreeToAll(scope: testScope(vendorIds: [8, 755]), at: testDate)
        let string = try decided.tcString(cmp: CMPIdentity(cmpId: 10, cmpVersion: 3)).encoded()
        let store = InMemoryKeyValueStore([IABKey.tcString: .string(string)])
        let manager = makeManager(store: store, consentd: nil, override: .applies, publisher: PublisherSettings(vendorIds: [8, 755]))
        await manager.refreshed()
        try manager.update { try $0.setVendor(8, consent: false) }
        #expect(manager.consent?.takenOver == nil)
        #expect(try TCString(decoding: try #require(store.value(forKey: IABKey.tcString)?.string)).cmpId == testCMP.cmpId)
    }

    /// A malformed leftover by name: the key, its value, and what the report must say.
    static func leftover(_ name: String) throws -> (key: String, value: StoredValue, reason: String) {
        let v2 = try Fixtures.realWorldString(line: 150)
        return switch name {
        case "garbage": (IABKey.tcString, .string("this is not a consent string"), "does not decode")
        case "truncated": (IABKey.tcString, .string(String(v2.prefix(30))), "does not decode")
        case "v1 under the v2 key": (IABKey.tcString, .string(version1Strings[0].string), "v1.1 consent string")
        case "v2 under the v1 key": (IABKey.consentString, .string(v2), "v2 TC string")
        case "version 3": (IABKey.tcString, .string("D" + v2.dropFirst()), "does not decode")
        case "unassigned CMP id": (IABKey.consentString, .string("BOQ7WlgOQ7WlgABABwAAABJOACgACAAQABA"), "CmpId 1")
        default: (IABKey.tcString, .integer(2), "where a consent string belongs")
        }
    }

    @Test("a malformed leftover is not taken over, is reported (log and event) and removed", arguments: [
        "garbage", "truncated", "v1 under the v2 key", "v2 under the v1 key", "version 3", "unassigned CMP id", "not a string",
    ])
    func malformedLeftover(name: String) async throws {
        let (key, value, reason) = try Self.leftover(name)
        let store = InMemoryKeyValueStore([key: value])
        let lines = LogLines()
        let manager = makeManager(store: store, consentd: nil, log: lines.log, generations: .all)
        let events = EventLog(manager)
        manager.start(refreshing: false)
        #expect(manager.consent == nil)
        let reported = events.all.compactMap { event -> (String, String)? in
            if case .error(.foreignConsentRejected(let key, let reason)) = event { return (key, reason) }
            return nil
        }
        #expect(reported.count == 1)
        #expect(reported.first?.0 == key)
        #expect(reported.first?.1.contains(reason) == true, "\(reported)")
        #expect(lines.warnings.contains { $0.contains(key) && $0.contains(reason) })
        #expect(events.all.last == .ready(nil, .undetermined))
        #expect(store.value(forKey: key) == nil)
        #expect(store.value(forKey: ConsentStorage.decisionKey) == nil)
    }

    @Test("a string dated in the future is not taken over")
    func futureStringRejected() throws {
        let later = ConsentState.agreeToAll(scope: testScope(count: 10), at: testDate.addingTimeInterval(3 * 86_400))
        let string = try later.tcString(cmp: CMPIdentity(cmpId: 10, cmpVersion: 1)).encoded()
        let store = InMemoryKeyValueStore([IABKey.tcString: .string(string)])
        let manager = makeManager(store: store, consentd: nil)
        let events = EventLog(manager)
        manager.start(refreshing: false)
        #expect(manager.consent == nil)
        #expect(events.all.contains { if case .error(.foreignConsentRejected(IABKey.tcString, let reason)) = $0 { reason.contains("future") } else { false } })
        #expect(store.value(forKey: IABKey.tcString) == nil)
    }

    @Test("a malformed TC string next to a valid v1.1 string: the v1.1 string is taken over, the TC string reported")
    func malformedVersion2ValidVersion1() throws {
        let v1 = version1Strings[0].string
        let store = InMemoryKeyValueStore([IABKey.tcString: .string("CPgarbage!"), IABKey.consentString: .string(v1)])
        let manager = makeManager(store: store, consentd: nil, generations: .all)
        let events = EventLog(manager)
        manager.start(refreshing: false)
        #expect(manager.consent?.takenOver?.key == IABKey.consentString)
        #expect(events.all.contains { if case .error(.foreignConsentRejected(IABKey.tcString, _)) = $0 { true } else { false } })
        let written = try TCString(decoding: try #require(store.value(forKey: IABKey.tcString)?.string))
        #expect(written.cmpId == version1Strings[0].cmpId)
    }

    @Test("ConsentKit already has a decision: another CMP's string is not taken over")
    func ownDecisionWins() throws {
        let store = InMemoryKeyValueStore()
        let own = ConsentState.agreeToAll(scope: testScope(count: 40), at: testDate)
        try ConsentStorage(store: store, cmp: testCMP, generations: .version2).write(own, gdprApplies: .applies)
        let foreign = try Fixtures.realWorldString(line: 150)
        store.write([IABKey.tcString: .string(foreign)])
        let manager = makeManager(store: store, consentd: nil)
        let events = EventLog(manager)
        manager.start(refreshing: false)
        #expect(manager.consent == own)
        #expect(manager.consent?.takenOver == nil)
        #expect(events.all == [.ready(own, .applies)])
    }

    @Test("an unreadable record of ConsentKit's own is not replaced by another CMP's string")
    func unreadableOwnRecordIsNoTakeover() throws {
        let foreign = try Fixtures.realWorldString(line: 150)
        let store = InMemoryKeyValueStore([ConsentStorage.decisionKey: .string("garbled"), IABKey.tcString: .string(foreign)])
        let manager = makeManager(store: store, consentd: nil)
        manager.start(refreshing: false)
        #expect(manager.consent == nil)
    }

    @Test("a publisher-set IABConsent_CMPPresent stays through start, refresh, decisions and removeAll")
    func publisherCMPPresentIsKept() async throws {
        let store = InMemoryKeyValueStore([IABKey.cmpPresent: .bool(true)])
        let manager = makeManager(store: store, consentd: nil, override: .applies, publisher: PublisherSettings(vendorIds: [8, 755]))
        await manager.refreshed()
        #expect(store.value(forKey: IABKey.cmpPresent) == .bool(true))
        try manager.agreeToAll()
        manager.clearDecision()
        manager.removeAll()
        #expect(store.value(forKey: IABKey.cmpPresent) == .bool(true))
    }
}
