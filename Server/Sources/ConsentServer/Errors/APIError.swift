import ConsentdAPI
import Foundation
import Hummingbird

/// A refusal as the API sends it: a status and `{"error": {"code", "message", "field"}}`
/// (`ConsentdErrorBody`).
///
/// Every refusal consentd makes is one of these; the error middleware turns anything else into
/// one too, so no input produces a 500.
public struct APIError: HTTPResponseError, Sendable, Equatable {
    /// The HTTP status.
    public var status: HTTPResponse.Status
    /// A stable machine-readable code (`invalid_field`, `rate_limited`, ...).
    public var code: String
    /// What went wrong and what to do, for people.
    public var message: String
    /// The request field at fault, when there is one.
    public var field: String?
    /// Seconds to wait before retrying, for 429.
    public var retryAfter: Int?

    /// Creates an error.
    public init(_ status: HTTPResponse.Status, _ code: String, _ message: String, field: String? = nil, retryAfter: Int? = nil) {
        self.status = status
        self.code = code
        self.message = message
        self.field = field
        self.retryAfter = retryAfter
    }

    /// The body the API sends.
    public var errorBody: ConsentdErrorBody {
        ConsentdErrorBody(code: code, message: message, field: field)
    }

    /// The JSON response.
    public func response(from request: Request, context: some RequestContext) throws -> Response {
        var headers: HTTPFields = [.contentType: "application/json; charset=utf-8"]
        if let retryAfter { headers[.retryAfter] = String(retryAfter) }
        let data = (try? JSONEncoder().encode(errorBody)) ?? Data()
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(data: data)))
    }

    /// The refusal of a request field that failed its check: `422` for a consent string that
    /// does not decode, `400` for anything else.
    init(_ invalid: InvalidField) {
        self.init(invalid.code == .invalidConsentString ? .unprocessableContent : .badRequest, invalid.code.rawValue, invalid.message,
                  field: invalid.field)
    }

    static func badRequest(_ message: String, field: String? = nil) -> APIError {
        APIError(.badRequest, "invalid_field", message, field: field)
    }

    static let unauthorized = APIError(
        .unauthorized, "unauthorized", "send Authorization: Bearer with a key of this app (ck_pub_…, ck_sec_…) or a subject token (ckt_…)")

    static func forbidden(_ message: String) -> APIError {
        APIError(.forbidden, "forbidden", message)
    }

    static func notFound(_ message: String) -> APIError {
        APIError(.notFound, "not_found", message)
    }
}
