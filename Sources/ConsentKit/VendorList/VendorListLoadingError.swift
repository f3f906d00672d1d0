import Foundation
import TCF

/// Why a vendor list could not be fetched, read or stored, and where.
///
/// None of these loses anything: the loader keeps the list it held before (see
/// ``VendorListLoader``), so the app always has the last good copy or the bundled snapshot.
public enum VendorListLoadingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The request did not get an answer (no connection, DNS, TLS, refused). Retry later; the
    /// held copy stays in use.
    case transport(url: URL, message: String)
    /// The request was given up after `seconds`. Retry later, or raise
    /// ``VendorListSource/timeout`` on slow networks.
    case timedOut(url: URL, seconds: TimeInterval)
    /// The server answered with a status other than 2xx or 304; `body` is the start of its answer
    /// (consentd's `{"error": …}` says which credential or publisher id it refused).
    case httpStatus(url: URL, status: Int, body: String)
    /// The server answered 304 although no copy was revalidated (no `If-None-Match` was sent).
    /// A proxy in between is answering for the server.
    case unexpectedNotModified(url: URL)
    /// The body is still gzip-compressed: the ``HTTPTransport`` in use did not decode
    /// `Content-Encoding`. Use ``URLSessionHTTPTransport`` or decode in the custom client.
    case compressedBody(url: URL)
    /// The downloaded body is not a vendor list; the decoder's error names the JSON path, line
    /// and column (an HTML error page fails at line 1, a cut-off download at its end).
    case invalidVendorList(url: URL, VendorListError)
    /// The download decodes but is older than the list held (compared by
    /// `gvlSpecificationVersion`, then `vendorListVersion`), so it was not used. The server or a
    /// cache in front of it serves a stale list.
    case olderThanHeld(url: URL, offered: VendorListVersion, held: VendorListVersion)
    /// The copy on disk cannot be used (cut short, edited, not a vendor list); the bundled
    /// snapshot is used instead until the next good download replaces the file.
    case unreadableCache(file: URL, reason: String)
    /// The bundled snapshot cannot be read or is not a vendor list. Ship a valid
    /// `vendor-list.json` in the app bundle.
    case unreadableSnapshot(file: URL, reason: String)
    /// Nothing is on disk at `cacheFile` and no usable snapshot is configured: there is no list
    /// until a download succeeds. Bundle a snapshot (``VendorListSource/bundledSnapshot``) so a
    /// first launch without network has one.
    case noLocalCopy(cacheFile: URL, snapshot: URL?)
    /// A good download could not be written to disk (full, read-only); it is held in memory for
    /// this run and the file keeps the previous copy.
    case cacheWrite(file: URL, message: String)
    /// The source cannot be built from what was given, such as an empty publisher id.
    case invalidSource(String)

    /// One line for a person: what failed and where.
    public var description: String {
        switch self {
        case .transport(let url, let message):
            "vendor list request to \(url.absoluteString) failed: \(message)"
        case .timedOut(let url, let seconds):
            "vendor list request to \(url.absoluteString) timed out after \(seconds) s"
        case .httpStatus(let url, let status, let body):
            "vendor list request to \(url.absoluteString) answered HTTP \(status)" + (body.isEmpty ? "" : ": \(body)")
        case .unexpectedNotModified(let url):
            "\(url.absoluteString) answered 304 Not Modified to a request without If-None-Match"
        case .compressedBody(let url):
            "the vendor list from \(url.absoluteString) is still gzip-compressed; the HTTP client must decode Content-Encoding"
        case .invalidVendorList(let url, let error):
            "the download from \(url.absoluteString) is not a vendor list: \(error)"
        case .olderThanHeld(let url, let offered, let held):
            "the vendor list from \(url.absoluteString) (\(offered)) is older than the one held (\(held)); kept the held one"
        case .unreadableCache(let file, let reason):
            "the stored vendor list \(file.path) cannot be used: \(reason)"
        case .unreadableSnapshot(let file, let reason):
            "the bundled vendor list snapshot \(file.path) cannot be used: \(reason)"
        case .noLocalCopy(let cacheFile, let snapshot):
            "no vendor list is stored at \(cacheFile.path) and "
                + (snapshot.map { "the snapshot \($0.path) is not usable" } ?? "no bundled snapshot is configured")
        case .cacheWrite(let file, let message):
            "the downloaded vendor list could not be written to \(file.path): \(message)"
        case .invalidSource(let message):
            "invalid vendor list source: \(message)"
        }
    }
}
