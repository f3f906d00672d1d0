import CompressNIO
import Crypto
import Foundation
import NIOCore

/// A document consentd serves with validators (a vendor list, a translation, a file of the
/// notice): its bytes, its media type, a strong ETag and a gzip copy.
public struct ServedDocument: Sendable, Equatable {
    /// The bytes as served.
    public let body: Data
    /// The `Content-Type`.
    public let contentType: String
    /// The strong ETag: a quoted SHA-256 prefix of the body.
    public let etag: String
    /// The body compressed with gzip, for clients that accept it.
    public let gzipped: Data

    /// Wraps a body (JSON unless said otherwise), computing its ETag and gzip copy once.
    public init(body: Data, contentType: String = "application/json; charset=utf-8") {
        self.body = body
        self.contentType = contentType
        self.etag = "\"" + String(SHA256.hash(data: body).hexString.prefix(32)) + "\""
        var buffer = ByteBuffer(data: body)
        if let compressed = try? buffer.compress(with: .gzip()) {
            self.gzipped = Data(compressed.readableBytesView)
        } else {
            self.gzipped = Data()
        }
    }
}
