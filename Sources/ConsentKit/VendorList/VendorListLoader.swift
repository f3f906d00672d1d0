import Foundation
import TCF
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Keeps the app's vendor list: the last good download on disk, the bundled snapshot before there
/// is one, and a refresh from the network that never replaces a good copy with a broken one.
///
/// Two halves, so the start path never waits for the network:
/// - ``loadLocal()`` and ``cached()`` are synchronous and make no request. The first call reads
///   and decodes the stored copy (and the snapshot, to use whichever is newer); later calls
///   return the list held in memory.
/// - ``refresh()`` runs on this actor, never on the main thread. It skips the network while the
///   held copy is fresh (`Cache-Control: max-age`), revalidates with `If-None-Match`, and checks a
///   download with the `TCF` decoder before it replaces anything. Concurrent calls share one
///   request.
///
/// One loader per cache directory: two loaders writing the same folder do not corrupt it (every
/// write is a rename) but may each download.
///
/// Why an actor with a lock inside (the SDK's one such type): the actor's isolation makes
/// joining the refresh under way atomic with starting one (``refresh()`` has no suspension
/// between the two), and the held list is behind a `Locked` because ``loadLocal()`` and
/// ``cached()`` are synchronous, called from any thread on the start path, where an actor's
/// state cannot be read.
public actor VendorListLoader {
    /// Where the list comes from and is kept.
    public nonisolated let source: VendorListSource
    /// The file the last good copy is kept in.
    public nonisolated var cacheFile: URL { source.cacheDirectory.appendingPathComponent(StoredVendorList.fileName) }

    private let transport: any HTTPTransport
    private let clock: @Sendable () -> Date
    private let state = Locked(State())
    private var inFlight: Task<VendorListRefresh, Never>?

    /// The held list with the validators of its download (nil for the snapshot).
    private struct Held {
        var list: VendorList
        var origin: LocalVendorList.Origin
        var header: StoredVendorList.Header?
    }

    private struct State {
        var loaded = false
        var held: Held?
        var problems: [VendorListLoadingError] = []
    }

    /// A loader for `source` that sends its requests through `transport` and reads the time from
    /// `clock` (for freshness).
    public init(
        source: VendorListSource, transport: any HTTPTransport = URLSessionHTTPTransport(),
        clock: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.source = source
        self.transport = transport
        self.clock = clock
    }

    /// The list held now, without the network: the stored copy or the bundled snapshot (the newer
    /// of the two when both are usable), or the latest download. The first call reads the disk;
    /// later ones return what is held.
    public nonisolated func loadLocal() -> LocalVendorList {
        state.withLock { state in
            loadIfNeeded(&state)
            return LocalVendorList(vendorList: state.held?.list, origin: state.held?.origin, problems: state.problems)
        }
    }

    /// The list held now, without the network; nil when there is none (see ``loadLocal()`` for why).
    public nonisolated func cached() -> VendorList? {
        loadLocal().vendorList
    }

    /// Whether the held list is due for a refresh, without the network: the `max-age` of its
    /// last download or revalidation has passed at the loader's clock, it came from another
    /// ``VendorListSource/url``, or it carries no validators (the bundled snapshot, or nothing).
    /// While it is false ``refresh()`` makes no request.
    public nonisolated func isStale() -> Bool {
        let now = clock()
        return state.withLock { state in
            loadIfNeeded(&state)
            guard let header = state.held?.header, header.url == source.url else { return true }
            return !CacheControl.isFresh(validatedAt: header.validatedAt, maxAge: header.maxAge, now: now)
        }
    }

    /// Brings the held list up to date with the source, if it is stale.
    ///
    /// Never throws and never loses the held copy: a failure is returned as
    /// ``VendorListRefresh/failed(_:)`` and the list held before stays. While one refresh is under
    /// way, further calls wait for it and get its result.
    public func refresh() async -> VendorListRefresh {
        if let inFlight { return await inFlight.value }
        let task = Task { await self.fetch() }
        inFlight = task
        let result = await task.value
        inFlight = nil
        return result
    }

    private func fetch() async -> VendorListRefresh {
        let held = state.withLock { state in
            loadIfNeeded(&state)
            return state.held
        }
        let url = source.url
        let now = clock()
        let validators = held?.header.flatMap { $0.url == url ? $0 : nil }
        if let held, let validators,
           CacheControl.isFresh(validatedAt: validators.validatedAt, maxAge: validators.maxAge, now: now) {
            return .fresh(VendorListVersion(of: held.list))
        }
        var request = TransportRequest(url: url, headers: source.headers, timeout: source.timeout)
        if let etag = validators?.etag { request.headers["If-None-Match"] = etag }
        let response: TransportResponse
        do {
            response = try await transport.send(request)
        } catch {
            return .failed(transportError(error))
        }
        let cacheControl = CacheControl(header: response.header("Cache-Control"))
        switch response.status {
        case 304:
            guard let held, let validators, validators.etag != nil else { return .failed(.unexpectedNotModified(url: url)) }
            return revalidated(held, validators, response: response, cacheControl: cacheControl, now: now)
        case 200..<300:
            return received(response.body, etag: response.header("ETag"), cacheControl: cacheControl, replacing: held, now: now)
        default:
            return .failed(.httpStatus(url: url, status: response.status, body: Self.excerpt(response.body)))
        }
    }

    /// A 304: the held copy is fresh again, on disk too when it came from there.
    private func revalidated(
        _ held: Held, _ validators: StoredVendorList.Header, response: TransportResponse, cacheControl: CacheControl, now: Date
    ) -> VendorListRefresh {
        var header = validators
        header.validatedAt = now
        header.maxAge = cacheControl.maxAge
        if let etag = response.header("ETag") { header.etag = etag }
        if case .stored = held.origin, !cacheControl.noStore {
            do {
                _ = try StoredVendorList.updateHeader(of: cacheFile, expected: validators, to: header)
            } catch {
                state.withLock { $0.problems = [error] }
            }
        }
        state.withLock { $0.held?.header = header }
        return .notModified(VendorListVersion(of: held.list))
    }

    /// A 2xx: decode, refuse an older list, then store and hold it.
    private func received(
        _ body: Data, etag: String?, cacheControl: CacheControl, replacing held: Held?, now: Date
    ) -> VendorListRefresh {
        let url = source.url
        if body.starts(with: [0x1F, 0x8B]) { return .failed(.compressedBody(url: url)) }
        let list: VendorList
        do {
            list = try VendorList(jsonData: body)
        } catch {
            return .failed(.invalidVendorList(url: url, error))
        }
        let offered = VendorListVersion(of: list)
        if let held, offered < VendorListVersion(of: held.list) {
            return .failed(.olderThanHeld(url: url, offered: offered, held: VendorListVersion(of: held.list)))
        }
        let header = StoredVendorList.Header(
            url: url, etag: cacheControl.noStore ? nil : etag, validatedAt: now, maxAge: cacheControl.maxAge,
            gvlSpecificationVersion: offered.gvlSpecificationVersion, vendorListVersion: offered.vendorListVersion,
            byteCount: body.count)
        if cacheControl.noStore {
            state.withLock { $0.held = Held(list: list, origin: .downloaded(url), header: header) }
            return .updated(offered)
        }
        do {
            try StoredVendorList.write(header: header, body: body, to: cacheFile)
        } catch {
            state.withLock { state in
                state.held = Held(list: list, origin: .downloaded(url), header: header)
                state.problems = [error]
            }
            return .failed(error)
        }
        state.withLock { state in
            state.held = Held(list: list, origin: .stored(cacheFile), header: header)
            state.problems = []
        }
        return .updated(offered)
    }

    /// Reads the stored copy and the snapshot once, keeping the newer usable one.
    private nonisolated func loadIfNeeded(_ state: inout State) {
        guard !state.loaded else { return }
        state.loaded = true
        var problems: [VendorListLoadingError] = []
        var candidates: [Held] = []
        do {
            if let (header, list) = try StoredVendorList.read(from: cacheFile) {
                candidates.append(Held(list: list, origin: .stored(cacheFile), header: header))
            }
        } catch {
            problems.append(error)
        }
        if let snapshot = source.bundledSnapshot {
            do {
                candidates.append(Held(list: try Self.readSnapshot(snapshot), origin: .bundledSnapshot(snapshot), header: nil))
            } catch {
                problems.append(error)
            }
        }
        // The stored copy wins a tie: it carries the validators and may be trimmed or translated.
        state.held = candidates.reduce(nil) { best, next in
            guard let best else { return next }
            return VendorListVersion(of: next.list) > VendorListVersion(of: best.list) ? next : best
        }
        if state.held == nil {
            problems.append(.noLocalCopy(cacheFile: cacheFile, snapshot: source.bundledSnapshot))
        }
        state.problems = problems
    }

    private static func readSnapshot(_ file: URL) throws(VendorListLoadingError) -> VendorList {
        let data: Data
        do {
            data = try Data(contentsOf: file)
        } catch {
            throw .unreadableSnapshot(file: file, reason: error.localizedDescription)
        }
        do {
            return try VendorList(jsonData: data)
        } catch {
            throw .unreadableSnapshot(file: file, reason: "\(error)")
        }
    }

    private func transportError(_ error: any Error) -> VendorListLoadingError {
        if let error = error as? URLError, error.code == .timedOut {
            return .timedOut(url: source.url, seconds: source.timeout)
        }
        let nsError = error as NSError
        return .transport(url: source.url, message: "\(nsError.localizedDescription) (\(nsError.domain) \(nsError.code))")
    }

    /// The first 300 characters of a body, on one line, for an error message.
    private static func excerpt(_ body: Data) -> String {
        let text = String(decoding: body.prefix(300), as: UTF8.self)
            .split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
        return body.count > 300 ? text + "…" : text
    }
}

/// The loader as the manager's vendor list source.
extension VendorListLoader: VendorListLoading {
    /// The list held locally (``loadLocal()``).
    public func localVendorList() async -> VendorList? {
        cached()
    }

    /// Refreshes (``refresh()``) and returns the list held afterwards; throws the refresh's
    /// error when it failed, the held list staying.
    public func refreshVendorList() async throws -> VendorList? {
        if case .failed(let error) = await refresh() { throw error }
        return cached()
    }

    /// Whether the held list's `max-age` has passed (``isStale()``).
    public func vendorListIsStale() async -> Bool {
        isStale()
    }
}
