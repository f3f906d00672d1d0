import HTTPTypes
import Hummingbird

/// Where the request being answered comes from.
enum RequestOrigin {
    /// The client's address (see ``clientAddress(_:_:header:)``), set by ``IPRateLimitMiddleware``
    /// for the rest of the request; nil outside a request.
    @TaskLocal static var address: String?
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
