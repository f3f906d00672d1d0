import Hummingbird

/// Answers `HEAD` on every `GET` route (RFC 9110 §9.3.2): the request runs as `GET`, so the
/// response keeps the route's status and headers, `Content-Length` included, and NIO's encoder,
/// which knows the request was `HEAD`, leaves the body out. It wraps the whole router because
/// Hummingbird picks the route before any middleware runs. `/metrics` counts such a request as
/// `GET`.
struct HeadResponder<Wrapped: HTTPResponder>: HTTPResponder {
    typealias Context = Wrapped.Context
    private let wrapped: Wrapped

    init(_ wrapped: Wrapped) {
        self.wrapped = wrapped
    }

    func respond(to request: Request, context: Context) async throws -> Response {
        guard request.method == .head else { return try await wrapped.respond(to: request, context: context) }
        var head = request.head
        head.method = .get
        return try await wrapped.respond(to: Request(head: head, body: request.body), context: context)
    }
}
