import Hummingbird

/// Refuses a client address that exceeds its request rate with 429 and `Retry-After`, on every
/// route of every listener (`/health` and `/metrics` too: a prober asks a few times a second from
/// its own address, which no flood from another address touches, and an exempt `/health` would
/// be an unlimited pair of database queries). It also makes the client's address known to what
/// the request runs (``RequestOrigin/address``), for the limits per (key, address) and on new
/// subjects.
struct IPRateLimitMiddleware: RouterMiddleware {
    typealias Context = ConsentdContext
    let limiter: RateLimiter
    let clientIPHeader: String?

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let address = clientAddress(request, context, header: clientIPHeader) ?? "unknown"
        if let wait = limiter.take("ip:" + address) {
            throw APIError(.tooManyRequests, "rate_limited", "too many requests from this address; retry in \(wait) s", retryAfter: wait)
        }
        return try await RequestOrigin.$address.withValue(address) { try await next(request, context) }
    }
}
