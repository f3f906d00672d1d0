@testable import ConsentServer
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Synchronization
import Testing

/// The console's sign-in and access (issue 29 §1, decision 0038), against a real consentd on
/// loopback, on SQLite and (when CONSENTD_TEST_POSTGRES_URL is set) PostgreSQL.
@Suite("Console sign-in and access")
struct ConsoleAuthTests {
    static let password = "correct horse battery"

    @Test("an operator signs in with its e-mail in any case and gets a strict, HttpOnly, Secure session cookie", arguments: StoreEngine.configured)
    func signInSetsTheSessionCookie(engine: StoreEngine) async throws {
        let console = try await ConsoleFixture(engine)
        let email = try await console.createOperator(.editor)
        try await console.server.live { client in
            let response = try await client.signIn(email.uppercased(), Self.password)
            #expect(response.status == .ok)
            let cookie = try #require(response.headers[.setCookie])
            #expect(cookie.hasPrefix("consentkit_console="))
            for attribute in ["HttpOnly", "Secure", "SameSite=Strict", "Path=/v1/console", "Max-Age=43200"] {
                #expect(cookie.contains("; \(attribute)"))
            }
            #expect(response.headers[.accessControlAllowOrigin] == nil)
            let session = try #require(ConsoleSessionCookie(response))
            let me = try await client.send(.get, "/v1/console/me", headers: session.cookieHeader)
            #expect(me.status == .ok)
            #expect((me.object["operator"] as? [String: Any])?["email"] as? String == email)
            #expect((me.object["operator"] as? [String: Any])?["role"] as? String == "editor")
            #expect(me.object["csrfToken"] as? String == session.csrfToken)
            #expect(me.headers[.accessControlAllowOrigin] == nil)
        }
    }

    @Test("a wrong password and an unknown e-mail get the same refusal", arguments: StoreEngine.configured)
    func wrongPasswordAndUnknownEmailAreAnsweredAlike(engine: StoreEngine) async throws {
        let console = try await ConsoleFixture(engine)
        let email = try await console.createOperator(.owner)
        try await console.server.live { client in
            let wrong = try await client.signIn(email, "not the password at all")
            let unknown = try await client.signIn("nobody-\(UUID().uuidString)@example.com", Self.password)
            #expect(wrong.status == .unauthorized)
            #expect(unknown.status == .unauthorized)
            #expect(wrong.errorCode == "sign_in_failed")
            #expect(NSDictionary(dictionary: wrong.object) == NSDictionary(dictionary: unknown.object))
            #expect(wrong.headers[.setCookie] == nil)
        }
    }

    @Test("five failures lock an e-mail, known or not, for 15 minutes, even for the right password", arguments: StoreEngine.configured)
    func lockoutAndItsExpiry(engine: StoreEngine) async throws {
        let console = try await ConsoleFixture(engine)
        let email = try await console.createOperator(.owner)
        let unknown = "nobody-\(UUID().uuidString)@example.com"
        try await console.server.live { client in
            for _ in 1...5 {
                #expect(try await client.signIn(email, "wrong password here").status == .unauthorized)
                #expect(try await client.signIn(unknown, "wrong password here").status == .unauthorized)
            }
            let locked = try await client.signIn(email, Self.password)
            let lockedUnknown = try await client.signIn(unknown, Self.password)
            #expect(locked.status == .tooManyRequests)
            #expect(locked.errorCode == "locked_out")
            #expect(locked.headers[.retryAfter] == "900")
            #expect(NSDictionary(dictionary: locked.object) == NSDictionary(dictionary: lockedUnknown.object))
            #expect(lockedUnknown.headers[.retryAfter] == "900")
            console.clock.advance(14 * 60)
            #expect(try await client.signIn(email, Self.password).status == .tooManyRequests)
            console.clock.advance(61)
            #expect(try await client.signIn(email, Self.password).status == .ok)
        }
    }

    @Test("failures further apart than 15 minutes do not add up to a lockout")
    func oldFailuresAreForgotten() async throws {
        let console = try await ConsoleFixture(.sqlite)
        let email = try await console.createOperator(.owner)
        try await console.server.live { client in
            for _ in 1...4 { _ = try await client.signIn(email, "wrong password here") }
            console.clock.advance(16 * 60)
            for _ in 1...4 { _ = try await client.signIn(email, "wrong password here") }
            #expect(try await client.signIn(email, Self.password).status == .ok)
        }
    }

    @Test("a session unused for 30 minutes is over; one in use lives on", arguments: StoreEngine.configured)
    func idleExpiry(engine: StoreEngine) async throws {
        let console = try await ConsoleFixture(engine)
        let email = try await console.createOperator(.analyst)
        try await console.server.live { client in
            let session = try #require(ConsoleSessionCookie(try await client.signIn(email, Self.password)))
            console.clock.advance(29 * 60)
            #expect(try await client.send(.get, "/v1/console/me", headers: session.cookieHeader).status == .ok)
            console.clock.advance(29 * 60)
            #expect(try await client.send(.get, "/v1/console/me", headers: session.cookieHeader).status == .ok)
            console.clock.advance(30 * 60)
            let expired = try await client.send(.get, "/v1/console/me", headers: session.cookieHeader)
            #expect(expired.status == .unauthorized)
            console.clock.advance(-60 * 60)
            #expect(try await client.send(.get, "/v1/console/me", headers: session.cookieHeader).status == .unauthorized)
        }
    }

    @Test("a session is over 12 hours after sign-in, however busy", arguments: StoreEngine.configured)
    func absoluteExpiry(engine: StoreEngine) async throws {
        let console = try await ConsoleFixture(engine)
        let email = try await console.createOperator(.support)
        try await console.server.live { client in
            let session = try #require(ConsoleSessionCookie(try await client.signIn(email, Self.password)))
            for _ in 1..<36 {
                console.clock.advance(20 * 60)
                #expect(try await client.send(.get, "/v1/console/me", headers: session.cookieHeader).status == .ok)
            }
            console.clock.advance(20 * 60)
            #expect(try await client.send(.get, "/v1/console/me", headers: session.cookieHeader).status == .unauthorized)
        }
    }

    @Test("a cookie sent before sign-in is never promoted, and a live session it names ends", arguments: StoreEngine.configured)
    func noSessionFixation(engine: StoreEngine) async throws {
        let console = try await ConsoleFixture(engine)
        let email = try await console.createOperator(.owner)
        try await console.server.live { client in
            let planted = randomToken()
            let signedIn = try await client.signIn(email, Self.password, headers: [.cookie: "consentkit_console=\(planted)"])
            let session = try #require(ConsoleSessionCookie(signedIn))
            #expect(session.id != planted)
            #expect(try await client.send(.get, "/v1/console/me", headers: [.cookie: "consentkit_console=\(planted)"]).status == .unauthorized)
            // An earlier session's cookie at a new sign-in: the new session is new, the earlier one is over.
            let again = try #require(ConsoleSessionCookie(try await client.signIn(email, Self.password, headers: session.cookieHeader)))
            #expect(again.id != session.id)
            #expect(try await client.send(.get, "/v1/console/me", headers: session.cookieHeader).status == .unauthorized)
            #expect(try await client.send(.get, "/v1/console/me", headers: again.cookieHeader).status == .ok)
        }
    }

    @Test("a state-changing request without the CSRF token, with a wrong one or from another origin is refused", arguments: StoreEngine.configured)
    func csrfIsRequired(engine: StoreEngine) async throws {
        let console = try await ConsoleFixture(engine)
        let email = try await console.createOperator(.owner)
        try await console.server.live { client in
            let session = try #require(ConsoleSessionCookie(try await client.signIn(email, Self.password)))
            let missing = try await client.send(.delete, "/v1/console/session", headers: session.cookieHeader)
            #expect(missing.status == .forbidden)
            #expect(missing.errorCode == "csrf_refused")
            var wrong = session.cookieHeader
            wrong[ConsoleSessionCookie.csrf] = randomToken()
            #expect(try await client.send(.delete, "/v1/console/session", headers: wrong).errorCode == "csrf_refused")
            var crossOrigin = session.stateChangingHeaders
            crossOrigin[.origin] = "https://attacker.example"
            #expect(try await client.send(.delete, "/v1/console/session", headers: crossOrigin).errorCode == "csrf_refused")
            var nullOrigin = session.stateChangingHeaders
            nullOrigin[.origin] = "null"
            #expect(try await client.send(.delete, "/v1/console/session", headers: nullOrigin).errorCode == "csrf_refused")
            let crossSignIn = try await client.signIn(email, Self.password, headers: [.origin: "https://attacker.example"])
            #expect(crossSignIn.status == .forbidden)
            #expect(crossSignIn.headers[.setCookie] == nil)
            #expect(try await client.send(.get, "/v1/console/me", headers: session.cookieHeader).status == .ok)

            var sameOrigin = session.stateChangingHeaders
            sameOrigin[.origin] = "http://localhost"
            let signedOut = try await client.send(.delete, "/v1/console/session", headers: sameOrigin)
            #expect(signedOut.status == .noContent)
            #expect(signedOut.headers[.setCookie]?.hasPrefix("consentkit_console=; Max-Age=0;") == true)
            #expect(try await client.send(.get, "/v1/console/me", headers: session.cookieHeader).status == .unauthorized)
        }
    }

    @Test("each role gets 403 where the role table refuses it, and no session gets 401", arguments: StoreEngine.configured)
    func rolesAreRefusedByTheTable(engine: StoreEngine) async throws {
        let console = try await ConsoleFixture(engine)
        var created: [OperatorRole: String] = [:]
        for role in OperatorRole.allCases { created[role] = try await console.createOperator(role) }
        let emails = created
        try await console.server.live { client in
            for role in OperatorRole.allCases {
                let session = try #require(ConsoleSessionCookie(try await client.signIn(emails[role]!, Self.password)))
                let me = try await client.send(.get, "/v1/console/me", headers: session.cookieHeader)
                #expect(me.status == .ok, "\(role) GET /me")
                let audit = try await client.send(.get, "/v1/console/audit", headers: session.cookieHeader)
                #expect(audit.status == (role == .owner ? .ok : .forbidden), "\(role) GET /audit")
                if role != .owner { #expect(audit.errorCode == "forbidden") }
                let signOut = try await client.send(.delete, "/v1/console/session", headers: session.stateChangingHeaders)
                #expect(signOut.status == .noContent, "\(role) DELETE /session")
            }
            for (method, path) in [(HTTPRequest.Method.get, "/v1/console/me"), (.get, "/v1/console/audit"), (.delete, "/v1/console/session")] {
                let unsigned = try await client.send(method, path)
                #expect(unsigned.status == .unauthorized, "\(method) \(path)")
                #expect(unsigned.errorCode == "unauthorized")
            }
        }
    }

    @Test("the role table names exactly the console's signed-in routes")
    func roleTableCoversEveryRoute() async throws {
        let server = try await TestServer.make()
        let routes = Set(server.consentd.router().routes.map { "\($0.method) \($0.path)" }.filter { $0.contains(" /v1/console/") })
        await server.consentd.close()
        #expect(routes.subtracting(["POST /v1/console/session"]) == Set(ConsoleAccess.table.keys))
        #expect(ConsoleAccess.allows(.owner, .get, "/v1/console/not-in-the-table"))
        #expect(!ConsoleAccess.allows(.editor, .get, "/v1/console/not-in-the-table"))
    }

    @Test("sign-in, failures, lockout, sign-out, creation and disabling are in the audit log with who and from where",
          arguments: StoreEngine.configured)
    func auditEntries(engine: StoreEngine) async throws {
        let console = try await ConsoleFixture(engine)
        let email = try await console.createOperator(.owner)
        let other = try await console.createOperator(.support)
        let owner = try #require(try await console.server.consentd.console.operators.credentials(email: email)?.account.operatorId)
        let support = try #require(try await console.server.consentd.console.operators.credentials(email: other)?.account.operatorId)
        try await console.server.live { client in
            for _ in 1...5 { _ = try await client.signIn(other, "wrong password here") }
            let session = try #require(ConsoleSessionCookie(try await client.signIn(email, Self.password)))
            #expect(try await console.server.consentd.console.operators.disable(other, address: "cli", now: console.clock.now))
            #expect(try await client.send(.delete, "/v1/console/session", headers: session.stateChangingHeaders).status == .noContent)
        }
        let entries = try await console.auditEntries(about: [email, other])
        let summary = entries.reversed().map { "\($0.action) \($0.target ?? "-") \($0.operatorId ?? "-") \($0.address ?? "-")" }
        #expect(summary == [
            "operator_created \(email) - cli", "operator_created \(other) - cli",
        ] + Array(repeating: "sign_in_failed \(other) \(support) 127.0.0.1", count: 5) + [
            "locked_out \(other) \(support) 127.0.0.1", "sign_in \(email) \(owner) 127.0.0.1",
            "operator_disabled \(other) - cli", "sign_out \(email) \(owner) 127.0.0.1",
        ])
    }

    @Test("the owner reads the audit log a page at a time, newest first")
    func auditPages() async throws {
        let console = try await ConsoleFixture(.sqlite)
        let email = try await console.createOperator(.owner)
        try await console.server.live { client in
            let session = try #require(ConsoleSessionCookie(try await client.signIn(email, Self.password)))
            let first = try await client.send(.get, "/v1/console/audit?limit=1", headers: session.cookieHeader)
            let firstEntries = try #require(first.object["entries"] as? [[String: Any]])
            #expect(firstEntries.map { $0["action"] as? String } == ["sign_in"])
            let next = try #require(first.object["next"] as? String)
            let second = try await client.send(.get, "/v1/console/audit?limit=5&before=\(next)", headers: session.cookieHeader)
            #expect((second.object["entries"] as? [[String: Any]])?.map { $0["action"] as? String } == ["operator_created"])
            #expect(second.object["next"] == nil || second.object["next"] is NSNull)
            let bad = try await client.send(.get, "/v1/console/audit?limit=0", headers: session.cookieHeader)
            #expect(bad.status == .badRequest)
            #expect(bad.errorField == "limit")
        }
    }

    @Test("with no operator, consentd makes a one-time link that creates the owner once, within the hour")
    func firstOperatorLink() async throws {
        let console = try await ConsoleFixture(.sqlite)
        let operators = console.server.consentd.console.operators
        let token = try #require(try await operators.firstOperatorLink(now: console.clock.now))
        let late = try #require(try await operators.firstOperatorLink(now: console.clock.now))
        try await console.server.live { client in
            let weak = try await client.useLink(token, email: "owner@example.com", password: "short")
            #expect(weak.status == .badRequest)
            #expect(weak.errorCode == "weak_password")
            let noEmail = try await client.useLink(token, email: nil, password: Self.password)
            #expect(noEmail.errorField == "email")
            let used = try await client.useLink(token, email: "owner@example.com", password: Self.password)
            #expect(used.status == .ok)
            #expect((used.object["operator"] as? [String: Any])?["role"] as? String == "owner")
            #expect(ConsoleSessionCookie(used) != nil)
            let again = try await client.useLink(token, email: "second@example.com", password: Self.password)
            #expect(again.status == .unauthorized)
            #expect(again.errorCode == "link_invalid")
            console.clock.advance(3601)
            let expired = try await client.useLink(late, email: "late@example.com", password: Self.password)
            #expect(expired.errorCode == "link_invalid")
            #expect(try await client.signIn("OWNER@example.com", Self.password).status == .ok)
            #expect(try await operators.firstOperatorLink() == nil)
            #expect(try await operators.list().map(\.email) == ["owner@example.com"])
        }
        #expect(try await console.auditEntries(about: ["owner@example.com"]).map(\.action).contains("one_time_link_used"))
    }

    @Test("an operator created with a one-time link sets its password with it, then signs in with it", arguments: StoreEngine.configured)
    func operatorLink(engine: StoreEngine) async throws {
        let console = try await ConsoleFixture(engine)
        let email = "linked-\(UUID().uuidString.prefix(8))@example.com"
        let created = try await console.server.consentd.console.operators.createWithLink(email: email, role: .analyst, now: console.clock.now)
        #expect(!created.account.hasPassword)
        try await console.server.live { client in
            #expect(try await client.signIn(email, Self.password).status == .unauthorized)
            let used = try await client.useLink(created.token, email: nil, password: Self.password)
            #expect(used.status == .ok)
            #expect((used.object["operator"] as? [String: Any])?["role"] as? String == "analyst")
            #expect(try await client.useLink(created.token, email: nil, password: Self.password).errorCode == "link_invalid")
            #expect(try await client.signIn(email, Self.password).status == .ok)
        }
    }

    @Test("disabling an operator ends its sessions and its sign-ins fail as a wrong password does", arguments: StoreEngine.configured)
    func disabledOperator(engine: StoreEngine) async throws {
        let console = try await ConsoleFixture(engine)
        let email = try await console.createOperator(.editor)
        try await console.server.live { client in
            let session = try #require(ConsoleSessionCookie(try await client.signIn(email, Self.password)))
            #expect(try await console.server.consentd.console.operators.disable(email.uppercased()))
            #expect(try await client.send(.get, "/v1/console/me", headers: session.cookieHeader).status == .unauthorized)
            let refused = try await client.signIn(email, Self.password)
            #expect(refused.status == .unauthorized)
            #expect(refused.errorCode == "sign_in_failed")
        }
    }

    @Test("the e-mail is unique in any case, and bad e-mails, roles and short passwords are refused with a message")
    func operatorInputIsChecked() async throws {
        let console = try await ConsoleFixture(.sqlite)
        let operators = console.server.consentd.console.operators
        let email = try await console.createOperator(.owner)
        await #expect(throws: ConsoleError.emailTaken(email.uppercased())) {
            try await operators.create(email: email.uppercased(), role: .editor, password: Self.password, parameters: ConsoleFixture.cheap)
        }
        await #expect(throws: ConsoleError.badEmail("no at sign")) {
            try await operators.create(email: "no at sign", role: .editor, password: Self.password, parameters: ConsoleFixture.cheap)
        }
        await #expect(throws: ConsoleError.weakPassword("a password needs at least 12 characters")) {
            try await operators.create(email: "x@example.com", role: .editor, password: "elevenchars", parameters: ConsoleFixture.cheap)
        }
        #expect(throws: ConsoleError.badRole("admin")) { try OperatorRole.named("admin") }
        await console.server.consentd.close()
    }

    @Test("a password is stored as scrypt with its parameters, salted, and checked with the parameters stored")
    func passwordHashes() throws {
        let stored = try PasswordHash.make(Self.password)
        #expect(stored.hasPrefix("scrypt$15$8$1$"))
        #expect(stored.split(separator: "$").count == 6)
        #expect(PasswordHash.verify(Self.password, against: stored))
        #expect(!PasswordHash.verify(Self.password + "!", against: stored))
        #expect(try PasswordHash.make(Self.password) != stored)
        let cheap = try PasswordHash.make(Self.password, parameters: ConsoleFixture.cheap)
        #expect(cheap.hasPrefix("scrypt$10$8$1$"))
        #expect(PasswordHash.verify(Self.password, against: cheap))
        // Parameters beyond what consentd computes, and forms it cannot read, match nothing.
        #expect(!PasswordHash.verify(Self.password, against: cheap.replacingOccurrences(of: "scrypt$10$", with: "scrypt$30$")))
        #expect(!PasswordHash.verify(Self.password, against: "plain"))
        #expect(!PasswordHash.verify(Self.password, against: "scrypt$10$8$1$AAAA$AAAA"))
    }
}

/// A consentd for the console tests on `engine`, its console on a clock the test moves.
struct ConsoleFixture {
    static let cheap = ScryptParameters(log2N: 10, blockSize: 8, parallelism: 1)
    let server: TestServer
    let clock: TestConsoleClock

    init(_ engine: StoreEngine) async throws {
        let clock = TestConsoleClock()
        self.clock = clock
        server = try await TestServer.make({ settings in
            if engine == .postgresql { settings.databaseURL = StoreEngine.postgresURL! }
        }, clock: { clock.now })
    }

    /// A new operator with ``ConsoleAuthTests/password`` and an e-mail no other test uses.
    func createOperator(_ role: OperatorRole) async throws -> String {
        let email = "\(role.rawValue)-\(UUID().uuidString.prefix(8).lowercased())@example.com"
        _ = try await server.consentd.console.operators.create(email: email, role: role, password: ConsoleAuthTests.password,
                                                               parameters: Self.cheap, now: clock.now)
        return email
    }

    /// The audit entries whose target is one of `emails`, newest first (read after the server closed its database).
    func auditEntries(about emails: [String]) async throws -> [AuditEntry] {
        let database = try await Database.open(url: server.consentd.settings.databaseURL, logger: .init(label: "test"))
        do {
            var entries: [AuditEntry] = []
            var before: String?
            repeat {
                let page = try await AuditLog(database: database).page(limit: 500, before: before)
                entries += page.filter { emails.contains($0.target ?? "") }
                before = page.count == 500 ? page.last?.id : nil
            } while before != nil
            await database.close()
            return entries
        } catch {
            await database.close()
            throw error
        }
    }
}

/// The console's time in a test: now when made, moved by ``advance(_:)``.
final class TestConsoleClock: Sendable {
    private let time = Mutex(Date())

    var now: Date { time.withLock { $0 } }

    func advance(_ seconds: TimeInterval) {
        time.withLock { $0 = $0.addingTimeInterval(seconds) }
    }
}

/// The session a sign-in answered: its cookie's id and the CSRF token.
struct ConsoleSessionCookie {
    static let csrf = HTTPField.Name("X-CSRF-Token")!
    let id: String
    let csrfToken: String

    init?(_ response: TestResponse) {
        guard response.status == .ok, let cookie = response.headers[.setCookie], cookie.hasPrefix("consentkit_console="),
              let value = cookie.dropFirst("consentkit_console=".count).split(separator: ";").first,
              let csrf = response.object["csrfToken"] as? String else { return nil }
        id = String(value)
        csrfToken = csrf
    }

    /// The cookie alone.
    var cookieHeader: HTTPFields { [.cookie: "consentkit_console=\(id)"] }

    /// The cookie and the CSRF token.
    var stateChangingHeaders: HTTPFields { [.cookie: "consentkit_console=\(id)", Self.csrf: csrfToken] }
}

extension TestClientProtocol {
    /// `POST /v1/console/session` with an e-mail and password.
    func signIn(_ email: String, _ password: String, headers: HTTPFields = [:]) async throws -> TestResponse {
        try await send(.post, "/v1/console/session", json: jsonText(["email": email, "password": password]), headers: headers)
    }

    /// `POST /v1/console/session` with a one-time link's token.
    func useLink(_ token: String, email: String?, password: String) async throws -> TestResponse {
        var body = ["token": token, "password": password]
        if let email { body["email"] = email }
        return try await send(.post, "/v1/console/session", json: jsonText(body))
    }
}

private func jsonText(_ object: [String: String]) -> String {
    String(decoding: try! JSONSerialization.data(withJSONObject: object), as: UTF8.self)
}
