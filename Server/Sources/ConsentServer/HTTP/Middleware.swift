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

/// Refuses a client IP that exceeds its request rate on `/v1` routes with 429 and `Retry-After`.
struct IPRateLimitMiddleware: RouterMiddleware {
    typealias Context = ConsentdContext
    let limiter: RateLimiter
    let clientIPHeader: String?

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if request.uri.path.hasPrefix("/v1/"),
           let wait = limiter.take("ip:" + (clientAddress(request, context, header: clientIPHeader) ?? "unknown")) {
            throw APIError(.tooManyRequests, "rate_limited", "too many requests from this address; retry in \(wait) s", retryAfter: wait)
        }
        return try await next(request, context)
    }
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
