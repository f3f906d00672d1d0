import Hummingbird

/// Which of consentd's answers pages of other origins may read, as one rule over routes (a new
/// route falls under it by its path and method, not by remembering a header):
///
/// - the web CMP's answers (`/v1/web/`, any method), errors included, and their preflight
///   requests: the credential a page sends is a publishable key or a subject token, both meant to
///   be seen by the page;
/// - every `GET` and `HEAD` of the API (`/v1/`), such as the vendor list a publisher page's
///   `__tcfapi('getVendorList')` reads: consentd trusts no ambient credential there (no cookie, no
///   client address), so what a page can read by a simple request is what anyone can fetch, and a
///   read that needs a key sends a header that only a preflight would allow, which only `/v1/web/`
///   answers.
///
/// The console (`/v1/console/`) is left out: it is the one place consentd trusts an ambient
/// credential, its session cookie (decision 0038), so no other origin may read its answers.
struct WebCORSMiddleware: RouterMiddleware {
    typealias Context = ConsentdContext

    /// Whether a page of any origin may read the answer to `request`.
    static func isReadableByAnyOrigin(_ request: Request) -> Bool {
        let path = request.uri.path
        if path.hasPrefix("/v1/web/") { return true }
        if path.hasPrefix("/v1/console/") { return false }
        return path.hasPrefix("/v1/") && (request.method == .get || request.method == .head)
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard Self.isReadableByAnyOrigin(request) else {
            return try await next(request, context)
        }
        if request.method == .options {  // only /v1/web/ gets here with OPTIONS
            return Response(status: .noContent, headers: [
                .accessControlAllowOrigin: "*", .accessControlAllowMethods: "POST", .accessControlAllowHeaders: "Content-Type",
                .accessControlMaxAge: "86400",
            ])
        }
        do {
            var response = try await next(request, context)
            response.headers[.accessControlAllowOrigin] = "*"
            return response
        } catch let error as APIError {
            var response = try error.response(from: request, context: context)
            response.headers[.accessControlAllowOrigin] = "*"
            return response
        }
    }
}
