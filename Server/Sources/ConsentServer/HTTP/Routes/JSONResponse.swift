import Foundation
import Hummingbird
import NIOCore

/// A JSON response with the given status.
func jsonResponse(_ value: some Encodable, status: HTTPResponse.Status = .ok) throws -> Response {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.withoutEscapingSlashes]
    return jsonResponse(text: String(decoding: try encoder.encode(value), as: UTF8.self), status: status)
}

/// A response whose JSON body is already written.
func jsonResponse(text: String, status: HTTPResponse.Status = .ok) -> Response {
    Response(status: status, headers: [.contentType: "application/json; charset=utf-8"],
             body: .init(byteBuffer: ByteBuffer(string: text)))
}

extension Request {
    /// A query parameter, nil when absent.
    func query(_ name: String) -> String? {
        uri.queryParameters.get(name)
    }

    /// The body, refusing other media types than JSON (415), bodies over `limit` (413), and any
    /// body while the memory budget of all bodies is spent (503, see ``BodyBudget``).
    /// `alsoAsText` accepts JSON sent as `text/plain` too: what a web page sends cross-origin
    /// without a CORS preflight (the web CMP's routes).
    mutating func jsonBody(limit: Int, alsoAsText: Bool = false) async throws -> Data {
        // The media type exactly (`application/json`, parameters such as `; charset=utf-8`
        // allowed), not any type that starts with it.
        let type = headers[.contentType]?.lowercased() ?? ""
        let mediaType = type.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first?
            .trimmingCharacters(in: .whitespaces) ?? ""
        guard mediaType == "application/json" || (alsoAsText && mediaType == "text/plain") else {
            throw APIError(.unsupportedMediaType, "unsupported_media_type", "send the body as Content-Type: application/json")
        }
        // Its share of the memory all bodies may hold at once (see BodyBudget).
        try BodyReservation.current?.take(headers[.contentLength].flatMap { Int($0) }.map { min(max($0, 0), limit) } ?? limit)
        do {
            return Data(try await collectBody(upTo: limit).readableBytesView)
        } catch is NIOTooManyBytesError {
            throw APIError(.contentTooLarge, "payload_too_large", "the body is larger than \(limit) bytes")
        }
    }
}

extension ConsentdContext {
    /// A path parameter, percent-decoded.
    func pathParameter(_ name: String) throws -> String {
        guard let raw = parameters.get(name), let value = raw.removingPercentEncoding, !value.isEmpty else {
            throw APIError.badRequest("\(name) is missing", field: name)
        }
        return value
    }

    /// The `subjectId` path parameter, 1–256 bytes.
    func subjectId() throws -> String {
        let value = try pathParameter("subjectId")
        guard value.utf8.count <= 256 else {
            throw APIError.badRequest("subjectId must be 1 to 256 bytes long", field: "subjectId")
        }
        return value
    }
}

/// Parses `publisherIds=a,b`: non-empty, trimmed, duplicates dropped.
func publisherIds(_ request: Request) throws -> [String] {
    guard let raw = request.query("publisherIds") else {
        throw APIError(.badRequest, "missing_field", "publisherIds is required: a comma-separated list of publisher ids", field: "publisherIds")
    }
    guard raw.utf8.count <= 2000 else {
        throw APIError(.badRequest, "invalid_field", "publisherIds must be at most 2000 bytes long, not \(raw.utf8.count)", field: "publisherIds")
    }
    var seen: [String] = []
    for part in raw.split(separator: ",", omittingEmptySubsequences: false) {
        let id = part.trimmingCharacters(in: .whitespaces)
        guard !id.isEmpty else {
            throw APIError.badRequest("publisherIds has an empty entry", field: "publisherIds")
        }
        if !seen.contains(id) { seen.append(id) }
    }
    return seen
}

/// A language tag `xx` or `xx-YY`, lower-cased; nil when absent; 400 when malformed.
func languageParameter(_ value: String?, field: String) throws -> String? {
    guard let value else { return nil }
    let parts = value.split(separator: "-", omittingEmptySubsequences: false)
    let valid = parts[0].count == 2 && parts[0].allSatisfy { $0.isASCII && $0.isLetter }
        && (parts.count == 1 || (parts.count == 2 && (2...4).contains(parts[1].count) && parts[1].allSatisfy { $0.isASCII && $0.isLetter }))
    guard valid else { throw APIError.badRequest("\(field) must be a language code such as de or pt-BR", field: field) }
    return value.lowercased()
}
