import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `consent keys` and `consent chain verify` against a database, and a real `consentd` using them.
@Suite struct KeysCommandTests {
    static func database() -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("consent-keys-\(UUID().uuidString)")
        return "sqlite:" + directory.appendingPathComponent("consentd.sqlite").path
    }

    @Test func keysAreCreatedListedAndRevoked() throws {
        let database = Self.database()
        let created = try Consent.run(["keys", "create", "--app", "com.example.news", "--kind", "publishable", "--label", "iOS", "--database", database])
        #expect(created.status == 0)
        let key = created.output.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(key.hasPrefix("ck_pub_"))
        #expect(created.error.contains("not shown again"))
        _ = try Consent.run(["keys", "create", "--app", "com.example.other", "--kind", "secret", "--database", database])

        let listed = try Consent.run(["keys", "list", "--app", "com.example.news", "--json", "--database", database])
        let rows = listed.output.split(separator: "\n").map { try! JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
        #expect(rows.count == 1)
        let keyId = try #require(rows.first?["keyId"] as? String)
        #expect(key.contains(keyId))
        #expect(rows.first?["label"] as? String == "iOS")
        #expect(rows.first?["revokedAt"] == nil)
        #expect(!listed.output.contains(String(key.suffix(32))))

        #expect(try Consent.run(["keys", "revoke", keyId, "--database", database]).status == 0)
        let after = try Consent.run(["keys", "list", "--json", "--database", database])
        #expect(after.output.split(separator: "\n").count == 2)
        #expect(after.output.contains("revokedAt"))
        let unknown = try Consent.run(["keys", "revoke", "nosuchkey", "--database", database])
        #expect(unknown.status == 1)
        #expect(unknown.error.contains("no key nosuchkey"))
    }

    @Test func badInputIsRefusedWithAMessage() throws {
        let database = Self.database()
        let kind = try Consent.run(["keys", "create", "--app", "a", "--kind", "admin", "--database", database])
        #expect(kind.status != 0)
        #expect(kind.error.contains("--kind must be publishable or secret"))
        let app = try Consent.run(["keys", "create", "--app", "bad app!", "--kind", "secret", "--database", database])
        #expect(app.status != 0)
        #expect(app.error.contains("must be 1 to 200 letters"))
        let url = try Consent.run(["keys", "list", "--database", "mysql://x"])
        #expect(url.status != 0)
        #expect(url.error.contains("use sqlite:PATH or postgres://"))
    }

    @Test func consentdServesWithKeysFromTheCommandAndTheChainVerifies() async throws {
        let database = Self.database()
        let secretFile = FileManager.default.temporaryDirectory.appendingPathComponent("consentd-secret-\(UUID().uuidString)").path
        let publishable = try Consent.run(["keys", "create", "--app", "com.example.news", "--kind", "secret", "--database", database])
            .output.trimmingCharacters(in: .whitespacesAndNewlines)
        let server = try ConsentdProcess(arguments: ["--port", "0", "--database", database, "--secret-file", secretFile])
        defer { server.stop() }
        #expect(server.url.hasPrefix("http://127.0.0.1:"))

        for minute in 0..<3 {
            var request = URLRequest(url: URL(string: server.url + "/v1/consents")!)
            request.httpMethod = "POST"
            request.setValue("Bearer \(publishable)", forHTTPHeaderField: "Authorization")
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.httpBody = Data("""
                {"eventId": "\(UUID())", "subjectId": "user-\(minute)", "collectedAt": "2026-01-01T00:0\(minute):00Z", "purposeConsents": [1],
                 "proof": {"noticeId": "n", "noticeVersion": "1", "language": "en", "sdkVersion": "1", "platform": "web", "method": "acceptAll"}}
                """.utf8)
            let (_, response) = try await URLSession.shared.data(for: request)
            #expect((response as? HTTPURLResponse)?.statusCode == 201)
        }
        let verified = try Consent.run(["chain", "verify", "--app", "com.example.news", "--database", database])
        #expect(verified.status == 0)
        #expect(verified.output == "chain of com.example.news holds: 3 events\n")
    }

    @Test("chain verify refuses an app the database does not know, and accepts one with keys but no event")
    func chainVerifyUnknownApp() throws {
        let database = Self.database()
        #expect(try Consent.run(["keys", "create", "--app", "com.example.news", "--kind", "secret", "--database", database]).status == 0)

        let typo = try Consent.run(["chain", "verify", "--app", "com.example.nwes", "--database", database])
        #expect(typo.status == 64)
        #expect(typo.output.isEmpty)
        #expect(typo.error.contains("no app com.example.nwes in this database"))
        #expect(typo.error.contains("apps with keys: com.example.news"))

        let empty = try Consent.run(["chain", "verify", "--app", "com.example.news", "--database", database])
        #expect(empty.status == 0)
        #expect(empty.output == "chain of com.example.news holds: 0 events\n")
    }
}

/// A `consentd` process started from the build products folder, stopped with SIGTERM.
final class ConsentdProcess: @unchecked Sendable {
    let process = Process()
    let url: String

    /// Starts consentd with `arguments` and `environment` added to this process's; its standard
    /// error goes to `standardError` when given; with `descriptorLimit` it may open that many files.
    init(arguments: [String], environment: [String: String] = [:], standardError: FileHandle? = nil, descriptorLimit: Int? = nil) throws {
        let consentd = Bundle.main.bundleURL.appendingPathComponent("consentd")
        if let descriptorLimit {
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", "ulimit -n \(descriptorLimit) && exec \"$0\" \"$@\"", consentd.path] + arguments
        } else {
            process.executableURL = consentd
            process.arguments = arguments
        }
        // Tests never reach the internet: no vendor-list updates unless a test asks for them.
        process.environment = ProcessInfo.processInfo.environment.merging(["CONSENTD_VENDOR_LIST_UPDATES": "false"]) { $1 }
            .merging(environment) { $1 }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = standardError ?? FileHandle.nullDevice
        try process.run()
        // The first line on stdout is "consentd listening on URL (database: ...)".
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        let text = String(decoding: line, as: UTF8.self)
        guard let range = text.range(of: "listening on "), let end = text[range.upperBound...].firstIndex(of: " ") else {
            process.terminate()
            throw CocoaError(.fileReadCorruptFile, userInfo: [NSLocalizedDescriptionKey: "consentd did not start: \(text)"])
        }
        url = String(text[range.upperBound..<end])
    }

    func stop() {
        process.terminate()
        process.waitUntilExit()
    }
}
