import Foundation

/// Where the SDK finds consentd and how it identifies the app.
public struct ConsentdEndpoint: Sendable, Equatable {
    /// The server's base URL, e.g. `https://consent.example.com`.
    public var baseURL: URL
    /// The app's publishable key (`ck_pub_…`): it may read the configuration and vendor
    /// lists and append the app's consent events, nothing else.
    public var publishableKey: String
    /// The app's publisher ids.
    public var publisherIds: [String]

    /// Creates an endpoint.
    public init(baseURL: URL, publishableKey: String, publisherIds: [String]) {
        self.baseURL = baseURL
        self.publishableKey = publishableKey
        self.publisherIds = publisherIds
    }

}

/// A consentd request that did not give an answer the SDK can use.
public enum ConsentdError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The request did not reach the server or timed out.
    case transport(url: String, message: String)
    /// The server answered with an error status; `code` and `message` are its JSON error's.
    case status(url: String, status: Int, code: String?, message: String?)
    /// The body was not the JSON expected.
    case malformed(url: String, message: String)

    /// What went wrong, with the URL.
    public var description: String {
        switch self {
        case .transport(let url, let message): "\(url): no answer (\(message))"
        case .status(let url, let status, let code, let message):
            "\(url): HTTP \(status)" + (code.map { " \($0)" } ?? "") + (message.map { ": \($0)" } ?? "")
        case .malformed(let url, let message): "\(url): unexpected answer (\(message))"
        }
    }
}

/// Talks to consentd: the region decision and publisher configuration (`GET /v1/config`).
public struct ConsentdClient: Sendable {
    /// The server and the app's credentials.
    public let endpoint: ConsentdEndpoint
    let transport: any HTTPTransport
    /// The clock an HTTP-date `Retry-After` is read against (the configuration's, in the SDK).
    let now: @Sendable () -> Date

    /// A client for `endpoint` over `transport`; `now` is the clock a `Retry-After` given as a
    /// date is turned into seconds against.
    public init(endpoint: ConsentdEndpoint, transport: any HTTPTransport = URLSessionHTTPTransport(), now: @escaping @Sendable () -> Date = { Date() }) {
        self.endpoint = endpoint
        self.transport = transport
        self.now = now
    }

    /// `GET /v1/config` for the app's publishers; `debugRegion` forces the region decision.
    public func config(debugRegion: DebugRegion? = nil, timeout: TimeInterval) async throws(ConsentdError) -> AppConfig {
        var components = URLComponents(url: endpoint.baseURL.appendingPathComponent("v1/config"), resolvingAgainstBaseURL: false)
        var query = [URLQueryItem(name: "publisherIds", value: endpoint.publisherIds.joined(separator: ","))]
        if let debugRegion { query.append(URLQueryItem(name: DebugRegion.queryName, value: debugRegion.rawValue)) }
        components?.queryItems = query
        guard let url = components?.url else { throw .malformed(url: endpoint.baseURL.absoluteString, message: "cannot build the config URL") }
        let response: TransportResponse
        do {
            response = try await transport.send(TransportRequest(
                url: url, headers: ["Authorization": "Bearer \(endpoint.publishableKey)", "Accept": "application/json"], timeout: timeout))
        } catch {
            throw .transport(url: url.absoluteString, message: String(describing: error))
        }
        guard response.status == 200 else {
            let problem = try? JSONDecoder().decode(ConsentdErrorBody.self, from: response.body)
            throw .status(url: url.absoluteString, status: response.status, code: problem?.error.code, message: problem?.error.message)
        }
        do {
            return try JSONDecoder().decode(AppConfig.self, from: response.body)
        } catch {
            throw .malformed(url: url.absoluteString, message: String(describing: error))
        }
    }
}
