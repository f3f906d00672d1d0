@testable import ConsentServer
import ConsentRequests
import ConsentdAPI
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import SQLKit
import Testing

/// Record kinds in the consent store (decision record 0035): a US choice (kind `us`) is stored with
/// its GPP columns and values and kept as the subject's current US state beside its TCF decision,
/// each by last-writer-wins within its kind, on every engine; rows from before the kinds read as TCF.
@Suite("Record kinds in the consent store")
struct RecordKindStoreTests {
    static let values = USChoiceRecord(saleOptOut: true, sharingOptOut: true, targetedAdvertisingOptOut: false, sensitiveDataLimited: true)

    /// A checked US choice of `user-1`: kind us, California opted out of sale and sharing.
    static func usChoice(collectedAt: Int64, id: UUID = UUID()) -> CheckedConsentEvent {
        CheckedConsentEvent(
            eventId: id.uuidString.lowercased(), subjectId: "user-1", collectedAtMilliseconds: collectedAt,
            consent: ConsentRecord(
                gppString: GPPEventStoreTests.californiaOptedOut, kind: .us, usChoice: values,
                proof: ConsentProof(noticeId: "main", noticeVersion: "2", language: "en", sdkVersion: "1.0", platform: .ios, method: .rejectAll)))
    }

    @Test("a US choice is stored with its GPP columns and its values, and answered in otherKinds beside the TCF decision",
          arguments: StoreEngine.configured)
    func storedBesideTheDecision(engine: StoreEngine) async throws {
        try await withStore(engine) { store, database in
            let app = uniqueAppId()
            let decision = event(collectedAt: 1_763_000_000_000)
            let us = Self.usChoice(collectedAt: 1_763_000_001_000)
            _ = try await store.append(appId: app, request: decision, credential: .secret)
            let answer = try await store.append(appId: app, request: us, credential: .secret).result()
            #expect(answer.outcome == .current)
            #expect(answer.current.eventId == decision.eventId && answer.current.otherKinds?.map(\.eventId) == [us.eventId])

            let state = try #require(try await store.current(appId: app, subjectId: "user-1"))
            #expect(state.eventId == decision.eventId && state.consent.recordKind == .tcf)
            let stored = try #require(state.state(of: .us))
            #expect(stored.eventId == us.eventId && stored.consent.usChoice == Self.values)
            #expect(stored.consent.gppString == GPPEventStoreTests.californiaOptedOut)
            #expect(try await GPPEventStoreTests.columns(database, us.eventId) == [8, 1, 1, nil, 0])
            let page = try await store.events(appId: app, subjectId: "user-1", limit: 10, cursor: nil)
            #expect(page.events.map(\.eventId) == [decision.eventId, us.eventId])
            #expect(page.events.last?.consent.kind == .us)
            #expect(try await store.export(appId: app, subjectId: "user-1")?.current?.otherKinds?.count == 1)
            #expect(try await store.verifyChain(appId: app).valid)
        }
    }

    @Test("each kind competes with its own: a newer TCF decision leaves the US choice, an older US choice is history",
          arguments: StoreEngine.configured)
    func lastWriterWinsPerKind(engine: StoreEngine) async throws {
        try await withStore(engine) { store, _ in
            let app = uniqueAppId()
            let us = Self.usChoice(collectedAt: 1_763_000_002_000)
            _ = try await store.append(appId: app, request: us, credential: .secret)
            let decision = event(collectedAt: 1_763_000_003_000)
            #expect(try await store.append(appId: app, request: decision, credential: .secret).result().outcome == .current)
            let older = Self.usChoice(collectedAt: 1_763_000_001_000)
            let answer = try await store.append(appId: app, request: older, credential: .secret).result()
            #expect(answer.outcome == .history)
            #expect(answer.current.state(of: .us)?.eventId == us.eventId)
            let state = try #require(try await store.current(appId: app, subjectId: "user-1"))
            #expect(state.eventId == decision.eventId && state.otherKinds?.map(\.eventId) == [us.eventId])
        }
    }

    @Test("a subject with a US choice alone has it at the top of its state", arguments: StoreEngine.configured)
    func usChoiceAlone(engine: StoreEngine) async throws {
        try await withStore(engine) { store, _ in
            let app = uniqueAppId()
            let us = Self.usChoice(collectedAt: 1_763_000_000_000)
            _ = try await store.append(appId: app, request: us, credential: .secret)
            let state = try #require(try await store.current(appId: app, subjectId: "user-1"))
            #expect(state.eventId == us.eventId && state.consent.recordKind == .us && state.otherKinds == nil)
        }
    }

    @Test("a subject's state stored before the kinds (migration 5) reads as its TCF decision, and a US choice joins it")
    func stateFromBeforeTheKinds() async throws {
        var logger = Logger(label: "test")
        logger.logLevel = .warning
        let database = try await Database.open(url: "sqlite:" + temporaryDirectory().appendingPathComponent("v4.sqlite").path, logger: logger)
        let app = uniqueAppId()
        let hash = testSecret.subjectHash(appId: app, subjectId: "user-1")
        let oldConsent = #"{"proof":{"language":"en","method":"custom","noticeId":"main","noticeVersion":"1","platform":"ios","sdkVersion":"1.0"},"purposeConsents":[1]}"#
        // The schema as migration 4 left it, with one subject's state in it.
        try await database.transaction { db in
            try await db.raw("CREATE TABLE schema_migrations (version BIGINT PRIMARY KEY, name TEXT NOT NULL, applied_at_ms BIGINT NOT NULL)").run()
            for migration in Migrations.all.prefix(4) {
                for statement in migration.statements { try await db.raw(statement).run() }
                try await db.raw("INSERT INTO schema_migrations VALUES (\(bind: migration.version), \(bind: migration.name), 0)").run()
            }
            try await db.raw("""
                INSERT INTO subjects (app_id, subject_hash, event_id, event_sequence, collected_at_ms, received_at_ms, consent)
                VALUES (\(bind: app), \(bind: hash), 'e-old', 1, 1763000000000, 1763000000000, \(bind: oldConsent))
                """).run()
        }
        #expect(try await Migrations.run(on: database) == Array(5...Migrations.latestVersion))
        let store = ConsentStore(database: database, secret: testSecret)
        let before = try #require(try await store.current(appId: app, subjectId: "user-1"))
        #expect(before.eventId == "e-old" && before.consent.kind == nil && before.consent.recordKind == .tcf && before.otherKinds == nil)
        let us = Self.usChoice(collectedAt: 1_762_000_000_000)
        #expect(try await store.append(appId: app, request: us, credential: .secret).result().outcome == .current)
        let after = try #require(try await store.current(appId: app, subjectId: "user-1"))
        #expect(after.eventId == "e-old" && after.otherKinds?.map(\.eventId) == [us.eventId])
        await database.close()
    }
}

/// What `POST /v1/consents` takes of the kinds.
@Suite("Record kinds on receipt")
struct RecordKindCheckTests {
    static let now = Date(timeIntervalSince1970: 1_796_000_000)  // 2026-11-30

    static func body(_ fields: String, method: String = "rejectAll") -> Data {
        Data(#"""
            {"eventId":"0f8fad5b-d9cb-469f-a165-70867728950e","collectedAt":"2026-11-23T10:15:30.250Z",\#(fields)
             "proof":{"noticeId":"main","noticeVersion":"1","language":"en","sdkVersion":"1.0","platform":"ios","method":"\#(method)"}}
            """#.utf8)
    }

    static let usChoice = #""usChoice":{"saleOptOut":true,"sharingOptOut":false,"targetedAdvertisingOptOut":false,"sensitiveDataLimited":false},"#

    /// The field `body` is refused on, with its code.
    static func refusal(_ body: Data) -> (String?, InvalidField.Code)? {
        do {
            _ = try CheckedConsentEvent.decode(body, now: now)
            return nil
        } catch {
            return (error.field, error.code)
        }
    }

    @Test("a US choice with its values and GPP string is taken; so is one without a GPP string (recorded outside the US)")
    func usChoiceTaken() throws {
        let checked = try CheckedConsentEvent.decode(Self.body(#""kind":"us","gppString":"DBABBg~BVVqAAEABgA.QA","# + Self.usChoice), now: Self.now)
        #expect(checked.consent.recordKind == .us && checked.consent.usChoice?.saleOptOut == true)
        #expect(try CheckedConsentEvent.decode(Self.body(#""kind":"us","# + Self.usChoice), now: Self.now).consent.usChoice != nil)
    }

    @Test("a US choice with a TCF field is refused, the field named")
    func tcfFieldRefused() {
        let refused = Self.refusal(Self.body(#""kind":"us","purposeConsents":[1],"# + Self.usChoice))
        #expect(refused?.0 == "purposeConsents" && refused?.1 == .invalidField)
    }

    @Test("a US choice without usChoice is refused as missing; its withdrawal carries none and is taken")
    func usChoiceRequired() throws {
        let refused = Self.refusal(Self.body(#""kind":"us","gppString":"DBABBg~BVVqAAEABgA.QA","#))
        #expect(refused?.0 == "usChoice" && refused?.1 == .missingField)
        #expect(try CheckedConsentEvent.decode(Self.body(#""kind":"us","#, method: "withdrawal"), now: Self.now).consent.recordKind == .us)
        #expect(Self.refusal(Self.body(#""kind":"us","# + Self.usChoice, method: "withdrawal"))?.0 == "proof.method")
    }

    @Test("usChoice on a TCF event is refused")
    func usChoiceOnTCFRefused() {
        let refused = Self.refusal(Self.body(#""purposeConsents":[1],"# + Self.usChoice))
        #expect(refused?.0 == "usChoice" && refused?.1 == .invalidField)
    }

    @Test("an unknown kind, and an unknown field in usChoice, are refused by name")
    func unknownsRefused() {
        #expect(Self.refusal(Self.body(#""kind":"ccpa","# + Self.usChoice))?.0 == "kind")
        let extra = #""kind":"us","usChoice":{"saleOptOut":true,"sharingOptOut":false,"targetedAdvertisingOptOut":false,"sensitiveDataLimited":false,"gpc":true},"#
        #expect(Self.refusal(Self.body(extra))?.0 == "usChoice.gpc")
    }
}

/// The kinds over HTTP: what a device's sync sends and reads back.
@Suite("Record kinds over HTTP")
struct RecordKindAPITests {
    @Test("POST /v1/consents stores a US choice beside the TCF decision; GET /v1/subjects/{id} answers both, the US one in otherKinds")
    func bothKindsAnswered() async throws {
        let server = try await TestServer.make()
        try await server.test { client async throws in
            let proof = ConsentProof(noticeId: "main", noticeVersion: "2", language: "en", sdkVersion: "1.0", platform: .ios, method: .rejectAll)
            let decision = ConsentEventRequest(subjectId: "user-9", collectedAt: Date().addingTimeInterval(-60),
                                               consent: ConsentRecord(purposeConsents: [1], proof: proof))
            let us = ConsentEventRequest(subjectId: "user-9", collectedAt: Date(), consent: ConsentRecord(
                gppString: GPPEventStoreTests.californiaOptedOut, kind: .us, usChoice: RecordKindStoreTests.values, proof: proof))
            for event in [decision, us] {
                let json = String(decoding: try JSONEncoder().encode(event), as: UTF8.self)
                #expect(try await client.send(.post, "/v1/consents", bearer: server.secret, json: json).status == .created)
            }
            let answer = try await client.send(.get, "/v1/subjects/user-9", bearer: server.secret)
            let state = try JSONDecoder().decode(SubjectState.self, from: Data(answer.body.readableBytesView))
            #expect(state.eventId == decision.eventId)
            #expect(state.otherKinds?.count == 1)
            #expect(state.state(of: .us)?.eventId == us.eventId && state.state(of: .us)?.consent == us.consent)
        }
    }
}
