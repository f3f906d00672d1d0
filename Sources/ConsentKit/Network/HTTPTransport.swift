import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One HTTP request the SDK makes (vendor lists, region and configuration).
public struct TransportRequest: Sendable, Equatable {
    /// Where to.
    public var url: URL
    /// `GET`, `POST`, …
    public var method: String
    /// Request headers.
    public var headers: [String: String]
    /// The body, for `POST`.
    public var body: Data?
    /// Seconds before the request is given up.
    public var timeout: TimeInterval

    /// Creates a request; `GET` with no body by default.
    public init(url: URL, method: String = "GET", headers: [String: String] = [:], body: Data? = nil, timeout: TimeInterval = 10) {
        self.url = url
        self.method = method
        self.headers = headers
        self.body = body
        self.timeout = timeout
    }
}

/// The answer to an ``TransportRequest``.
public struct TransportResponse: Sendable, Equatable {
    /// The status code.
    public var status: Int
    /// Response headers, names lower-cased.
    public var headers: [String: String]
    /// The body.
    public var body: Data

    /// Creates a response; header names are lower-cased.
    public init(status: Int, headers: [String: String] = [:], body: Data = Data()) {
        self.status = status
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { _, last in last })
        self.body = body
    }

    /// The value of header `name` (any case).
    public func header(_ name: String) -> String? {
        headers[name.lowercased()]
    }
}

/// Sends HTTP requests: ``URLSessionHTTPTransport`` by default. Inject another to route the SDK's
/// traffic through the app's own stack, or to prove in a test that a path makes none.
public protocol HTTPTransport: Sendable {
    /// Sends `request` and returns the response, whatever its status; throws on transport
    /// failure (no connection, timeout).
    func send(_ request: TransportRequest) async throws -> TransportResponse
}

/// ``HTTPTransport`` over `URLSession`, without its HTTP cache (the SDK keeps its own copies and
/// revalidates them with `ETag`s).
public struct URLSessionHTTPTransport: HTTPTransport {
    private let session: URLSession

    /// A client with an ephemeral session of its own.
    public init() {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        session = URLSession(configuration: configuration)
    }

    public func send(_ request: TransportRequest) async throws -> TransportResponse {
        var urlRequest = URLRequest(url: request.url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: request.timeout)
        urlRequest.httpMethod = request.method
        urlRequest.httpBody = request.body
        for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await session.data(for: urlRequest)
        guard let http = response as? HTTPURLResponse else { throw URLError(.badServerResponse) }
        var headers: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { headers[name] = value }
        }
        return TransportResponse(status: http.statusCode, headers: headers, body: data)
    }
}
