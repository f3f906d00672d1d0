import AsyncHTTPClient
import Foundation
import NIOCore
import NIOPosix
import Synchronization

/// Vendors' device storage disclosures (the JSON a GVL vendor names in
/// `deviceStorageDisclosureUrl`: cookies and other storage it uses, with their lifetimes),
/// fetched for the notice so that a page or an app never calls a vendor's server itself.
///
/// The fetch sends no cookie or credential. A disclosure is kept for its `Cache-Control: max-age`,
/// else a day (the IAB's "Vendor Device Storage & Operational Disclosures" asks CMPs to refresh
/// at least daily), and the last good copy is served while the vendor's server fails.
///
/// The vendor list is not trusted to name only vendors' servers, so a fetch is bounded:
/// - only `https` URLs (`http` to a loopback address too, for local setups and tests:
///   ``fetchable(_:)``), whose host resolves to public addresses only (``isPublic(_:)``); the
///   connection goes to the address checked, so a second resolution cannot point elsewhere;
/// - no redirect is followed (a `3xx` is a failure);
/// - at most ``maxBytes`` (256 KB) in at most 5 seconds, and only a JSON object with a
///   `disclosures` array;
/// - a failure is remembered for ``failureLifetime`` (5 minutes): the vendor is not asked again
///   meanwhile, and the caller learns only that the disclosure is unavailable (no upstream
///   status or resolver error, which would tell what a URL reached).
final class StorageDisclosures: Sendable {
    private struct Held: Sendable {
        var document: ServedDocument?
        var expires: Date
        /// Set while a failure is remembered: no fetch before then.
        var failedUntil: Date?
    }

    private let catalog: VendorListCatalog
    private let held = Mutex<[String: Held]>([:])
    private let timeout: Duration
    /// The largest disclosure fetched.
    static let maxBytes = 256 << 10
    /// How long a disclosure is kept without a `max-age`, and at most.
    static let defaultLifetime: TimeInterval = 86_400
    /// How long a failed fetch is remembered before the vendor is asked again.
    static let failureLifetime: TimeInterval = 300

    init(catalog: VendorListCatalog, timeout: Duration = .seconds(5)) {
        self.catalog = catalog
        self.timeout = timeout
    }

    /// Why a disclosure cannot be served.
    enum Failure: Error, Equatable {
        /// The list has no such vendor, or it declares no disclosure.
        case missing(String)
        /// The vendor's server did not give a usable disclosure and none is held.
        case unavailable(String)
    }

    /// The disclosure of vendor `id` of the list held now.
    func disclosure(vendorId id: Int, now: Date = Date()) async throws(Failure) -> ServedDocument {
        guard let vendor = catalog.vendorList.vendors[id], !vendor.isDeleted(at: now) else {
            throw .missing("the vendor list has no vendor \(id)")
        }
        guard let address = vendor.deviceStorageDisclosureUrl else { throw .missing("vendor \(id) declares no device storage disclosure") }
        guard let url = URL(string: address), Self.fetchable(url) else {
            throw .missing("vendor \(id)'s disclosure URL is not https: \(address)")
        }
        let unavailable = Failure.unavailable("vendor \(id)'s storage disclosure cannot be fetched right now; try again later")
        let cached = held.withLock { $0[address] }
        if let cached {
            if cached.expires > now, let document = cached.document { return document }
            if let failedUntil = cached.failedUntil, failedUntil > now {
                if let document = cached.document { return document }
                throw unavailable
            }
        }
        do {
            let (document, lifetime) = try await fetch(url)
            held.withLock { $0[address] = Held(document: document, expires: now.addingTimeInterval(lifetime)) }
            return document
        } catch {
            held.withLock {
                $0[address] = Held(document: cached?.document, expires: cached?.expires ?? now,
                                   failedUntil: now.addingTimeInterval(Self.failureLifetime))
            }
            if let document = cached?.document { return document }
            throw unavailable
        }
    }

    /// Whether a disclosure URL may be fetched at all: `https`, or `http` to the loopback address
    /// (for local setups and tests).
    static func fetchable(_ url: URL) -> Bool {
        switch url.scheme?.lowercased() {
        case "https": return url.host != nil
        case "http": return loopbackHosts.contains(url.host ?? "")
        default: return false
        }
    }

    private static let loopbackHosts: Set = ["127.0.0.1", "localhost", "::1", "[::1]"]

    /// Whether `address` (an IPv4 or IPv6 address in text) is a public unicast address: not
    /// unspecified, loopback, private (RFC 1918, unique local), shared (100.64/10), link-local,
    /// benchmarking, multicast or reserved. IPv4-mapped IPv6 addresses are judged as IPv4.
    static func isPublic(_ address: String) -> Bool {
        var v4 = in_addr()
        if inet_pton(AF_INET, address, &v4) == 1 {
            let value = UInt32(bigEndian: v4.s_addr)
            return isPublicIPv4(value)
        }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, address, &v6) == 1 else { return false }
        let bytes = withUnsafeBytes(of: &v6) { Array($0) }
        if bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xFF && bytes[11] == 0xFF {
            return isPublicIPv4(bytes[12...].reduce(0) { $0 << 8 | UInt32($1) })
        }
        if bytes[0..<15].allSatisfy({ $0 == 0 }) { return false }  // :: and ::1
        if bytes[0] & 0xFE == 0xFC { return false }  // fc00::/7, unique local
        if bytes[0] == 0xFE && bytes[1] & 0xC0 == 0x80 { return false }  // fe80::/10, link-local
        if bytes[0] == 0xFE && bytes[1] & 0xC0 == 0xC0 { return false }  // fec0::/10, site-local (deprecated)
        if bytes[0] == 0xFF { return false }  // multicast
        if bytes[0..<12] == [0x00, 0x64, 0xFF, 0x9B, 0, 0, 0, 0, 0, 0, 0, 0] {  // 64:ff9b::/96, NAT64 of IPv4
            return isPublicIPv4(bytes[12...].reduce(0) { $0 << 8 | UInt32($1) })
        }
        return true
    }

    private static func isPublicIPv4(_ value: UInt32) -> Bool {
        let blocked: [(UInt32, Int)] = [
            (0x0000_0000, 8), (0x0A00_0000, 8), (0x6440_0000, 10), (0x7F00_0000, 8), (0xA9FE_0000, 16), (0xAC10_0000, 12),
            (0xC000_0000, 24), (0xC000_0200, 24), (0xC0A8_0000, 16), (0xC612_0000, 15), (0xC633_6400, 24), (0xCB00_7100, 24),
            (0xE000_0000, 4), (0xF000_0000, 4),
        ]
        return !blocked.contains { network, bits in value >> (32 - bits) == network >> (32 - bits) }
    }

    /// The addresses `host` resolves to, as text.
    private static func resolve(_ host: String) async throws -> [String] {
        try await NIOThreadPool.singleton.runIfActive {
            var hints = addrinfo()
            #if canImport(Glibc)
            hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
            #else
            hints.ai_socktype = SOCK_STREAM
            #endif
            var list: UnsafeMutablePointer<addrinfo>?
            guard getaddrinfo(host, nil, &hints, &list) == 0, let first = list else { throw FetchError.unresolved }
            defer { freeaddrinfo(first) }
            var addresses: [String] = []
            var entry: UnsafeMutablePointer<addrinfo>? = first
            while let current = entry {
                var text = [CChar](repeating: 0, count: Int(NI_MAXHOST))
                if getnameinfo(current.pointee.ai_addr, current.pointee.ai_addrlen, &text, socklen_t(text.count), nil, 0, NI_NUMERICHOST) == 0 {
                    addresses.append(String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
                }
                entry = current.pointee.ai_next
            }
            return addresses
        }
    }

    /// Why a fetch failed: kept to the fetch, never shown to the caller.
    enum FetchError: Error {
        case unresolved, notPublic, status, notADisclosure, timedOut
    }

    /// The address to connect to for `url`: the loopback URLs ``fetchable(_:)`` allows as they
    /// are, any other host only when every address it resolves to is public (the first is used).
    static func target(_ url: URL) async throws -> String? {
        guard let host = url.host else { throw FetchError.unresolved }
        if url.scheme?.lowercased() == "http" { return nil }
        let bare = host.hasPrefix("[") ? String(host.dropFirst().dropLast()) : host
        let addresses = try await resolve(bare)
        guard let first = addresses.first, addresses.allSatisfy(isPublic) else { throw FetchError.notPublic }
        return first
    }

    /// One fetch, answered by its deadline whatever the vendor's server does: past it the
    /// request is cancelled and left to end on its own.
    private func fetch(_ url: URL) async throws -> (ServedDocument, TimeInterval) {
        let timeout = self.timeout
        let answered = Answered()
        return try await withCheckedThrowingContinuation { continuation in
            let work = Task {
                do {
                    let answer = try await Self.fetchOnce(url, timeout: timeout)
                    if answered.claim() { continuation.resume(returning: answer) }
                } catch {
                    if answered.claim() { continuation.resume(throwing: error) }
                }
            }
            Task {
                try? await Task.sleep(for: timeout)
                if answered.claim() { continuation.resume(throwing: FetchError.timedOut) }
                work.cancel()
            }
        }
    }

    /// Whether a fetch was answered (by its result or its deadline): the first to claim it answers.
    private final class Answered: Sendable {
        private let done = Mutex(false)

        func claim() -> Bool {
            done.withLock { done in
                defer { done = true }
                return !done
            }
        }
    }

    /// One request, to the checked address, through a client of its own that follows no redirect.
    private static func fetchOnce(_ url: URL, timeout: Duration) async throws -> (ServedDocument, TimeInterval) {
        var configuration = HTTPClient.Configuration()
        configuration.redirectConfiguration = .disallow
        configuration.timeout = .init(connect: .init(timeout), read: .init(timeout))
        if let address = try await target(url), let host = url.host {
            configuration.dnsOverride = [host: address]
        }
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        do {
            let answer = try await request(url, client: client, timeout: timeout)
            try await client.shutdown()
            return answer
        } catch {
            try? await client.shutdown()
            throw error
        }
    }

    private static func request(_ url: URL, client: HTTPClient, timeout: Duration) async throws -> (ServedDocument, TimeInterval) {
        var request = HTTPClientRequest(url: url.absoluteString)
        request.headers.add(name: "Accept", value: "application/json")
        let response = try await client.execute(request, timeout: .init(timeout))
        guard response.status == .ok else { throw FetchError.status }
        let body = Data(try await response.body.collect(upTo: maxBytes).readableBytesView)
        guard let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any], object["disclosures"] is [Any] else {
            throw FetchError.notADisclosure
        }
        var lifetime = defaultLifetime
        if let control = response.headers.first(name: "Cache-Control")?.lowercased(),
           let range = control.range(of: #"max-age=\d+"#, options: .regularExpression),
           let seconds = TimeInterval(control[range].dropFirst("max-age=".count)) {
            lifetime = min(seconds, defaultLifetime)
        }
        return (ServedDocument(body: body), lifetime)
    }
}
