import Hummingbird
import NIOCore

/// The request context of consentd's routes: Hummingbird's core context, the client's address and who
/// the request speaks for.
public struct ConsentdContext: RequestContext {
    /// Hummingbird's per-request storage.
    public var coreContext: CoreRequestContextStorage
    /// The peer's IP address, for per-IP rate limits and the CIDR table.
    public let remoteAddress: String?
    /// Who the request speaks for, set by ``CredentialMiddleware`` on the routes that take a
    /// bearer credential; nil before it and on the others.
    var principal: Principal?
    /// The console session, set by ``ConsoleSessionMiddleware`` on the console's signed-in routes.
    var consoleSession: ConsoleSession?

    /// Creates the context for a request arriving on a channel.
    public init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
        self.remoteAddress = source.channel.remoteAddress?.ipAddress
    }
}

extension ConsentdContext {
    /// Who the request speaks for: what ``CredentialMiddleware`` put in the context. A route that
    /// asks for it without the middleware before it is refused 401, never served anonymously.
    func requirePrincipal() throws(APIError) -> Principal {
        guard let principal else { throw APIError.unauthorized }
        return principal
    }
}
