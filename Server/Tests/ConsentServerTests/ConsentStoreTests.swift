@testable import ConsentServer
import ConsentKitFormats
import ConsentdAPI
import Foundation
import SQLKit
import Testing

/// The consent database's behaviour, the same on every engine.
@Suite("Consent store")
struct ConsentStoreTests {
    @Test("PostgreSQL is reachable and migrated", .enabled(if: StoreEngine.postgresURL != nil,
        "CONSENTD_TEST_POSTGRES_URL is not set: the store suite runs on SQLite only (scripts/postgres start DIR gives a URL)"))
    func postgresIsReachable() async throws {
        let database = try await StoreEngine.postgresql.open()
        #expect(database.engine == .postgresql)
        let version = try await database.read { db in try await Migrations.currentVersion(db) }
        #expect(version == Migrations.latestVersion)
        await database.close()
    }

    @Test("migrations run once: a second run applies nothing", arguments: StoreEngine.configured)
    func migrationsAreIdempotent(engine: StoreEngine) async throws {
        try await withStore(engine) { _, database in
            let applied = try await Migrations.run(on: database)
            #expect(applied == [])
        }
    }

    @Test("an appended event becomes the subject's state, proved by its event id", arguments: StoreEngine.configured)
    func appendThenRead(engine: StoreEngine) async throws {
        try await withStore(engine) { store, _ in
            let app = uniqueAppId()
            let request = event(purposes: [3, 1])
            let answer = try await store.append(appId: app, request: request, credential: .publishable)
            #expect(answer.created)
            #expect(try answer.result().outcome == .current)
            #expect(try answer.result().current.eventId == request.eventId)
            let state = try #require(try await store.current(appId: app, subjectId: "user-1"))
            #expect(state.eventId == request.eventId)
            #expect(state.consent == request.consent)
            #expect(state.collectedAt == ISO8601.format(milliseconds: request.collectedAtMilliseconds))
            #expect(try await store.current(appId: uniqueAppId(), subjectId: "user-1") == nil)
        }
    }

    @Test("a retry with the same body returns the first answer", arguments: StoreEngine.configured)
    func retryReturnsFirstAnswer(engine: StoreEngine) async throws {
        try await withStore(engine) { store, _ in
            let app = uniqueAppId()
            let first = try await store.append(appId: app, request: event(), credential: .publishable)
            let id = UUID()
            let newer = try await store.append(appId: app, request: event(id, collectedAt: 1_763_000_000_500), credential: .publishable)
            let again = try await store.append(appId: app, request: event(UUID(uuidString: try first.result().eventId)!), credential: .publishable)
            #expect(!again.created)
            #expect(try again.result() == first.result())
            #expect(try newer.result().current.eventId == id.uuidString.lowercased())
        }
    }

    @Test("a server-made subject id is returned again on a retry", arguments: StoreEngine.configured)
    func generatedSubjectSurvivesRetry(engine: StoreEngine) async throws {
        try await withStore(engine) { store, _ in
            let app = uniqueAppId()
            let request = event(subject: nil)
            let first = try await store.append(appId: app, request: request, credential: .publishable)
            #expect(try first.result().subjectId.hasPrefix("sub_"))
            let again = try await store.append(appId: app, request: request, credential: .publishable)
            #expect(try again.result().subjectId == first.result().subjectId)
            #expect(try await store.current(appId: app, subjectId: try first.result().subjectId)?.eventId == request.eventId)
        }
    }

    @Test("the same event id with other content is a conflict", arguments: StoreEngine.configured)
    func eventIdReuseConflicts(engine: StoreEngine) async throws {
        try await withStore(engine) { store, _ in
            let app = uniqueAppId()
            let id = UUID()
            _ = try await store.append(appId: app, request: event(id, purposes: [1]), credential: .publishable)
            await #expect(throws: StoreError.eventIdConflict(id.uuidString.lowercased(), erased: false)) {
                try await store.append(appId: app, request: event(id, purposes: [2]), credential: .publishable)
            }
        }
    }

    @Test("event ids are per app: the same id in another app is a new event, not a retry", arguments: StoreEngine.configured)
    func eventIdsArePerApp(engine: StoreEngine) async throws {
        try await withStore(engine) { store, _ in
            let (first, second) = (uniqueAppId(), uniqueAppId())
            let id = UUID()
            let a = try await store.append(appId: first, request: event(id, purposes: [1]), credential: .publishable)
            let b = try await store.append(appId: second, request: event(id, purposes: [2]), credential: .publishable)
            #expect(a.created && b.created)
            #expect(try await store.current(appId: first, subjectId: "user-1")?.consent.purposeConsents == [1])
            #expect(try await store.current(appId: second, subjectId: "user-1")?.consent.purposeConsents == [2])
            let chain = try await store.verifyChain(appId: second)
            #expect(chain.valid && chain.eventsChecked == 1)
        }
    }

    @Test("an older choice is kept as history and the newer state stands", arguments: StoreEngine.configured)
    func olderEventIsHistory(engine: StoreEngine) async throws {
        try await withStore(engine) { store, _ in
            let app = uniqueAppId()
            let newer = event(collectedAt: 2_000, purposes: [1])
            let older = event(collectedAt: 1_000, purposes: [2])
            _ = try await store.append(appId: app, request: newer, credential: .publishable)
            let answer = try await store.append(appId: app, request: older, credential: .publishable)
            #expect(try answer.result().outcome == .history)
            #expect(try answer.result().eventId == older.eventId)
            #expect(try answer.result().current.eventId == newer.eventId)
            #expect(try answer.result().current.consent.purposeConsents == [1])
            let page = try await store.events(appId: app, subjectId: "user-1", limit: 10, cursor: nil)
            #expect(page.events.map(\.outcome) == [.current, .history])
        }
    }

    @Test("an event's TC string is stored once, and retries still answer with the winner's content", arguments: StoreEngine.configured)
    func tcStringIsStoredOnce(engine: StoreEngine) async throws {
        try await withStore(engine) { store, database in
            let app = uniqueAppId()
            func withString(_ base: CheckedConsentEvent, _ marker: String) -> CheckedConsentEvent {
                var event = base
                event.consent.tcString = marker + String(repeating: "A", count: 16_000)
                return event
            }
            let newer = withString(event(collectedAt: 2_000, purposes: [1]), "CNEWER")
            let older = withString(event(collectedAt: 1_000, purposes: [2]), "COLDER")
            let first = try await store.append(appId: app, request: newer, credential: .publishable)
            let history = try await store.append(appId: app, request: older, credential: .publishable)

            let rows = try await database.read { db in
                try await db.raw("""
                    SELECT event_id, record, response FROM consent_events WHERE app_id = \(bind: app) ORDER BY sequence
                    """).all().map { row in
                    try (row.decode(column: "record", as: String.self), row.decode(column: "response", as: String.self))
                }
            }
            #expect(rows.count == 2)
            for (record, response) in rows {
                #expect(record.components(separatedBy: "AAAAAAAAAAAAAAAA").count > 100, "the record holds the event's string")
                #expect(!response.contains("AAAAAAAAAAAAAAAA"), "the stored answer holds no copy of a TC string")
                #expect(response.utf8.count < 400)
            }

            let firstAgain = try await store.append(appId: app, request: newer, credential: .publishable)
            let historyAgain = try await store.append(appId: app, request: older, credential: .publishable)
            #expect(!firstAgain.created && !historyAgain.created)
            #expect(try firstAgain.result() == first.result())
            #expect(try historyAgain.result() == history.result())
            #expect(try historyAgain.result().current.consent.tcString?.hasPrefix("CNEWER") == true)
        }
    }

    @Test("equal collection times are decided by the larger event id", arguments: StoreEngine.configured)
    func tiesBreakOnEventId(engine: StoreEngine) async throws {
        try await withStore(engine) { store, _ in
            let app = uniqueAppId()
            let low = UUID(uuidString: "00000000-0000-4000-8000-000000000001")!
            let high = UUID(uuidString: "ffffffff-0000-4000-8000-000000000001")!
            _ = try await store.append(appId: app, request: event(high, collectedAt: 5_000), credential: .publishable)
            let answer = try await store.append(appId: app, request: event(low, collectedAt: 5_000), credential: .publishable)
            #expect(try answer.result().outcome == .history)
            #expect(try answer.result().current.eventId == high.uuidString.lowercased())
        }
    }

    @Test("concurrent out-of-order writers converge on the last writer", arguments: StoreEngine.configured)
    func concurrentWritersConverge(engine: StoreEngine) async throws {
        try await withStore(engine) { store, _ in
            let app = uniqueAppId()
            let requests = (0..<200).map { _ in event(collectedAt: Int64.random(in: 1_000...1_100)) }.shuffled()
            let winner = requests.max { ($0.collectedAtMilliseconds, $0.eventId) < ($1.collectedAtMilliseconds, $1.eventId) }!
            let answers = try await withThrowingTaskGroup(of: ConsentStore.AppendAnswer.self) { group in
                for request in requests {
                    group.addTask { try await store.append(appId: app, request: request, credential: .secret) }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(answers.count == 200)
            let results = try answers.map { try $0.result() }
            #expect(results.filter { $0.outcome == .current }.count >= 1)
            let state = try #require(try await store.current(appId: app, subjectId: "user-1"))
            #expect(state.eventId == winner.eventId)
            // The winner's own answer names itself; every later answer names the winner or one before it in order.
            #expect(results.first { $0.eventId == winner.eventId }?.outcome == .current)
            let all = try await store.events(appId: app, subjectId: "user-1", limit: 500, cursor: nil)
            #expect(Set(all.events.map(\.eventId)) == Set(requests.map(\.eventId)))
            #expect(try await store.verifyChain(appId: app).valid)
        }
    }

    @Test("history pages by cursor, oldest first", arguments: StoreEngine.configured)
    func historyPages(engine: StoreEngine) async throws {
        try await withStore(engine) { store, _ in
            let app = uniqueAppId()
            var ids: [String] = []
            for index in 0..<7 {
                let request = event(collectedAt: Int64(1_000 + index))
                ids.append(request.eventId)
                _ = try await store.append(appId: app, request: request, credential: .publishable)
            }
            _ = try await store.append(appId: app, request: event(subject: "someone-else"), credential: .publishable)
            var seen: [String] = []
            var cursor: String?
            repeat {
                let page = try await store.events(appId: app, subjectId: "user-1", limit: 3, cursor: cursor)
                #expect(page.events.count <= 3)
                seen += page.events.map(\.eventId)
                cursor = page.nextCursor
            } while cursor != nil
            #expect(seen == ids)
            await #expect(throws: StoreError.badCursor("x")) {
                try await store.events(appId: app, subjectId: "user-1", limit: 3, cursor: "x")
            }
        }
    }

    @Test("customer subject ids are stored only as HMAC-SHA256", arguments: StoreEngine.configured)
    func subjectIdsAreNotStoredInClear(engine: StoreEngine) async throws {
        try await withStore(engine) { store, database in
            let app = uniqueAppId()
            let subject = "alice@example.com"
            _ = try await store.append(appId: app, request: event(subject: subject), credential: .publishable)
            let rows = try await database.read { db in
                try await db.raw("""
                    SELECT subject_hash, record, response FROM consent_events WHERE app_id = \(bind: app)
                    UNION ALL SELECT subject_hash, consent, event_id FROM subjects WHERE app_id = \(bind: app)
                    """).all()
            }
            #expect(rows.count == 2)
            for row in rows {
                for column in ["subject_hash", "record", "response"] {
                    let text = try row.decode(column: column, as: String?.self) ?? ""
                    #expect(!text.contains(subject))
                }
                #expect(try row.decode(column: "subject_hash", as: String.self) == testSecret.subjectHash(appId: app, subjectId: subject))
            }
        }
    }

    @Test("export holds the state and every event", arguments: StoreEngine.configured)
    func exportHoldsEverything(engine: StoreEngine) async throws {
        try await withStore(engine) { store, _ in
            let app = uniqueAppId()
            _ = try await store.append(appId: app, request: event(collectedAt: 1), credential: .publishable)
            _ = try await store.append(appId: app, request: event(collectedAt: 2), credential: .secret)
            let export = try #require(try await store.export(appId: app, subjectId: "user-1"))
            #expect(export.events.count == 2)
            #expect(export.events.map(\.credential) == [.publishable, .secret])
            #expect(export.current?.eventId == export.events[1].eventId)
            #expect(try await store.export(appId: app, subjectId: "nobody") == nil)
        }
    }

    @Test("erasure leaves a receipt, no personal data, and a chain that still verifies", arguments: StoreEngine.configured)
    func erasure(engine: StoreEngine) async throws {
        try await withStore(engine) { store, database in
            let app = uniqueAppId()
            let request = event()
            _ = try await store.append(appId: app, request: request, credential: .publishable)
            _ = try await store.append(appId: app, request: event(collectedAt: 9), credential: .publishable)
            _ = try await store.append(appId: app, request: event(subject: "kept"), credential: .publishable)
            let receipt = try #require(try await store.erase(appId: app, subjectId: "user-1"))
            #expect(receipt.eventsErased == 2)
            #expect(try await store.current(appId: app, subjectId: "user-1") == nil)
            #expect(try await store.export(appId: app, subjectId: "user-1") == nil)
            #expect(try await store.current(appId: app, subjectId: "kept") != nil)
            let left = try await database.read { db in
                try await db.raw("SELECT COUNT(*) AS n FROM consent_events WHERE app_id = \(bind: app) AND record IS NULL AND subject_hash IS NULL")
                    .first()!.decode(column: "n", as: Int64.self)
            }
            #expect(left == 2)
            #expect(try await store.verifyChain(appId: app).valid)
            #expect(try await store.erase(appId: app, subjectId: "user-1") == nil)
            await #expect(throws: StoreError.eventIdConflict(request.eventId, erased: true)) {
                try await store.append(appId: app, request: request, credential: .publishable)
            }
        }
    }

    @Test("chain verification names the first event whose record was altered", arguments: StoreEngine.configured)
    func tamperingIsFound(engine: StoreEngine) async throws {
        try await withStore(engine) { store, database in
            let app = uniqueAppId()
            var ids: [String] = []
            for index in 0..<5 {
                let request = event(collectedAt: Int64(index))
                ids.append(request.eventId)
                _ = try await store.append(appId: app, request: request, credential: .publishable)
            }
            #expect(try await store.verifyChain(appId: app) == ChainVerification(appId: app, eventsChecked: 5, valid: true, firstBrokenLink: nil))
            try await database.transaction { db in
                try await db.raw("""
                    UPDATE consent_events SET record = REPLACE(record, '"acceptAll"', '"rejectAll"') WHERE app_id = \(bind: app)
                    """).run()
                try await db.raw("""
                    UPDATE consent_events SET record = REPLACE(record, '"custom"', '"acceptAll"') WHERE app_id = \(bind: app) AND sequence = 3
                    """).run()
            }
            let result = try await store.verifyChain(appId: app)
            #expect(!result.valid)
            #expect(result.firstBrokenLink?.sequence == 3)
            #expect(result.firstBrokenLink?.eventId == ids[2])
            #expect(result.eventsChecked == 2)
        }
    }

    @Test("a deleted event breaks the chain at its place", arguments: StoreEngine.configured)
    func deletionIsFound(engine: StoreEngine) async throws {
        try await withStore(engine) { store, database in
            let app = uniqueAppId()
            for index in 0..<4 {
                _ = try await store.append(appId: app, request: event(collectedAt: Int64(index)), credential: .publishable)
            }
            try await database.transaction { db in
                try await db.raw("DELETE FROM consent_events WHERE app_id = \(bind: app) AND sequence = 2").run()
            }
            let result = try await store.verifyChain(appId: app)
            #expect(result.firstBrokenLink?.sequence == 2)
            #expect(result.firstBrokenLink?.eventId == nil)
        }
    }
}
