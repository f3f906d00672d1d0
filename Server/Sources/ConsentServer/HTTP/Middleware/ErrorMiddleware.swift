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
