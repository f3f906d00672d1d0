import HTTPTypes
import NIOHTTP1

/// A request the client failed to deliver: its body did not parse, the client went away before
/// the end, or it was too slow. ``ConnectionGuard`` raises it into the request's body stream, so a
/// route reading the body sees it; ``ErrorMiddleware`` answers it as a 4xx and logs it below error
/// level. It is never the server's fault, so it never becomes a 5xx.
enum ClientFault: Error, Equatable, CustomStringConvertible {
    /// The body broke HTTP/1.1's framing (a malformed chunk, say); the parser's words.
    case malformedBody(String)
    /// The connection closed before the body's end.
    case vanished
    /// The body did not arrive in full within the body timeout; consentd closed the connection.
    case bodyTimedOut

    /// The status the fault is counted as: 400 for a malformed body, 408 for a slow one, and 499
    /// (as nginx names it, "client closed request") for a client that left: its answer reaches no
    /// one, but `/metrics` counts it as the client's fault.
    var status: HTTPResponse.Status {
        switch self {
        case .malformedBody: .badRequest
        case .vanished: HTTPResponse.Status(code: 499, reasonPhrase: "Client Closed Request")
        case .bodyTimedOut: .requestTimeout
        }
    }

    /// The refusal sent (when the client can still read it).
    var apiError: APIError {
        switch self {
        case .malformedBody(let reason):
            APIError(status, "invalid_request", "the request body could not be read: \(reason)")
        case .vanished:
            APIError(status, "client_closed_request", "the connection closed before the request body's end")
        case .bodyTimedOut:
            APIError(status, "request_timeout", "the request body did not arrive within the body timeout")
        }
    }

    var description: String { apiError.message }

    /// The fault an error raised on a connection while a request's body is under way stands for:
    /// an end of input the parser did not expect is a client that left, any other parse error a
    /// malformed body, and an I/O error (a reset) a client that left too.
    init(channelError error: any Error) {
        if let parse = error as? HTTPParserError {
            self = parse == .invalidEOFState ? .vanished : .malformedBody("\(parse)")
        } else {
            self = .vanished
        }
    }
}
