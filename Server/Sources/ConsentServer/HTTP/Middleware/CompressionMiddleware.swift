import CompressNIO
import HTTPTypes
import Hummingbird
import NIOCore

/// Response compression, the one mechanism for every consentd answer: a body is sent gzipped
/// when the request's `Accept-Encoding` prefers gzip (``AcceptEncoding/choice()``), its media
/// type is text (JSON, HTML, CSS, JavaScript, `text/*`, SVG) and its length is known and within
/// ``compressedSizes``. Bounded work: a body under the lower bound (tiny answers gain nothing
/// and cost a compressor) and one over the upper bound (its length would be the CPU and memory
/// spent) is sent as it is, and so is a streamed body of unknown length, which is never
/// collected. A body already encoded (a ``ServedDocument``'s gzip copy, made once when it was
/// loaded) is left alone. Every compressible answer says `Vary: Accept-Encoding`; a strong `ETag`
/// on a compressed answer is made weak, since its bytes are no longer those the tag names.
struct CompressionMiddleware<Context: RequestContext>: RouterMiddleware {
    /// The body lengths compressed: from 1 KiB (below, the gzip header and the compressor's set-up
    /// cost more than they save) to 4 MiB (the largest answer consentd builds is a vendor list's
    /// notice document, about 600 KB).
    static var compressedSizes: ClosedRange<Int> { 1024...(4 << 20) }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response = try await next(request, context)
        guard Self.isCompressible(response.headers[.contentType]), response.status != .noContent, response.status != .notModified else {
            return response
        }
        if !response.headers[values: .vary].contains(where: { $0.lowercased().contains("accept-encoding") }) {
            response.headers.append(HTTPField(name: .vary, value: "Accept-Encoding"))
        }
        guard response.headers[.contentEncoding] == nil, let length = response.body.contentLength, Self.compressedSizes.contains(length),
              AcceptEncoding(request.headers).choice() == "gzip" else { return response }
        let collected = CollectedBody(capacity: length)
        try await response.body.write(BodyCollector(into: collected))
        var body = collected.buffer
        let compressed = try body.compress(with: .gzip())
        response.headers[.contentEncoding] = "gzip"
        response.headers[.contentLength] = String(compressed.readableBytes)
        if let tag = response.headers[.eTag], !tag.hasPrefix("W/") { response.headers[.eTag] = "W/" + tag }
        response.body = ResponseBody(byteBuffer: compressed)
        return response
    }

    /// Whether a media type is text that gzip shrinks (images other than SVG, and fonts, are compressed already).
    static func isCompressible(_ contentType: String?) -> Bool {
        guard let type = contentType?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased() else { return false }
        return type.hasPrefix("text/") || type == "application/json" || type.hasSuffix("+json") || type == "application/javascript"
            || type == "image/svg+xml" || type == "application/yaml"
    }
}

/// A response body's bytes, as ``BodyCollector`` wrote them.
private final class CollectedBody {
    var buffer: ByteBuffer

    init(capacity: Int) {
        buffer = ByteBuffer()
        buffer.reserveCapacity(capacity)
    }
}

/// Writes a response body into a ``CollectedBody`` (only ever a body of known, bounded length).
private struct BodyCollector: ResponseBodyWriter {
    let into: CollectedBody

    mutating func write(_ buffer: ByteBuffer) async throws {
        var buffer = buffer
        into.buffer.writeBuffer(&buffer)
    }

    consuming func finish(_ trailingHeaders: HTTPFields?) async throws {}
}
