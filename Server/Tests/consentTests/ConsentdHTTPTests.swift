import Foundation
import Testing

/// consentd's HTTP/1.1 as a client on a raw socket meets it: a real consentd process, bytes on the
/// wire, its `/metrics` and its log.
@Suite("consentd HTTP: client faults, timeouts, connection limit, HEAD, Expect")
struct ConsentdHTTPTests {
    /// A consentd on a fresh SQLite file with one publishable key, its log in a file.
    final class Server {
        let process: ConsentdProcess
        let directory: URL
        let key: String
        private let logFile: URL

        /// Starts consentd with `arguments`, allowed `descriptorLimit` open files when given.
        init(_ arguments: [String] = [], descriptorLimit: Int? = nil) throws {
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("consentd-http-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let database = "sqlite:" + directory.appendingPathComponent("consentd.sqlite").path
            key = try Consent.run(["keys", "create", "--app", "com.example.news", "--kind", "publishable", "--database", database])
                .output.trimmingCharacters(in: .whitespacesAndNewlines)
            logFile = directory.appendingPathComponent("stderr.log")
            _ = FileManager.default.createFile(atPath: logFile.path, contents: nil)
            process = try ConsentdProcess(
                arguments: arguments + ["--port", "0", "--database", database,
                                        "--secret-file", directory.appendingPathComponent("secret").path],
                standardError: try FileHandle(forWritingTo: logFile), descriptorLimit: descriptorLimit)
        }

        /// What consentd wrote on standard error so far.
        var log: String {
            (try? String(contentsOf: logFile, encoding: .utf8)) ?? ""
        }

        func stop() {
            process.stop()
        }

        func connect() throws -> RawConnection {
            try RawConnection(url: process.url)
        }

        /// `/metrics` lines counting requests (`hb_requests`) on `route`.
        func requestCounts(route: String) throws -> [String] {
            let connection = try connect()
            try connection.send("GET /metrics HTTP/1.1\r\nHost: test\r\n\r\n")
            let metrics = try #require(connection.readResponse(within: 10)).body
            return metrics.split(separator: "\n").map(String.init)
                .filter { $0.hasPrefix("hb_requests{") && $0.contains("http_route=\"\(route)\"") }
        }

        /// Waits up to 10 s for `/metrics` to count a request on `route`.
        func waitForCount(route: String) throws -> [String] {
            let end = Date().addingTimeInterval(10)
            while Date() < end {
                let lines = try requestCounts(route: route)
                if !lines.isEmpty { return lines }
                Thread.sleep(forTimeInterval: 0.1)
            }
            return []
        }

        /// Log lines at error or critical level.
        var errorLines: [String] {
            let log = (try? String(contentsOf: logFile, encoding: .utf8)) ?? ""
            return log.split(separator: "\n").map(String.init).filter {
                let level = $0.split(separator: " ").dropFirst().first
                return level == "error" || level == "critical"
            }
        }
    }

    static func event() -> String {
        """
        {"eventId": "\(UUID())", "collectedAt": "2026-01-01T00:00:00Z", "purposeConsents": [1],
         "proof": {"noticeId": "n", "noticeVersion": "1", "language": "en", "sdkVersion": "1", "platform": "web", "method": "acceptAll"}}
        """
    }

    func postHead(_ server: Server, _ extra: String) -> String {
        "POST /v1/consents HTTP/1.1\r\nHost: test\r\nAuthorization: Bearer \(server.key)\r\nContent-Type: application/json\r\n\(extra)\r\n"
    }

    static func isServerError(_ metricLine: String) -> Bool {
        metricLine.contains("http_response_status_code=\"5")
    }

    // MARK: - Client faults

    @Test("a malformed chunked body is 400, counted as 400, not logged as an error")
    func malformedChunkedBody() throws {
        let server = try Server()
        defer { server.stop() }
        let connection = try server.connect()
        try connection.send(postHead(server, "Transfer-Encoding: chunked\r\n") + "zz\r\n{}\r\n0\r\n\r\n")
        let response = try #require(connection.readResponse(within: 10))
        #expect(response.status == 400)
        #expect(response.body.contains("\"invalid_request\""))
        let counts = try server.waitForCount(route: "/v1/consents")
        #expect(counts.contains { $0.contains("http_response_status_code=\"400\"") })
        #expect(!counts.contains(where: Self.isServerError))
        #expect(server.errorLines.isEmpty)
    }

    @Test("a client that leaves mid-body is counted as 499, never a 5xx, and not logged as an error")
    func disconnectMidBody() throws {
        let server = try Server()
        defer { server.stop() }
        let connection = try server.connect()
        let body = Self.event()
        try connection.send(postHead(server, "Content-Length: \(body.utf8.count)\r\n") + String(body.prefix(40)))
        Thread.sleep(forTimeInterval: 0.3)
        connection.close()
        let counts = try server.waitForCount(route: "/v1/consents")
        #expect(counts.contains { $0.contains("http_response_status_code=\"499\"") })
        #expect(!counts.contains(where: Self.isServerError))
        #expect(server.errorLines.isEmpty)
    }

    // MARK: - Timeouts and the connection limit

    @Test("a connection that sends nothing is closed after the idle timeout, and so is one idle after a response")
    func idleTimeout() throws {
        let server = try Server(["--idle-timeout", "1"])
        defer { server.stop() }
        let silent = try server.connect()
        let started = Date()
        #expect(silent.waitForClose(within: 8))
        #expect(Date().timeIntervalSince(started) >= 0.9)

        let used = try server.connect()
        try used.send("GET /health HTTP/1.1\r\nHost: test\r\n\r\n")
        #expect(used.readResponse(within: 5)?.status == 200)
        #expect(used.waitForClose(within: 8))
    }

    @Test("a connection answered before its body was sent (a refusal) is idle once the body is in, and is closed")
    func idleAfterEarlyAnswer() throws {
        let server = try Server(["--idle-timeout", "1"])
        defer { server.stop() }
        let connection = try server.connect()
        let body = Self.event()
        try connection.send("POST /v1/consents HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n")
        #expect(connection.readResponse(within: 10)?.status == 401)
        try connection.send(body)
        #expect(connection.waitForClose(within: 8))
    }

    @Test("half-sent headers are closed after the header timeout, well before the idle timeout")
    func headerTimeout() throws {
        let server = try Server(["--header-timeout", "1", "--idle-timeout", "60"])
        defer { server.stop() }
        let slow = try server.connect()
        try slow.send("GET /health HTTP/1.1\r\nHost: test\r\n")
        let started = Date()
        #expect(slow.waitForClose(within: 10))
        #expect(Date().timeIntervalSince(started) < 10)

        // A head that arrives in parts within the limit is answered.
        let patient = try server.connect()
        try patient.send("GET /health HTTP/1.1\r\n")
        Thread.sleep(forTimeInterval: 0.3)
        try patient.send("Host: test\r\n\r\n")
        #expect(patient.readResponse(within: 5)?.status == 200)
    }

    @Test("a body slower than the body timeout is cut off and counted as 408, not a 5xx")
    func bodyTimeout() throws {
        let server = try Server(["--body-timeout", "1"])
        defer { server.stop() }
        let connection = try server.connect()
        let body = Self.event()
        try connection.send(postHead(server, "Content-Length: \(body.utf8.count)\r\n") + String(body.prefix(10)))
        #expect(connection.waitForClose(within: 10))
        let counts = try server.waitForCount(route: "/v1/consents")
        #expect(counts.contains { $0.contains("http_response_status_code=\"408\"") })
        #expect(!counts.contains(where: Self.isServerError))
        #expect(server.errorLines.isEmpty)
    }

    @Test("a connection beyond the limit, while every connection is mid-request, waits in the backlog until one closes, then is served")
    func connectionLimit() throws {
        let server = try Server(["--max-connections", "2"])
        defer { server.stop() }
        var open: [RawConnection] = []
        for _ in 0..<2 {
            let connection = try server.connect()
            // Busy (a head under way), so not a connection the full listener may close.
            try connection.send("GET /health HTTP/1.1\r\n")
            Thread.sleep(forTimeInterval: 0.2)
            open.append(connection)
        }
        let third = try server.connect()
        try third.send("GET /health HTTP/1.1\r\nHost: test\r\n\r\n")
        #expect(third.readResponse(within: 1.5) == nil)
        open[0].close()
        #expect(third.readResponse(within: 10)?.status == 200)
    }

    @Test("a timeout or connection limit that is not a positive number stops consentd with status 64, naming it", arguments: [
        (["--idle-timeout", "0"], [:], "CONSENTD_IDLE_TIMEOUT: 0 is not a number of seconds"),
        (["--header-timeout=-1"], [:], "CONSENTD_HEADER_TIMEOUT: -1 is not a number of seconds"),
        ([], ["CONSENTD_BODY_TIMEOUT": "soon"], "CONSENTD_BODY_TIMEOUT: soon is not a number of seconds"),
        ([], ["CONSENTD_MAX_CONNECTIONS": "0"], "CONSENTD_MAX_CONNECTIONS: 0 is not a whole number of 1 or more"),
    ] as [([String], [String: String], String)])
    func badLimitIsRefused(arguments: [String], environment: [String: String], message: String) throws {
        let directory = ConsentdSettingsTests.temporaryDirectory()
        let result = try Self.runConsentd(
            arguments + ["--port", "0", "--database", "sqlite:" + directory.appendingPathComponent("db.sqlite").path], environment: environment)
        #expect(result.status == 64)
        #expect(result.error.contains(message))
    }

    // MARK: - HEAD, Expect, content coding

    @Test("HEAD answers every GET route with its status and headers and no body", arguments: ["/health", "/v1/vendor-list.json"])
    func head(path: String) throws {
        let server = try Server()
        defer { server.stop() }
        let connection = try server.connect()
        try connection.send("GET \(path) HTTP/1.1\r\nHost: test\r\n\r\nHEAD \(path) HTTP/1.1\r\nHost: test\r\n\r\n"
                            + "GET /health HTTP/1.1\r\nHost: test\r\n\r\n")
        let get = try #require(connection.readResponse(within: 10))
        let head = try #require(connection.readResponse(within: 10, bodyless: true))
        #expect(head.status == 200)
        #expect(Self.header("content-length", in: head.head) == Self.header("content-length", in: get.head))
        #expect(Self.header("content-type", in: head.head) == Self.header("content-type", in: get.head))
        #expect(Self.header("etag", in: head.head) == Self.header("etag", in: get.head))
        // No body: the next bytes are the next response.
        #expect(connection.readResponse(within: 10)?.status == 200)
    }

    @Test("Expect: 100-continue gets 100 Continue before the body is sent, then the answer")
    func expectContinue() throws {
        let server = try Server()
        defer { server.stop() }
        let connection = try server.connect()
        let body = Self.event()
        try connection.send(postHead(server, "Content-Length: \(body.utf8.count)\r\nExpect: 100-continue\r\n"))
        let interim = try #require(connection.readResponse(within: 5))
        #expect(interim.status == 100)
        try connection.send(body)
        #expect(connection.readResponse(within: 10)?.status == 201)
    }

    @Test("Accept-Encoding is honoured on the wire: gzip;q=0 gets the plain list, *;q=0 gets 406")
    func contentCoding() throws {
        let server = try Server()
        defer { server.stop() }
        for (accept, status, encoding) in [("gzip", 200, "gzip"), ("gzip;q=0", 200, nil), ("*;q=0", 406, nil)] as [(String, Int, String?)] {
            let connection = try server.connect()
            try connection.send("GET /v1/vendor-list.json HTTP/1.1\r\nHost: test\r\nAccept-Encoding: \(accept)\r\n\r\n")
            let response = try #require(connection.readResponse(within: 10))
            #expect(response.status == status, "\(accept)")
            #expect(Self.header("content-encoding", in: response.head) == encoding, "\(accept)")
        }
    }

    // MARK: - Files and the listening address

    @Test("the SQLite database and its -wal and -shm files are created readable by consentd's user only (0600)")
    func databaseFileMode() throws {
        // consentd itself creates the file here (Server would create it with `consent keys`).
        let directory = ConsentdSettingsTests.temporaryDirectory()
        let server = try ConsentdProcess(arguments: [
            "--port", "0", "--database", "sqlite:" + directory.appendingPathComponent("consentd.sqlite").path,
            "--secret-file", directory.appendingPathComponent("secret").path,
        ])
        defer { server.stop() }
        let connection = try RawConnection(url: server.url)
        try connection.send("GET /health HTTP/1.1\r\nHost: test\r\n\r\n")
        #expect(connection.readResponse(within: 10)?.status == 200)
        for suffix in ["", "-wal", "-shm"] {
            let path = directory.appendingPathComponent("consentd.sqlite" + suffix).path
            let mode = try #require(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
            #expect(mode == 0o600, "consentd.sqlite\(suffix) has mode \(String(mode, radix: 8))")
        }
    }

    @Test("an address in use stops consentd with status 78 and a message naming the address, the port and --port")
    func bindFailure() throws {
        let occupant = try Server()
        defer { occupant.stop() }
        let port = try #require(URL(string: occupant.process.url)?.port)
        let directory = ConsentdSettingsTests.temporaryDirectory()
        let result = try Self.runConsentd(
            ["--port", "\(port)", "--database", "sqlite:" + directory.appendingPathComponent("db.sqlite").path,
             "--secret-file", directory.appendingPathComponent("secret").path], environment: [:])
        #expect(result.status == 78)
        #expect(result.error.contains("consentd: cannot listen on 127.0.0.1:\(port): address already in use"))
        #expect(result.error.contains("--port (CONSENTD_PORT)"))
    }

    /// Runs the built `consentd` to its end, or stops it after 30 s (a consentd that starts where
    /// it should have refused its settings), giving status -1.
    static func runConsentd(_ arguments: [String], environment: [String: String]) throws -> Consent.Result {
        let process = Process()
        process.executableURL = Bundle.main.bundleURL.appendingPathComponent("consentd")
        process.arguments = arguments
        // Tests never reach the internet: no vendor-list updates unless a test asks for them.
        process.environment = ProcessInfo.processInfo.environment.merging(["CONSENTD_VENDOR_LIST_UPDATES": "false"]) { $1 }
            .merging(environment) { $1 }
        let directory = ConsentdSettingsTests.temporaryDirectory()
        let output = directory.appendingPathComponent("stdout"), error = directory.appendingPathComponent("stderr")
        for file in [output, error] { _ = FileManager.default.createFile(atPath: file.path, contents: nil) }
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = try FileHandle(forWritingTo: error)
        try process.run()
        let end = Date().addingTimeInterval(30)
        while process.isRunning, Date() < end { Thread.sleep(forTimeInterval: 0.05) }
        let stopped = process.isRunning
        if stopped { process.terminate() }
        process.waitUntilExit()
        return Consent.Result(status: stopped ? -1 : process.terminationStatus,
                              output: (try? String(contentsOf: output, encoding: .utf8)) ?? "",
                              error: (try? String(contentsOf: error, encoding: .utf8)) ?? "")
    }

    static func header(_ name: String, in head: String) -> String? {
        for line in head.split(separator: "\r\n") {
            let parts = line.split(separator: ":", maxSplits: 1)
            if parts.count == 2, parts[0].lowercased() == name { return parts[1].trimmingCharacters(in: .whitespaces) }
        }
        return nil
    }
}
