import Hummingbird

/// Lets pages of any origin read the web CMP's answers (`/v1/web/`), errors included, and
/// answers their preflight requests: the credential a page sends is a publishable key or a
/// subject token, both meant to be seen by the page.
struct WebCORSMiddleware: RouterMiddleware {
    typealias Context = ConsentdContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard request.uri.path.hasPrefix("/v1/web/") else { return try await next(request, context) }
        if request.method == .options {
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
