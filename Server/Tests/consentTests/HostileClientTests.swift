import Foundation
import Testing

/// What one hostile client may take of a real consentd (issue 24: H3, H4, M1, M6): clients on
/// several loopback addresses (`127.0.0.2`, `127.0.0.3`, … are all this machine's), raw sockets,
/// every port consentd opens.
@Suite("consentd under hostile clients: rate limits per address, every port guarded, connection caps")
struct HostileClientTests {
    typealias Server = ConsentdHTTPTests.Server

    /// The port of the demo's second origin, read from the iframe address `/demo` writes.
    static func demoFramePort(_ server: Server) throws -> Int {
        let page = try #require(try RawConnection(url: server.process.url).get("/demo")).body
        let end = try #require(page.range(of: "/demo/frame.html")).lowerBound
        let start = try #require(page[..<end].range(of: "http://", options: .backwards)).lowerBound
        return try #require(URL(string: String(page[start..<end]))?.port)
    }

    /// The main port and the demo's second port, with a path each serves.
    static func ports(_ server: Server) throws -> [(name: String, port: Int, path: String)] {
        let ports = [("main", try #require(URL(string: server.process.url)?.port), "/health"),
                     ("demo frame", try demoFramePort(server), "/demo/frame.html")]
        // The connection that read /demo is closed on the server's side too before a test counts.
        Thread.sleep(forTimeInterval: 0.3)
        return ports
    }

    // MARK: - H3: no address spends another's share

    @Test("h3: one address flooding a publishable key never blocks another address using the same key")
    func h3OneAddressFloodingAKeyNeverBlocksAnother() throws {
        let server = try Server(["--rate-limit-key", "5/5"])
        defer { server.stop() }
        let flooder = try RawConnection(url: server.process.url, from: "127.0.0.2")
        var statuses: [Int] = []
        for _ in 0..<20 {
            statuses.append(try #require(try flooder.get("/v1/config?publisherIds=none", headers: "Authorization: Bearer \(server.key)\r\n")).status)
        }
        #expect(statuses.contains(429))
        // Past the key's checks (the publisher is unknown: 400), not refused for the flood.
        let visitor = try RawConnection(url: server.process.url, from: "127.0.0.3")
        #expect(try visitor.get("/v1/config?publisherIds=none", headers: "Authorization: Bearer \(server.key)\r\n")?.status == 400)
    }

    @Test("h3: a publishable key has a ceiling over all addresses together")
    func h3PublishableKeyHasACeilingOverAllAddresses() throws {
        let server = try Server(["--rate-limit-key", "0", "--rate-limit-public-key", "6/6"])
        defer { server.stop() }
        var refusals: [String] = []
        for address in ["127.0.0.2", "127.0.0.3", "127.0.0.4"] {
            let client = try RawConnection(url: server.process.url, from: address)
            for _ in 0..<3 {
                let response = try #require(try client.get("/v1/config?publisherIds=none", headers: "Authorization: Bearer \(server.key)\r\n"))
                if response.status == 429 { refusals.append(response.body) }
            }
        }
        #expect(!refusals.isEmpty)
        #expect(refusals.allSatisfy { $0.contains("over all clients") })
    }

    @Test("h3: the per-address limit covers every route, /demo, /notice, /cmp, /health and the demo's second port, and no other address")
    func h3PerAddressLimitCoversEveryRoute() throws {
        let server = try Server(["--rate-limit-ip", "2/2"])
        defer { server.stop() }
        let framePort = try Self.demoFramePort(server)
        let mainPort = try #require(URL(string: server.process.url)?.port)
        var address = 10
        for (port, path) in [(mainPort, "/demo"), (mainPort, "/notice/notice.html"), (mainPort, "/cmp/stub.js"), (mainPort, "/health"),
                             (framePort, "/demo/frame.html")] {
            address += 1
            let flooder = try RawConnection(port: port, from: "127.0.0.\(address)")
            let statuses = try (0..<4).map { _ in try #require(try flooder.get(path)).status }
            #expect(statuses.last == 429, "\(path) on port \(port): \(statuses)")
            let other = try RawConnection(port: port, from: "127.0.1.\(address)")
            #expect(try other.get(path)?.status != 429, "\(path) from another address")
        }
    }

    // MARK: - H2: safe by default

    @Test("h2: bound to a non-loopback address consentd serves no demo unless told to, and then warns")
    func h2DemoOffOnAPublicAddressByDefault() throws {
        let quiet = try Server(["--host", "0.0.0.0"])
        defer { quiet.stop() }
        #expect(try RawConnection(url: quiet.process.url).get("/demo")?.status == 404)
        #expect(!quiet.log.contains("is not a loopback address"))

        let told = try Server(["--host", "0.0.0.0", "--demo", "true"])
        defer { told.stop() }
        #expect(try RawConnection(url: told.process.url).get("/demo")?.status == 200)
        #expect(told.log.contains("which is not a loopback address; turn it off with --demo false"))
    }

    // MARK: - H4: every port guarded; the main port answers while another is full

    @Test("h4: every port consentd opens closes idle connections and half-sent heads", arguments: [0, 1])
    func h4EveryPortClosesIdleAndSlowConnections(portIndex: Int) throws {
        let server = try Server(["--idle-timeout", "1", "--header-timeout", "1"])
        defer { server.stop() }
        let port = try Self.ports(server)[portIndex]
        let idle = try RawConnection(port: port.port)
        let slow = try RawConnection(port: port.port)
        try slow.send("GET \(port.path) HTTP/1.1\r\nHost: test\r\n")
        #expect(idle.waitForClose(within: 8), "\(port.name)")
        #expect(slow.waitForClose(within: 8), "\(port.name)")
    }

    @Test("h4: every port holds at most its cap and, when full, closes its longest-idle connection for a new client", arguments: [0, 1])
    func h4EveryPortHasAConnectionCap(portIndex: Int) throws {
        let server = try Server(["--max-connections", "2"])
        defer { server.stop() }
        let port = try Self.ports(server)[portIndex]
        let first = try RawConnection(port: port.port)
        #expect(try first.get(port.path)?.status == 200)
        let second = try RawConnection(port: port.port)
        #expect(try second.get(port.path)?.status == 200)
        // The listener is full: the connection idle longest made room.
        #expect(first.waitForClose(within: 5), "\(port.name)")
        let third = try RawConnection(port: port.port)
        #expect(try third.get(port.path)?.status == 200, "\(port.name)")
    }

    @Test("h4: with few descriptors the caps are lowered with a warning, and /health answers while the demo port is flooded")
    func h4MainPortAnswersWhileTheDemoPortIsFlooded() throws {
        let server = try Server([], descriptorLimit: 200)
        defer { server.stop() }
        let framePort = try Self.demoFramePort(server)
        var held: [RawConnection] = []
        for index in 0..<260 {
            held.append(try RawConnection(port: framePort, from: "127.0.2.\(index % 200 + 1)"))
        }
        Thread.sleep(forTimeInterval: 0.5)
        let probe = try RawConnection(url: server.process.url, from: "127.0.3.1")
        #expect(try probe.get("/health")?.status == 200)
        #expect(server.log.contains("fewer than its connection caps"))
        _ = held
    }

    // MARK: - M1: slow readers and one address's share

    @Test("m1: a connection that never reads its answers is closed after the write timeout")
    func m1ConnectionThatNeverReadsIsClosed() throws {
        let server = try Server(["--write-timeout", "2", "--idle-timeout", "60"])
        defer { server.stop() }
        let reader = try RawConnection(url: server.process.url, receiveBuffer: 4096)
        let count = 12
        let size = try #require(try RawConnection(url: server.process.url)
            .get("/v1/vendor-list.json", headers: "Accept-Encoding: identity\r\n")).body.utf8.count
        try reader.send(String(repeating: "GET /v1/vendor-list.json HTTP/1.1\r\nHost: test\r\nAccept-Encoding: identity\r\n\r\n", count: count))
        Thread.sleep(forTimeInterval: 6)
        let received = reader.readAll(for: 15).utf8.count
        #expect(reader.waitForClose(within: 1))
        #expect(received < count * size, "\(received) of \(count * size) bytes")
    }

    @Test("m1: a client pipelining more requests than the cap ahead of their answers is closed")
    func m1PipeliningIsCapped() throws {
        let server = try Server()
        defer { server.stop() }
        let client = try RawConnection(url: server.process.url)
        try client.send(String(repeating: "GET /health HTTP/1.1\r\nHost: test\r\n\r\n", count: 40))
        var answered = 0
        while client.readResponse(within: 3) != nil { answered += 1 }
        #expect(answered < 40)
        #expect(client.waitForClose(within: 5))
    }

    @Test("m1: one address holds at most its share of connections over all ports; another address is still served")
    func m1OneAddressHoldsAtMostItsShare() throws {
        let server = try Server(["--max-connections-per-address", "3", "--idle-timeout", "60"])
        defer { server.stop() }
        let ports = try Self.ports(server)
        var held = [try RawConnection(port: ports[0].port, from: "127.0.0.2"), try RawConnection(port: ports[0].port, from: "127.0.0.2"),
                    try RawConnection(port: ports[1].port, from: "127.0.0.2")]
        for connection in held { #expect(try connection.get(connection === held[2] ? "/demo/frame.html" : "/health")?.status == 200) }
        let fourth = try RawConnection(port: ports[0].port, from: "127.0.0.2")
        #expect(fourth.waitForClose(within: 5))
        let other = try RawConnection(port: ports[0].port, from: "127.0.0.3")
        #expect(try other.get("/health")?.status == 200)
        held.removeAll()
    }

    // MARK: - M6: new subjects and bodies in memory

    @Test("m6: subjects created with a publishable key are rate-limited per address")
    func m6SubjectCreationIsRateLimitedPerAddress() throws {
        let server = try Server(["--rate-limit-subject-creation", "2/2"])
        defer { server.stop() }
        func create(from address: String) throws -> Int {
            let client = try RawConnection(url: server.process.url, from: address)
            let body = ConsentdHTTPTests.event()
            try client.send("POST /v1/consents HTTP/1.1\r\nHost: test\r\nAuthorization: Bearer \(server.key)\r\n"
                            + "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
            return try #require(client.readResponse(within: 10)).status
        }
        let statuses = try (0..<4).map { _ in try create(from: "127.0.0.2") }
        #expect(statuses.prefix(2) == [201, 201])
        #expect(statuses.last == 429)
        #expect(try create(from: "127.0.0.3") == 201)
    }

    @Test("m6: request bodies held at once are bounded in total: past the budget a request gets 503 with Retry-After")
    func m6BodiesHeldAtOnceAreBounded() throws {
        // A budget of 1 MiB (a batch of 101 × 10,000 bytes fits in it) holds 104 bodies of 10,000 bytes.
        let server = try Server(["--body-limit", "10000", "--body-memory-limit", "1048576", "--rate-limit-subject-creation", "0"])
        defer { server.stop() }
        var open: [RawConnection] = []
        var refusals: [(status: Int, head: String, body: String)] = []
        for index in 0..<120 {
            let connection = try RawConnection(url: server.process.url, from: "127.0.4.\(index % 50 + 1)")
            try connection.send("POST /v1/consents HTTP/1.1\r\nHost: test\r\nAuthorization: Bearer \(server.key)\r\n"
                                + "Content-Type: application/json\r\nContent-Length: 10000\r\n\r\n{")
            open.append(connection)
        }
        Thread.sleep(forTimeInterval: 1.5)
        for connection in open {
            if let response = connection.readResponse(within: 0.01) { refusals.append(response) }
        }
        #expect(refusals.count <= 120 - 1_048_576 / 10_000)
        #expect(!refusals.isEmpty)
        #expect(refusals.allSatisfy { $0.status == 503 && $0.body.contains("server_busy") && $0.head.lowercased().contains("retry-after: 1") })
        open.removeAll()
        Thread.sleep(forTimeInterval: 0.5)
        let client = try RawConnection(url: server.process.url)
        let body = ConsentdHTTPTests.event()
        try client.send("POST /v1/consents HTTP/1.1\r\nHost: test\r\nAuthorization: Bearer \(server.key)\r\n"
                        + "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
        #expect(client.readResponse(within: 10)?.status == 201)
    }
}
