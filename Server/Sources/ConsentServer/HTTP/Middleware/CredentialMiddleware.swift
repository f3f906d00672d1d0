import Hummingbird

/// Lets a request through to the routes of its group only with a bearer credential of a kind
/// they allow (checked, rate-limited and its subject not erased, by the ``Authenticator``), and
/// puts who it speaks for in the context (``ConsentdContext/principal``). Made by
/// ``Authenticator/require(_:to:)``.
struct CredentialMiddleware: RouterMiddleware {
    typealias Context = ConsentdContext
    let authenticator: Authenticator
    /// The credential kinds the routes allow.
    let allowed: Set<CredentialKind>
    /// What the routes do, for the refusal of another kind ("a publishable key may not …").
    let action: String

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        context.principal = try await authenticator.authenticate(request, allowing: allowed, action: action)
        return try await next(request, context)
    }
}
