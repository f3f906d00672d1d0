import CompressNIO
import Crypto
import Foundation
import NIOCore

/// A JSON document consentd serves with validators: its bytes, a strong ETag and a gzip copy.
public struct VendorListDocument: Sendable, Equatable {
    /// The JSON as served.
    public let body: Data
    /// The strong ETag: a quoted SHA-256 prefix of the body.
    public let etag: String
    /// The body compressed with gzip, for clients that accept it.
    public let gzipped: Data

    /// Wraps a body, computing its ETag and gzip copy once.
    public init(body: Data) {
        self.body = body
        self.etag = "\"" + String(SHA256.hash(data: body).hexString.prefix(32)) + "\""
        var buffer = ByteBuffer(data: body)
        if let compressed = try? buffer.compress(with: .gzip()) {
            self.gzipped = Data(compressed.readableBytesView)
        } else {
            self.gzipped = Data()
        }
    }
}
