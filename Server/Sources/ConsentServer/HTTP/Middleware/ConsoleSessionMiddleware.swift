import HTTPTypes
import Hummingbird

/// Lets a request through to the console's signed-in routes only with a live session (401
/// otherwise), for a state-changing method only from consentd's own origin and with the session's
/// CSRF token (403 `csrf_refused`), and only for a role ``ConsoleAccess`` allows (403). Puts the
/// session in the context (``ConsentdContext/consoleSession``).
struct ConsoleSessionMiddleware: RouterMiddleware {
    typealias Context = ConsentdContext
    let console: Console

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let id = request.cookies[Console.cookieName]?.value, !id.isEmpty, id.utf8.count <= 64,
              let session = try await console.session(id: id) else {
            throw APIError(.unauthorized, "unauthorized", "sign in first: POST /v1/console/session")
        }
        if Self.changesState(request.method) {
            try Self.requireOwnOrigin(request)
            guard let sent = request.headers[HTTPField.Name(Console.csrfHeader)!], constantTimeEqual(sent, session.csrfToken) else {
                throw APIError(.forbidden, "csrf_refused", "send the session's CSRF token (GET /v1/console/me) in \(Console.csrfHeader)")
            }
        }
        let path = context.endpointPath ?? request.uri.path
        guard ConsoleAccess.allows(session.role, request.method, path) else {
            throw APIError.forbidden("the role \(session.role.rawValue) may not \(request.method) \(path)")
        }
        var context = context
        context.consoleSession = session
        return try await next(request, context)
    }

    /// POST, PUT, PATCH and DELETE: the methods that need the CSRF token.
    static func changesState(_ method: HTTPRequest.Method) -> Bool {
        [.post, .put, .patch, .delete].contains(method)
    }

    /// Refuses a request whose `Origin` is sent and is not consentd's own (its host and port are
    /// not the request's `Host`); `Origin: null` too. A request without `Origin` passes (no browser
    /// omits it on a cross-origin POST, PUT, PATCH or DELETE).
    static func requireOwnOrigin(_ request: Request) throws(APIError) {
        guard let origin = request.headers[.origin] else { return }
        let refusal = APIError(.forbidden, "csrf_refused", "the console answers state-changing requests from its own origin only")
        guard let separator = origin.range(of: "://"), let host = request.head.authority?.lowercased() else { throw refusal }
        let originHost = origin[separator.upperBound...].lowercased()
        let scheme = origin[..<separator.lowerBound].lowercased()
        let defaultPort = scheme == "https" ? ":443" : scheme == "http" ? ":80" : nil
        guard originHost == host || (defaultPort.map { originHost + $0 == host || originHost == host + $0 } ?? false) else { throw refusal }
    }
}
