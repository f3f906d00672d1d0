import ConsentKitFormats
import Foundation
import Hummingbird

/// The console's sign-in and access routes, under `/v1/console` (decision 0038): `POST /session`
/// (sign in), and behind the ``ConsoleSessionMiddleware`` `DELETE /session` (sign out), `GET /me`
/// and `GET /audit` (owner).
struct ConsoleController {
    let console: Console

    /// The largest sign-in body.
    static let bodyLimit = 4096

    /// The routes, under `/v1/console`.
    var endpoints: RouteCollection<ConsentdContext> {
        let routes = RouteCollection(context: ConsentdContext.self)
        routes.post("session", use: signIn)
        routes.group()
            .add(middleware: ConsoleSessionMiddleware(console: console))
            .delete("session", use: signOut)
            .get("me", use: me)
            .get("audit", use: audit)
        return routes
    }

    private struct SignInBody: Decodable {
        var email: String?
        var password: String?
        var token: String?
    }

    /// The operator and session as `POST /session` and `GET /me` answer them.
    private struct SessionAnswer: Encodable {
        struct Operator: Encodable {
            var id: String
            var email: String
            var role: String
        }

        var `operator`: Operator
        var csrfToken: String
        var expiresAt: String
    }

    /// `POST /v1/console/session`: `{email, password}`, or `{token, password}` (and `email` for the
    /// first operator's link). Sets the session cookie.
    @Sendable func signIn(_ request: Request, context: ConsentdContext) async throws -> Response {
        try ConsoleSessionMiddleware.requireOwnOrigin(request)
        var request = request
        let data = try await request.jsonBody(limit: Self.bodyLimit)
        guard let body = try? JSONDecoder().decode(SignInBody.self, from: data) else {
            throw APIError.badRequest("the body must be a JSON object with string fields email, password and token")
        }
        guard let password = body.password, !password.isEmpty else {
            throw APIError(.badRequest, "missing_field", "password is required", field: "password")
        }
        guard password.utf8.count <= PasswordHash.maximumBytes else {
            throw APIError(.badRequest, "invalid_field", "password may have at most \(PasswordHash.maximumBytes) bytes", field: "password")
        }
        let address = RequestOrigin.address ?? "unknown"
        // A session the request's cookie names (another's, or planted) is never promoted: it ends.
        if let planted = request.cookies[Console.cookieName]?.value, planted.utf8.count <= 64 {
            try await console.sessions.delete(hash: sha256Hex(planted))
        }
        let signedIn: Console.SignedIn
        if let token = body.token {
            guard token.utf8.count <= 64 else { throw APIError(.badRequest, "invalid_field", "token is not a one-time link's token", field: "token") }
            signedIn = try await console.signIn(token: token, email: body.email, password: password, address: address)
        } else {
            guard let email = body.email, !email.isEmpty, email.utf8.count <= 254 else {
                throw APIError(.badRequest, "missing_field", "email is required (or token, for a one-time link)", field: "email")
            }
            signedIn = try await console.signIn(email: email, password: password, address: address)
        }
        var response = try jsonResponse(SessionAnswer(
            operator: .init(id: signedIn.account.operatorId, email: signedIn.account.email, role: signedIn.account.role.rawValue),
            csrfToken: signedIn.csrfToken, expiresAt: ISO8601.format(signedIn.expiresAt)))
        response.headers[.setCookie] = Self.cookie(signedIn.sessionId, maxAge: Int(ConsoleSessions.lifetime))
        return response
    }

    /// `DELETE /v1/console/session`: ends the session and clears the cookie.
    @Sendable func signOut(_ request: Request, context: ConsentdContext) async throws -> Response {
        let session = try context.requireConsoleSession()
        try await console.signOut(session, address: RequestOrigin.address ?? "unknown")
        return Response(status: .noContent, headers: [.setCookie: Self.cookie("", maxAge: 0)])
    }

    /// `GET /v1/console/me`: who is signed in, and the CSRF token.
    @Sendable func me(_ request: Request, context: ConsentdContext) async throws -> Response {
        let session = try context.requireConsoleSession()
        return try jsonResponse(SessionAnswer(
            operator: .init(id: session.operatorId, email: session.email, role: session.role.rawValue), csrfToken: session.csrfToken,
            expiresAt: ISO8601.format(session.createdAt.addingTimeInterval(ConsoleSessions.lifetime))))
    }

    /// `GET /v1/console/audit?limit=50&before=ID`: the audit log, newest first, a page at a time.
    @Sendable func audit(_ request: Request, context: ConsentdContext) async throws -> Response {
        struct Page: Encodable {
            var entries: [AuditEntry]
            /// What `before` gets for the next page; nil on the last.
            var next: String?
        }
        let limit: Int
        if let text = request.query("limit") {
            guard let value = Int(text), (1...500).contains(value) else {
                throw APIError(.badRequest, "invalid_field", "limit must be 1 to 500", field: "limit")
            }
            limit = value
        } else {
            limit = 50
        }
        let before = request.query("before")
        if let before, before.utf8.count > 64 {
            throw APIError(.badRequest, "invalid_field", "before must be an entry id from a previous page", field: "before")
        }
        let entries = try await console.audit.page(limit: limit + 1, before: before)
        let page = Array(entries.prefix(limit))
        return try jsonResponse(Page(entries: page, next: entries.count > limit ? page.last?.id : nil))
    }

    /// The session cookie: `HttpOnly; Secure; SameSite=Strict; Path=/v1/console`.
    static func cookie(_ value: String, maxAge: Int) -> String {
        "\(Console.cookieName)=\(value); Max-Age=\(maxAge); Path=/v1/console; HttpOnly; Secure; SameSite=Strict"
    }
}

extension ConsentdContext {
    /// The console session ``ConsoleSessionMiddleware`` found; 401 on a route without it.
    func requireConsoleSession() throws(APIError) -> ConsoleSession {
        guard let consoleSession else { throw APIError.unauthorized }
        return consoleSession
    }
}
