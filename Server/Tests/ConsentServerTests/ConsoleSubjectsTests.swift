@testable import ConsentServer
import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SQLKit
import Testing

/// The console's data-subject requests (issue 29 §4, decision 0042), against a real consentd on
/// loopback, on SQLite and (when CONSENTD_TEST_POSTGRES_URL is set) PostgreSQL. Each test uses an
/// app of its own, so tests sharing a PostgreSQL database do not see each other's subjects.
@Suite("Console data-subject requests")
struct ConsoleSubjectsTests {
    @Test("support looks a subject up by its id and by its hash and finds the same subject, its state and its events",
          arguments: StoreEngine.configured)
    func lookUpByIdAndByHash(engine: StoreEngine) async throws {
        let fixture = try await SubjectsFixture(engine)
        let subject = "user-\(UUID().uuidString)"
        let hash = testSecret.subjectHash(appId: fixture.appId, subjectId: subject)
        try await fixture.console.server.live { client in
            try await fixture.seed(client, subject: subject, events: 2)
            let session = try await fixture.signIn(client, .support)
            let byId = try await client.send(.get, fixture.query("/v1/console/subjects", subjectId: subject), headers: session.cookieHeader)
            #expect(byId.status == .ok)
            #expect(byId.object["subjectHash"] as? String == hash)
            #expect(byId.object["subjectId"] as? String == subject)
            #expect(byId.object["appId"] as? String == fixture.appId)
            #expect(byId.object["events"] as? Int == 2)
            #expect((byId.object["current"] as? [String: Any])?["subjectId"] as? String == subject)
            #expect(byId.object["erasure"] is NSNull)
            let byHash = try await client.send(.get, fixture.query("/v1/console/subjects", subjectHash: hash.uppercased()),
                                               headers: session.cookieHeader)
            #expect(byHash.status == .ok)
            #expect(byHash.object["subjectHash"] as? String == hash)
            #expect(byHash.object["subjectId"] is NSNull)
            #expect(byHash.object["events"] as? Int == 2)
            #expect(byHash.object["lastReceivedAt"] as? String == byId.object["lastReceivedAt"] as? String)
        }
        let entries = try await fixture.auditEntries()
        #expect(entries.map(\.action) == ["subject_looked_up", "subject_looked_up"])
        #expect(entries.allSatisfy { $0.target == "\(hash) of \(fixture.appId)" && $0.operatorId != nil && $0.address == "127.0.0.1" })
    }

    @Test("the history shows every event with its exact record and a chain link that holds, a page at a time",
          arguments: StoreEngine.configured)
    func historyWithProofs(engine: StoreEngine) async throws {
        let fixture = try await SubjectsFixture(engine)
        let subject = "user-\(UUID().uuidString)"
        let hash = testSecret.subjectHash(appId: fixture.appId, subjectId: subject)
        try await fixture.console.server.live { client in
            try await fixture.seed(client, subject: "someone-else-\(UUID().uuidString)", events: 1)
            try await fixture.seed(client, subject: subject, events: 3)
            let session = try await fixture.signIn(client, .owner)
            let first = try await client.send(.get, fixture.query("/v1/console/subjects/events", subjectId: subject) + "&limit=2",
                                              headers: session.cookieHeader)
            #expect(first.status == .ok)
            let cursor = try #require(first.object["nextCursor"] as? String)
            let second = try await client.send(.get, fixture.query("/v1/console/subjects/events", subjectHash: hash) + "&limit=2&cursor=\(cursor)",
                                               headers: session.cookieHeader)
            #expect(second.object["nextCursor"] is NSNull)
            let events = (first.object["events"] as? [[String: Any]] ?? []) + (second.object["events"] as? [[String: Any]] ?? [])
            #expect(events.count == 3)
            var sequences: [Int] = []
            for proven in events {
                let chain = try #require(proven["chain"] as? [String: Any])
                let event = try #require(proven["event"] as? [String: Any])
                let record = try #require(chain["record"] as? String)
                let recordHash = try #require(chain["recordHash"] as? String)
                let previous = try #require(chain["previousChainHash"] as? String)
                let sequence = try #require(chain["sequence"] as? Int)
                sequences.append(sequence)
                #expect(event["sequence"] as? Int == sequence)
                // Recomputed here, independently of consentd: SHA-256 of the record, then of the link.
                #expect(SHA256.hash(data: Data(record.utf8)).map { String(format: "%02x", $0) }.joined() == recordHash)
                let link = SHA256.hash(data: Data("\(previous):\(sequence):\(recordHash)".utf8)).map { String(format: "%02x", $0) }.joined()
                #expect(chain["chainHash"] as? String == link)
                #expect(chain["recordHolds"] as? Bool == true)
                #expect(chain["linkHolds"] as? Bool == true)
                #expect(record.contains(hash))
                #expect(!record.contains(subject))
                #expect((event["consent"] as? [String: Any])?["proof"] != nil)
            }
            #expect(sequences == sequences.sorted())
            // The first of the subject's events follows the other subject's event in the app's chain.
            let firstLink = try #require((events.first?["chain"] as? [String: Any]))
            #expect(firstLink["sequence"] as? Int == 2)
            #expect(firstLink["previousChainHash"] as? String != String(repeating: "0", count: 64))
        }
        #expect(try await fixture.auditEntries().map(\.action) == ["subject_history_read", "subject_history_read"])
    }

    @Test("a link whose record was changed in the database shows as not holding", arguments: StoreEngine.configured)
    func tamperedRecordShows(engine: StoreEngine) async throws {
        let fixture = try await SubjectsFixture(engine)
        let subject = "user-\(UUID().uuidString)"
        try await fixture.console.server.live { client in
            try await fixture.seed(client, subject: subject, events: 2)
            try await fixture.console.server.consentd.database.transaction { db in
                try await db.raw("""
                    UPDATE consent_events SET record = REPLACE(record, '"language":"de"', '"language":"fr"')
                    WHERE app_id = \(bind: fixture.appId) AND sequence = 2
                    """).run()
            }
            let session = try await fixture.signIn(client, .support)
            let page = try await client.send(.get, fixture.query("/v1/console/subjects/events", subjectId: subject), headers: session.cookieHeader)
            let links = (page.object["events"] as? [[String: Any]] ?? []).compactMap { $0["chain"] as? [String: Any] }
            #expect(links.map { $0["recordHolds"] as? Bool } == [true, false])
            let verified = try await client.send(.post, "/v1/console/chain/verify?appId=\(fixture.appId)", headers: session.stateChangingHeaders)
            #expect(verified.status == .ok)
            #expect(verified.object["valid"] as? Bool == false)
            #expect((verified.object["firstBrokenLink"] as? [String: Any])?["sequence"] as? Int == 2)
            #expect(verified.object["eventsChecked"] as? Int == 1)
        }
    }

    @Test("the console's export is the secret-key API's export, the same document but its time, as a download",
          arguments: StoreEngine.configured)
    func exportIsTheAPIsExport(engine: StoreEngine) async throws {
        let fixture = try await SubjectsFixture(engine)
        let subject = "user-\(UUID().uuidString)"
        try await fixture.console.server.live { client in
            try await fixture.seed(client, subject: subject, events: 2)
            let session = try await fixture.signIn(client, .support)
            let console = try await client.send(.get, fixture.query("/v1/console/subjects/export", subjectId: subject), headers: session.cookieHeader)
            let api = try await client.send(.get, "/v1/subjects/\(subject)/export", bearer: fixture.secretKey)
            #expect(console.status == .ok)
            #expect(api.status == .ok)
            #expect(console.headers[.contentDisposition]?.hasPrefix("attachment; filename=\"subject-") == true)
            #expect(console.headers[.contentType] == api.headers[.contentType])
            // The same document (JSONEncoder on Linux orders keys differently on every call, the
            // API's own answers included, so the documents are compared, not their bytes).
            var consoleExport = console.object, apiExport = api.object
            #expect(consoleExport.removeValue(forKey: "exportedAt") is String)
            #expect(apiExport.removeValue(forKey: "exportedAt") is String)
            #expect(NSDictionary(dictionary: consoleExport) == NSDictionary(dictionary: apiExport))
            #expect(consoleExport.keys.sorted() == ["appId", "current", "events", "subjectId"])
            #expect((console.object["events"] as? [Any])?.count == 2)
        }
        #expect(try await fixture.auditEntries().map(\.action) == ["subject_exported"])
    }

    @Test("erasure answers the receipt; the subject is then erased, stays so, and a restart lets the backend write it again",
          arguments: StoreEngine.configured)
    func eraseAndRestart(engine: StoreEngine) async throws {
        let fixture = try await SubjectsFixture(engine)
        let subject = "user-\(UUID().uuidString)"
        let hash = testSecret.subjectHash(appId: fixture.appId, subjectId: subject)
        try await fixture.console.server.live { client in
            try await fixture.seed(client, subject: subject, events: 2)
            let session = try await fixture.signIn(client, .support)
            let notErased = try await client.send(.post, fixture.query("/v1/console/subjects/restart", subjectId: subject),
                                                  headers: session.stateChangingHeaders)
            #expect(notErased.status == .conflict)
            #expect(notErased.errorCode == "not_erased")
            let erased = try await client.send(.delete, fixture.query("/v1/console/subjects", subjectHash: hash), headers: session.stateChangingHeaders)
            #expect(erased.status == .ok)
            #expect((erased.object["receiptId"] as? String)?.hasPrefix("era_") == true)
            #expect(erased.object["eventsErased"] as? Int == 2)
            #expect(erased.object["appId"] as? String == fixture.appId)
            let after = try await client.send(.get, fixture.query("/v1/console/subjects", subjectId: subject), headers: session.cookieHeader)
            #expect(after.status == .ok)
            #expect(after.object["events"] as? Int == 0)
            #expect(after.object["current"] is NSNull)
            #expect((after.object["erasure"] as? [String: Any])?["restartedAt"] is NSNull)
            let again = try await client.send(.delete, fixture.query("/v1/console/subjects", subjectId: subject), headers: session.stateChangingHeaders)
            #expect(again.status == .conflict)
            #expect(again.errorCode == "already_erased")
            let export = try await client.send(.get, fixture.query("/v1/console/subjects/export", subjectId: subject), headers: session.cookieHeader)
            #expect(export.status == .notFound)
            #expect(export.errorCode == "nothing_held")
            #expect(try await client.send(.post, "/v1/consents", bearer: fixture.secretKey, json: eventJSON(subject: subject)).status == .gone)
            let restarted = try await client.send(.post, fixture.query("/v1/console/subjects/restart", subjectId: subject),
                                                  headers: session.stateChangingHeaders)
            #expect(restarted.status == .ok)
            #expect(restarted.object["subjectHash"] as? String == hash)
            #expect(restarted.object["restartedAt"] is String)
            #expect(try await client.send(.post, "/v1/consents", bearer: fixture.secretKey, json: eventJSON(subject: subject)).status == .created)
            let started = try await client.send(.get, fixture.query("/v1/console/subjects", subjectId: subject), headers: session.cookieHeader)
            #expect(started.object["events"] as? Int == 1)
            #expect((started.object["erasure"] as? [String: Any])?["restartedAt"] is String)
        }
        let entries = try await fixture.auditEntries()
        #expect(entries.map(\.action) == ["subject_erased", "subject_looked_up", "subject_restarted", "subject_looked_up"])
        let erasure = try #require(entries.first)
        #expect(erasure.target?.hasPrefix("\(hash) of \(fixture.appId), receipt era_") == true)
        #expect(entries.allSatisfy { !($0.target ?? "").contains(subject) })
    }

    @Test("chain verification answers what `consent chain verify` computes, and an unknown app is 404", arguments: StoreEngine.configured)
    func chainVerify(engine: StoreEngine) async throws {
        let fixture = try await SubjectsFixture(engine)
        try await fixture.console.server.live { client in
            try await fixture.seed(client, subject: "user-\(UUID().uuidString)", events: 3)
            let session = try await fixture.signIn(client, .support)
            let verified = try await client.send(.post, "/v1/console/chain/verify?appId=\(fixture.appId)", headers: session.stateChangingHeaders)
            #expect(verified.status == .ok)
            let expected = try await HashChain.verify(appId: fixture.appId, in: fixture.console.server.consentd.database)
            #expect(try JSONDecoder().decode(ChainVerification.self, from: Data(verified.body.readableBytesView)) == expected)
            #expect(expected.valid && expected.eventsChecked == 3)
            let unknown = try await client.send(.post, "/v1/console/chain/verify?appId=no.such.app", headers: session.stateChangingHeaders)
            #expect(unknown.status == .notFound)
            #expect(unknown.errorCode == "app_not_found")
        }
        let entries = try await fixture.auditEntries()
        #expect(entries.map(\.action) == ["chain_verified"])
        #expect(entries.first?.target == fixture.appId)
    }

    @Test("editors and analysts are refused every subject route, and no session is 401", arguments: StoreEngine.configured)
    func rolesAreRefused(engine: StoreEngine) async throws {
        let fixture = try await SubjectsFixture(engine)
        let subject = "user-\(UUID().uuidString)"
        try await fixture.console.server.live { client in
            try await fixture.seed(client, subject: subject, events: 1)
            for role in [OperatorRole.editor, .analyst] {
                let session = try await fixture.signIn(client, role)
                for (method, path) in fixture.routes(subject: subject) {
                    let refused = try await client.send(method, path, headers: session.stateChangingHeaders)
                    #expect(refused.status == .forbidden, "\(role) \(method) \(path)")
                    #expect(refused.errorCode == "forbidden", "\(role) \(method) \(path)")
                }
            }
            for (method, path) in fixture.routes(subject: subject) {
                let unsigned = try await client.send(method, path)
                #expect(unsigned.status == .unauthorized, "\(method) \(path)")
                #expect(unsigned.errorCode == "unauthorized")
            }
            // The subject is untouched.
            let owner = try await fixture.signIn(client, .owner)
            let found = try await client.send(.get, fixture.query("/v1/console/subjects", subjectId: subject), headers: owner.cookieHeader)
            #expect(found.object["events"] as? Int == 1)
            #expect(found.object["erasure"] is NSNull)
        }
        #expect(try await fixture.auditEntries().map(\.action) == ["subject_looked_up"])
    }

    @Test("erase, restart and chain verify need the CSRF token and the console's own origin", arguments: StoreEngine.configured)
    func stateChangesNeedTheCSRFToken(engine: StoreEngine) async throws {
        let fixture = try await SubjectsFixture(engine)
        let subject = "user-\(UUID().uuidString)"
        try await fixture.console.server.live { client in
            try await fixture.seed(client, subject: subject, events: 1)
            let session = try await fixture.signIn(client, .support)
            let changes: [(HTTPRequest.Method, String)] = [
                (.delete, fixture.query("/v1/console/subjects", subjectId: subject)),
                (.post, fixture.query("/v1/console/subjects/restart", subjectId: subject)),
                (.post, "/v1/console/chain/verify?appId=\(fixture.appId)"),
            ]
            var wrong = session.stateChangingHeaders
            wrong[ConsoleSessionCookie.csrf] = randomToken()
            var foreign = session.stateChangingHeaders
            foreign[.origin] = "https://attacker.example"
            for (method, path) in changes {
                for headers in [session.cookieHeader, wrong, foreign] {
                    let refused = try await client.send(method, path, headers: headers)
                    #expect(refused.status == .forbidden, "\(method) \(path)")
                    #expect(refused.errorCode == "csrf_refused", "\(method) \(path)")
                }
            }
            let found = try await client.send(.get, fixture.query("/v1/console/subjects", subjectId: subject), headers: session.cookieHeader)
            #expect(found.object["events"] as? Int == 1)
            var sameOrigin = session.stateChangingHeaders
            sameOrigin[.origin] = "http://localhost"
            #expect(try await client.send(.delete, fixture.query("/v1/console/subjects", subjectId: subject), headers: sameOrigin).status == .ok)
        }
    }

    @Test("an unknown subject or app is 404 with its code, another app's subject is not found, bad input is 400 naming the field",
          arguments: StoreEngine.configured)
    func unknownAndBadInput(engine: StoreEngine) async throws {
        let fixture = try await SubjectsFixture(engine)
        let other = try await SubjectsFixture.otherApp(fixture)
        let subject = "user-\(UUID().uuidString)"
        try await fixture.console.server.live { client in
            try await fixture.seed(client, subject: subject, events: 1)
            let session = try await fixture.signIn(client, .support)
            func send(_ uri: String, _ method: HTTPRequest.Method = .get) async throws -> TestResponse {
                try await client.send(method, uri, headers: session.stateChangingHeaders)
            }
            let nobody = try await send(fixture.query("/v1/console/subjects", subjectId: "nobody-\(UUID().uuidString)"))
            #expect(nobody.status == .notFound)
            #expect(nobody.errorCode == "subject_not_found")
            // The subject's hash given with another app: hashes are keyed by app, and every read names it.
            let hash = testSecret.subjectHash(appId: fixture.appId, subjectId: subject)
            for (method, path) in [(HTTPRequest.Method.get, "/v1/console/subjects"), (.get, "/v1/console/subjects/events"),
                                   (.get, "/v1/console/subjects/export"), (.delete, "/v1/console/subjects"), (.post, "/v1/console/subjects/restart")] {
                let foreign = try await send("\(path)?appId=\(other)&subjectHash=\(hash)", method)
                #expect(foreign.status == .notFound, "\(method) \(path)")
                #expect(foreign.errorCode == "subject_not_found", "\(method) \(path)")
            }
            let noApp = try await send("/v1/console/subjects?appId=no.such.app&subjectId=x")
            #expect(noApp.status == .notFound)
            #expect(noApp.errorCode == "app_not_found")
            let long = String(repeating: "x", count: 257)
            let cases: [(String, String, String)] = [
                ("/v1/console/subjects?subjectId=x", "missing_field", "appId"),
                ("/v1/console/subjects?appId=&subjectId=x", "missing_field", "appId"),
                ("/v1/console/subjects?appId=\(long)&subjectId=x", "invalid_field", "appId"),
                ("/v1/console/subjects?appId=\(fixture.appId)", "missing_field", "subjectId"),
                ("/v1/console/subjects?appId=\(fixture.appId)&subjectId=", "invalid_field", "subjectId"),
                ("/v1/console/subjects?appId=\(fixture.appId)&subjectId=\(long)", "invalid_field", "subjectId"),
                ("/v1/console/subjects?appId=\(fixture.appId)&subjectHash=abc", "invalid_field", "subjectHash"),
                ("/v1/console/subjects?appId=\(fixture.appId)&subjectHash=\(String(repeating: "g", count: 64))", "invalid_field", "subjectHash"),
                ("/v1/console/subjects?appId=\(fixture.appId)&subjectId=x&subjectHash=\(hash)", "invalid_field", "subjectHash"),
                (fixture.query("/v1/console/subjects/events", subjectId: subject) + "&limit=0", "invalid_field", "limit"),
                (fixture.query("/v1/console/subjects/events", subjectId: subject) + "&cursor=abc", "invalid_field", "cursor"),
                ("/v1/console/chain/verify", "missing_field", "appId"),
            ]
            for (uri, code, field) in cases {
                let method: HTTPRequest.Method = uri.hasPrefix("/v1/console/chain") ? .post : .get
                let refused = try await send(uri, method)
                #expect(refused.status == .badRequest, "\(uri)")
                #expect(refused.errorCode == code, "\(uri)")
                #expect(refused.errorField == field, "\(uri)")
            }
        }
    }
}

/// A console on `engine` with an app of the test's own and its secret key.
struct SubjectsFixture {
    let console: ConsoleFixture
    let appId: String
    let secretKey: String

    init(_ engine: StoreEngine) async throws {
        console = try await ConsoleFixture(engine)
        appId = uniqueAppId()
        secretKey = try await console.server.consentd.keys.create(appId: appId, kind: .secret, label: "backend").token
    }

    /// A second app with a key, in the same database.
    static func otherApp(_ fixture: SubjectsFixture) async throws -> String {
        let appId = uniqueAppId()
        _ = try await fixture.console.server.consentd.keys.create(appId: appId, kind: .secret, label: "other")
        return appId
    }

    /// `path?appId=…&subjectId=…` (percent-encoded).
    func query(_ path: String, subjectId: String) -> String {
        "\(path)?appId=\(appId)&subjectId=\(subjectId.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? subjectId)"
    }

    /// `path?appId=…&subjectHash=…`.
    func query(_ path: String, subjectHash: String) -> String {
        "\(path)?appId=\(appId)&subjectHash=\(subjectHash)"
    }

    /// Every data-subject route, for `subject`.
    func routes(subject: String) -> [(HTTPRequest.Method, String)] {
        [(.get, query("/v1/console/subjects", subjectId: subject)), (.get, query("/v1/console/subjects/events", subjectId: subject)),
         (.get, query("/v1/console/subjects/export", subjectId: subject)), (.delete, query("/v1/console/subjects", subjectId: subject)),
         (.post, query("/v1/console/subjects/restart", subjectId: subject)), (.post, "/v1/console/chain/verify?appId=\(appId)")]
    }

    /// Appends `events` events for `subject` with the app's secret key, as the publisher's backend does.
    func seed(_ client: any TestClientProtocol, subject: String, events: Int) async throws {
        for index in 0..<events {
            let response = try await client.send(.post, "/v1/consents", bearer: secretKey,
                                                 json: eventJSON(subject: subject, collectedAt: "2026-01-02T03:04:0\(index).000Z"))
            #expect(response.status == .created)
        }
    }

    /// A new operator of `role`, signed in.
    func signIn(_ client: any TestClientProtocol, _ role: OperatorRole) async throws -> ConsoleSessionCookie {
        let email = try await console.createOperator(role)
        return try #require(ConsoleSessionCookie(try await client.signIn(email, ConsoleAuthTests.password)))
    }

    /// The audit log's data-subject entries about this app, oldest first (read after the server closed its database).
    func auditEntries() async throws -> [AuditEntry] {
        let database = try await Database.open(url: console.server.consentd.settings.databaseURL, logger: .init(label: "test"))
        do {
            let entries = try await AuditLog(database: database).page(limit: 500).filter {
                $0.action.hasPrefix("subject_") || $0.action == "chain_verified"
            }.filter { ($0.target ?? "").contains(appId) }
            await database.close()
            return entries.reversed()
        } catch {
            await database.close()
            throw error
        }
    }
}
