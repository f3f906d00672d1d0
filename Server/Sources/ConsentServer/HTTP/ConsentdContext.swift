import Hummingbird
import NIOCore

/// The request context of consentd's routes: Hummingbird's core context plus the client's address.
public struct ConsentdContext: RequestContext {
    /// Hummingbird's per-request storage.
    public var coreContext: CoreRequestContextStorage
    /// The peer's IP address, for per-IP rate limits and the CIDR table.
    public let remoteAddress: String?

    /// Creates the context for a request arriving on a channel.
    public init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
        self.remoteAddress = source.channel.remoteAddress?.ipAddress
    }
}
