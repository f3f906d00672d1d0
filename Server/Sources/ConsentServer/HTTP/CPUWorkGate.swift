import Foundation
import Synchronization

/// The CPU a node spends on requests that build something large from a few bytes: a web page
/// view's or choice's `TCData` and notice document, a demo notice; the console's password checks
/// (scrypt) go through a gate of their own (``RequestGuards/passwordWork``). Each costs up to a vendor
/// list's worth of work (tens of milliseconds), so a flood of them from several addresses, each
/// within its request rate, could take every thread that answers requests. The gate bounds it:
///
/// - at most ``limit`` such builds run at once (one fewer than the processors, at least one), so
///   a thread is always left for every other request (`/health`, `/v1/config`, appends);
/// - the others wait, and a free slot goes to the addresses in turn, not in arrival order, so an
///   address sending many at once waits behind itself while a visitor's one page view is served
///   after at most one build per address under way;
/// - one address may have at most ``perAddress`` builds running or waiting (past it `429
///   rate_limited`), and at most ``queueLimit`` wait in all (past it `503 server_busy`), both with
///   `Retry-After: 1`.
///
/// The client's address is the one ``IPRateLimitMiddleware`` found for the request
/// (``RequestOrigin/address``).
final class CPUWorkGate: Sendable {
    /// Builds running at once.
    let limit: Int
    /// Builds one address may have running or waiting.
    let perAddress: Int
    /// Builds waiting, over all addresses.
    let queueLimit: Int

    private struct State {
        var running = 0
        /// Builds running or waiting, per address.
        var held: [String: Int] = [:]
        /// Waiters per address, in arrival order.
        var waiting: [String: [CheckedContinuation<Void, Never>]] = [:]
        /// Addresses with waiters, in the order they are served.
        var turn: [String] = []
        var waitingCount = 0
    }

    private let state = Mutex(State())

    /// A gate of `limit` builds at once (nil: one fewer than the active processors, at least one).
    init(limit: Int? = nil, perAddress: Int = 4, queueLimit: Int = 256) {
        self.limit = max(1, limit ?? ProcessInfo.processInfo.activeProcessorCount - 1)
        self.perAddress = perAddress
        self.queueLimit = queueLimit
    }

    /// Builds running now.
    var running: Int { state.withLock { $0.running } }

    /// Runs `work` in a slot, waiting for one in the request's address's turn.
    func run<T>(_ work: () async throws -> T) async throws -> T {
        try await acquire(address: RequestOrigin.address ?? "unknown")
        defer { release(address: RequestOrigin.address ?? "unknown") }
        return try await work()
    }

    private enum Admission {
        case run, wait, tooMany, full
    }

    /// Takes a slot for `address`, waiting for its turn; refuses past the caps.
    func acquire(address: String) async throws(APIError) {
        let admission = state.withLock { state -> Admission in
            let held = state.held[address, default: 0]
            guard held < perAddress else { return .tooMany }
            if state.running < limit && state.waitingCount == 0 {
                state.running += 1
                state.held[address] = held + 1
                return .run
            }
            guard state.waitingCount < queueLimit else { return .full }
            state.held[address] = held + 1
            return .wait
        }
        switch admission {
        case .run:
            return
        case .tooMany:
            throw APIError(.tooManyRequests, "rate_limited",
                           "this address has \(perAddress) answers that need much CPU (page views, notices, password checks) under way; retry in 1 s", retryAfter: 1)
        case .full:
            throw APIError(.serviceUnavailable, "server_busy", "the server is building as many answers as it may queue; retry in 1 s", retryAfter: 1)
        case .wait:
            await withCheckedContinuation { continuation in
                let resumeNow = state.withLock { state -> Bool in
                    // A slot may have freed between the admission and now.
                    if state.running < limit && state.waitingCount == 0 {
                        state.running += 1
                        return true
                    }
                    if state.waiting[address] == nil { state.turn.append(address) }
                    state.waiting[address, default: []].append(continuation)
                    state.waitingCount += 1
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        }
    }

    /// Gives `address`'s slot back: to the next address in turn, or free.
    func release(address: String) {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            let held = state.held[address, default: 1] - 1
            state.held[address] = held > 0 ? held : nil
            guard !state.turn.isEmpty else {
                state.running -= 1
                return nil
            }
            // The slot passes to the next address in turn; running stays the same.
            let next = state.turn.removeFirst()
            var queue = state.waiting[next] ?? []
            let waiter = queue.removeFirst()
            state.waitingCount -= 1
            if queue.isEmpty {
                state.waiting[next] = nil
            } else {
                state.waiting[next] = queue
                state.turn.append(next)
            }
            return waiter
        }
        next?.resume()
    }
}
