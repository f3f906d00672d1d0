import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `consent operators` against a database, and a real `consentd` signing in what it made.
@Suite struct OperatorsCommandTests {
    static let password = "correct horse battery"

    @Test("operators are created from a password on standard input, listed without it, and disabled")
    func operatorsAreCreatedListedAndDisabled() throws {
        let database = KeysCommandTests.database()
        let created = try Consent.run(["operators", "create", "--email", "Ana@example.com", "--role", "editor", "--database", database],
                                      input: Self.password + "\n")
        #expect(created.status == 0)
        #expect(created.output.hasPrefix("created editor Ana@example.com (op_"))
        let linked = try Consent.run(["operators", "create", "--email", "ben@example.com", "--role", "analyst", "--one-time-link",
                                      "--database", database])
        #expect(linked.status == 0)
        #expect(linked.output.trimmingCharacters(in: .whitespacesAndNewlines).count == 43)
        #expect(linked.error.contains("not shown again"))

        let listed = try Consent.run(["operators", "list", "--json", "--database", database])
        let rows = listed.output.split(separator: "\n").map { try! JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
        #expect(rows.map { $0["email"] as? String } == ["Ana@example.com", "ben@example.com"])
        #expect(rows.map { $0["role"] as? String } == ["editor", "analyst"])
        #expect(rows.map { $0["hasPassword"] as? Bool } == [true, false])
        #expect(!listed.output.contains("scrypt"))

        let disabled = try Consent.run(["operators", "disable", "ANA@example.com", "--database", database])
        #expect(disabled.status == 0)
        let after = try Consent.run(["operators", "list", "--database", database])
        #expect(after.output.contains("Ana@example.com  editor  disabled "))
        #expect(after.output.contains("ben@example.com  analyst  awaiting its one-time link"))
        let unknown = try Consent.run(["operators", "disable", "nobody@example.com", "--database", database])
        #expect(unknown.status == 1)
        #expect(unknown.error.contains("no operator nobody@example.com"))
    }

    @Test("a bad role, a short or missing password and a taken e-mail are refused with a message")
    func badInputIsRefused() throws {
        let database = KeysCommandTests.database()
        let role = try Consent.run(["operators", "create", "--email", "a@example.com", "--role", "admin", "--database", database],
                                   input: Self.password + "\n")
        #expect(role.status != 0)
        #expect(role.error.contains("\"admin\" is not a role"))
        let short = try Consent.run(["operators", "create", "--email", "a@example.com", "--role", "owner", "--database", database], input: "short\n")
        #expect(short.status != 0)
        #expect(short.error.contains("at least 12 characters"))
        let none = try Consent.run(["operators", "create", "--email", "a@example.com", "--role", "owner", "--database", database])
        #expect(none.status != 0)
        #expect(none.error.contains("no password"))
        #expect(try Consent.run(["operators", "create", "--email", "a@example.com", "--role", "owner", "--database", database],
                                input: Self.password + "\n").status == 0)
        let taken = try Consent.run(["operators", "create", "--email", "A@EXAMPLE.COM", "--role", "owner", "--database", database],
                                    input: Self.password + "\n")
        #expect(taken.status != 0)
        #expect(taken.error.contains("exists already"))
    }

    @Test("consentd with no operator logs a one-time token that creates the first owner, who then signs in")
    func firstOperatorSignsInWithTheLoggedToken() async throws {
        let database = KeysCommandTests.database()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("consentd-console-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let log = directory.appendingPathComponent("stderr.log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let server = try ConsentdProcess(arguments: ["--port", "0", "--database", database, "--secret-file", directory.appendingPathComponent("secret").path],
                                         standardError: try FileHandle(forWritingTo: log))
        defer { server.stop() }
        let logged = try String(contentsOf: log, encoding: .utf8)
        // Once, as the console's address with the token (the link the first owner opens).
        let token = try #require(logged.firstMatch(of: /\/console\/#\/token=([A-Za-z0-9_-]{43})/)?.1)
        #expect(logged.components(separatedBy: "#/token=").count == 2)

        func signIn(_ body: [String: String]) async throws -> HTTPURLResponse {
            var request = URLRequest(url: URL(string: server.url + "/v1/console/session")!)
            request.httpMethod = "POST"
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.httpBody = try JSONSerialization.data(withJSONObject: body)
            return try #require(try await URLSession.shared.data(for: request).1 as? HTTPURLResponse)
        }
        let first = try await signIn(["token": String(token), "email": "owner@example.com", "password": Self.password])
        #expect(first.statusCode == 200)
        #expect(first.value(forHTTPHeaderField: "Set-Cookie")?.contains("HttpOnly; Secure; SameSite=Strict") == true)
        #expect(try await signIn(["token": String(token), "email": "other@example.com", "password": Self.password]).statusCode == 401)
        #expect(try await signIn(["email": "owner@example.com", "password": Self.password]).statusCode == 200)
        let listed = try Consent.run(["operators", "list", "--database", database])
        #expect(listed.output.contains("owner@example.com  owner  active"))
    }
}
