@testable import ConsentServer
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Synchronization
import Testing

/// M5 of issue 24: the storage-disclosure fetcher is no way into the server's network. It follows
/// no redirect, fetches only public addresses (and the loopback `http` URLs kept for tests),
/// answers a plain `502`, remembers a failure for a while, and bounds a fetch in size and time.
/// Against the real server on loopback, with vendors' servers on 127.0.0.1 and 127.0.0.2.
@Suite("Storage disclosure fetches")
struct StorageDisclosureFetchTests {
    /// The paths a local server was asked for.
    final class Hits: Sendable {
        let paths = Mutex<[String]>([])
        var count: Int { paths.withLock { $0.count } }
        func record(_ request: Request) { paths.withLock { $0.append(request.uri.path) } }
    }

    /// The bundled list with vendor 755's disclosure at `url`.
    static func catalog(disclosureURL url: String) throws -> VendorListCatalog {
        var list = try #require(try JSONSerialization.jsonObject(with: gvlFixture(gvlV3Name)) as? [String: Any])
        var vendors = try #require(list["vendors"] as? [String: Any])
        var google = try #require(vendors["755"] as? [String: Any])
        google["deviceStorageDisclosureUrl"] = url
        vendors["755"] = google
        list["vendors"] = vendors
        return try VendorListCatalog(vendorList: JSONSerialization.data(withJSONObject: list))
    }

    /// A server on `host` (127.0.0.2 included: HummingbirdTesting's live servers all listen on
    /// localhost) whose `/ds` answers `respond`, run for `body` with its port.
    static func vendorServer(
        on host: String, hits: Hits, _ respond: @escaping @Sendable () async throws -> Response,
        _ body: @escaping @Sendable (Int) async throws -> Void
    ) async throws {
        let router = Router()
        router.get("/ds") { request, _ -> Response in
            hits.record(request)
            return try await respond()
        }
        let (ports, portSink) = AsyncStream.makeStream(of: Int.self)
        let app = Application(router: router, configuration: .init(address: .hostname(host, port: 0)),
                              onServerRunning: { channel in portSink.yield(channel.localAddress?.port ?? 0) })
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await app.runService() }
            var iterator = ports.makeAsyncIterator()
            let port = try #require(await iterator.next())
            do {
                try await body(port)
            } catch {
                group.cancelAll()
                throw error
            }
            group.cancelAll()
        }
    }

    static let secretDisclosure = #"{"disclosures":[{"identifier":"INTERNAL-SECRET-FROM-127.0.0.2","type":"cookie"}]}"#

    static func json(_ text: String) -> Response {
        Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    /// consentd holding `catalog`, for `body`.
    static func consentd(_ catalog: VendorListCatalog, _ body: @escaping @Sendable (any TestClientProtocol) async throws -> Void) async throws {
        try await TestServer.make(catalog: catalog).live(body)
    }

    /// The internal server on 127.0.0.2 and a vendor's server on 127.0.0.1 that redirects to it.
    static func redirecting(_ body: @escaping @Sendable (_ url: String, _ front: Hits, _ inside: Hits) async throws -> Void) async throws {
        let inside = Hits(), front = Hits()
        try await vendorServer(on: "127.0.0.2", hits: inside, { json(secretDisclosure) }) { internalPort in
            try await vendorServer(on: "127.0.0.1", hits: front, {
                Response(status: .found, headers: [.location: "http://127.0.0.2:\(internalPort)/ds?x=1"])
            }) { port in
                try await body("http://127.0.0.1:\(port)/ds", front, inside)
            }
        }
    }

    @Test("m5: a redirect to a host the fetcher refuses (127.0.0.2) is not followed")
    func m5RedirectIsNotFollowed() async throws {
        try await Self.redirecting { url, front, inside in
            try await Self.consentd(try Self.catalog(disclosureURL: url)) { client in
                let answer = try await client.send(.get, "/v1/vendor-list/storage/755")
                #expect(answer.status == .badGateway)
                #expect(!String(buffer: answer.body).contains("INTERNAL-SECRET"))
                #expect(front.count == 1 && inside.count == 0, "the internal host was never asked")
            }
        }
    }

    @Test("m5: a failed fetch answers a plain 502 that says nothing of what the upstream answered")
    func m5FailureAnswerIsPlain() async throws {
        try await Self.redirecting { url, _, _ in
            try await Self.consentd(try Self.catalog(disclosureURL: url)) { client in
                let redirected = try await client.send(.get, "/v1/vendor-list/storage/755")
                #expect(redirected.status == .badGateway && redirected.errorCode == "storage_disclosure_unavailable")
                let message = try #require((redirected.object["error"] as? [String: Any])?["message"] as? String)
                for leak in ["302", "answered", "127.0.0.2", "Location"] { #expect(!message.contains(leak), "\(message)") }
            }
        }
        // A port nobody listens on: no resolver or connection error in the answer.
        try await Self.consentd(try Self.catalog(disclosureURL: "http://127.0.0.1:1/ds")) { client in
            let refused = try await client.send(.get, "/v1/vendor-list/storage/755")
            #expect(refused.status == .badGateway)
            let message = try #require((refused.object["error"] as? [String: Any])?["message"] as? String).lowercased()
            for leak in ["connect", "refused", "error", "127.0.0.1"] { #expect(!message.contains(leak), "\(message)") }
        }
    }

    @Test("m5: a failure is remembered for a while: the vendor's server is not asked again at each request")
    func m5FailureIsCachedBriefly() async throws {
        try await Self.redirecting { url, front, _ in
            try await Self.consentd(try Self.catalog(disclosureURL: url)) { client in
                for _ in 0..<3 {
                    let answer = try await client.send(.get, "/v1/vendor-list/storage/755")
                    #expect(answer.status == .badGateway)
                }
                #expect(front.count == 1)
            }
        }
    }

    @Test("m5: a disclosure larger than 256 KB is not served")
    func m5FetchIsCappedInSize() async throws {
        let large = #"{"disclosures":[],"padding":""# + String(repeating: "x", count: 300 * 1024) + #""}"#
        try await Self.vendorServer(on: "127.0.0.1", hits: Hits(), { Self.json(large) }) { port in
            try await Self.consentd(try Self.catalog(disclosureURL: "http://127.0.0.1:\(port)/ds")) { client in
                let answer = try await client.send(.get, "/v1/vendor-list/storage/755")
                #expect(answer.status == .badGateway)
            }
        }
    }

    @Test("m5: a vendor's server that stalls in the middle of its body is given up after 5 seconds")
    func m5FetchIsCappedInTime() async throws {
        try await Self.vendorServer(on: "127.0.0.1", hits: Hits(), {
            Response(status: .ok, headers: [.contentType: "application/json"], body: ResponseBody { writer in
                try await writer.write(ByteBuffer(string: #"{"disclosures":["#))
                try await Task.sleep(for: .seconds(30))
                try await writer.write(ByteBuffer(string: "]}"))
                try await writer.finish(nil)
            })
        }) { port in
            try await Self.consentd(try Self.catalog(disclosureURL: "http://127.0.0.1:\(port)/ds")) { client in
                let started = ContinuousClock.now
                let answer = try await client.send(.get, "/v1/vendor-list/storage/755")
                #expect(answer.status == .badGateway)
                let took = ContinuousClock.now - started
                // 5 seconds and whatever a loaded test machine adds; the stall itself lasts 30.
                #expect(took < .seconds(15), "\(took)")
            }
        }
    }

    @Test("m5: only public addresses are fetched: loopback, private, link-local and the like are not")
    func m5PrivateAddressesAreNotPublic() {
        for address in ["127.0.0.2", "10.1.2.3", "172.16.0.1", "192.168.1.1", "169.254.169.254", "100.64.0.1", "0.0.0.0", "224.0.0.1",
                        "::1", "::", "fe80::1", "fd00::1", "::ffff:127.0.0.1", "::ffff:10.0.0.1", "ff02::1", "not an address"] {
            #expect(!StorageDisclosures.isPublic(address), "\(address)")
        }
        for address in ["93.184.216.34", "8.8.8.8", "2606:2800:220:1::1", "::ffff:8.8.8.8"] {
            #expect(StorageDisclosures.isPublic(address), "\(address)")
        }
    }

    @Test("m5: an https host is checked after resolution: localhost and private literals are refused before any connection")
    func m5HostsAreCheckedAfterResolution() async throws {
        for url in ["https://localhost/ds.json", "https://127.0.0.2/ds.json", "https://[::1]/ds.json", "https://169.254.169.254/latest"] {
            await #expect(throws: StorageDisclosures.FetchError.self, "\(url)") {
                try await StorageDisclosures.target(try #require(URL(string: url)))
            }
        }
        #expect(try await StorageDisclosures.target(try #require(URL(string: "https://8.8.8.8/ds.json"))) == "8.8.8.8")
    }
}
