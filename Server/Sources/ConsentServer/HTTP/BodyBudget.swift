import Hummingbird
import Synchronization

/// The request bodies all requests together may hold in memory at once
/// (``ServerSettings/bodyMemoryLimit``): a route reserves a body's size before collecting it
/// (`Request.jsonBody(limit:alsoAsText:)`, the one place bodies are read), and the reservation
/// lasts until the request's answer is made (``BodyBudgetMiddleware``). A request that finds the
/// budget spent is answered 503 `server_busy` with `Retry-After`, so many large bodies at once
/// cannot take the node's memory.
final class BodyBudget: Sendable {
    /// The bytes all requests may hold.
    let limit: Int
    private let held = Mutex(0)

    /// A budget of `limit` bytes.
    init(limit: Int) {
        self.limit = limit
    }

    /// Bytes reserved now.
    var reserved: Int { held.withLock { $0 } }

    fileprivate func reserve(_ bytes: Int) -> Bool {
        held.withLock { held in
            guard held + bytes <= limit else { return false }
            held += bytes
            return true
        }
    }

    fileprivate func release(_ bytes: Int) {
        held.withLock { $0 -= bytes }
    }
}

/// One request's share of the ``BodyBudget``, released when the request is answered.
final class BodyReservation: Sendable {
    /// The reservation of the request under way; nil outside a request behind
    /// ``BodyBudgetMiddleware``.
    @TaskLocal static var current: BodyReservation?

    private let budget: BodyBudget
    private let bytes = Mutex(0)

    init(budget: BodyBudget) {
        self.budget = budget
    }

    /// Reserves `count` more bytes (at most the whole budget) or refuses with 503 `server_busy`.
    func take(_ count: Int) throws(APIError) {
        let count = min(count, budget.limit)
        guard budget.reserve(count) else {
            throw APIError(.serviceUnavailable, "server_busy",
                           "the server holds as many request bodies as it may at once; retry in 1 s", retryAfter: 1)
        }
        bytes.withLock { $0 += count }
    }

    /// Gives back everything this request reserved.
    func releaseAll() {
        budget.release(bytes.withLock { bytes in
            defer { bytes = 0 }
            return bytes
        })
    }
}
