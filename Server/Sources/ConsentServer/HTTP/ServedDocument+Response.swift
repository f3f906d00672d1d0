import Foundation
import HTTPTypes
import Hummingbird

extension ServedDocument {
    /// The document as the answer to `request`: `ETag` and `Cache-Control` (`maxAge` seconds),
    /// 304 for a matching `If-None-Match`, gzip when `Accept-Encoding` prefers it, 406 when it
    /// refuses both gzip and identity.
    func response(to request: Request, maxAge: Int) throws -> Response {
        var headers: HTTPFields = [
            .eTag: etag,
            .cacheControl: "public, max-age=\(maxAge)",
            .vary: "Accept-Encoding",
        ]
        if let match = request.headers[.ifNoneMatch],
           match.split(separator: ",").contains(where: {
               let tag = $0.trimmingCharacters(in: .whitespaces)
               return tag == etag || tag == "W/" + etag || tag == "*"
           }) {
            return Response(status: .notModified, headers: headers)
        }
        headers[.contentType] = contentType
        guard let coding = AcceptEncoding(request.headers).choice() else {
            throw APIError(.notAcceptable, "not_acceptable", "Accept-Encoding refuses both gzip and identity; send one of them")
        }
        if coding == "gzip", !gzipped.isEmpty {
            headers[.contentEncoding] = "gzip"
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(data: gzipped)))
        }
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(data: body)))
    }
}
