import HTTPTypes
import Hummingbird
import Logging

/// Turns every error into an `APIError`: Hummingbird's own (unknown route, body too large) get
/// their code, a ``ClientFault`` (a malformed, unfinished or slow body) its 4xx, logged at debug,
/// and anything else (a database that does not answer) becomes 503 `unavailable`, logged at error.
/// No input reaches the client as a 500, and no fault of the client's as a 5xx.
struct ErrorMiddleware: RouterMiddleware {
    typealias Context = ConsentdContext
    let logger: Logger

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as APIError {
            throw error
        } catch let fault as ClientFault {
            logger.debug("request not delivered", metadata: ["path": "\(request.uri.path)", "fault": "\(fault)"])
            throw fault.apiError
        } catch let error as HTTPResponseError {
            throw Self.apiError(for: error.status, request: request)
        } catch {
            logger.error("request failed", metadata: ["path": "\(request.uri.path)", "error": "\(String(reflecting: error))"])
            throw APIError(.serviceUnavailable, "unavailable", "the server could not complete the request; retry later")
        }
    }

    static func apiError(for status: HTTPResponse.Status, request: Request) -> APIError {
        switch status {
        case .notFound: .notFound("no route \(request.method) \(request.uri.path)")
        case .methodNotAllowed: APIError(.methodNotAllowed, "method_not_allowed", "\(request.method) is not allowed on \(request.uri.path)")
        case .contentTooLarge: APIError(.contentTooLarge, "payload_too_large", "the body is larger than the server accepts")
        case .badRequest: APIError(.badRequest, "invalid_request", "the request could not be read")
        default: APIError(status, "error", status.reasonPhrase)
        }
    }
}

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

/// Where the request being answered comes from.
enum RequestOrigin {
    /// The client's address (see ``clientAddress(_:_:header:)``), set by ``IPRateLimitMiddleware``
    /// for the rest of the request; nil outside a request.
    @TaskLocal static var address: String?
}

/// The client's address: the first entry of the trusted proxy's header when one is configured
/// and present, else the peer's address.
func clientAddress(_ request: Request, _ context: ConsentdContext, header: String?) -> String? {
    if let header, let name = HTTPField.Name(header), let value = request.headers[name],
       let first = value.split(separator: ",").first?.trimmingCharacters(in: .whitespaces), !first.isEmpty {
        return first
    }
    return context.remoteAddress
}
