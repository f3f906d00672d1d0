import ConsentdAPI
import Foundation

/// An answer of consentd to a consent request: its status, body and `Retry-After`.
struct ConsentdAnswer: Sendable {
    var status: Int
    var body: Data
    /// Seconds from `Retry-After` (delta-seconds or an HTTP date), when sent.
    var retryAfter: TimeInterval?
    var url: String

    /// The refusal's `{"error": …}`, when the body is one.
    var problem: ConsentdErrorBody.Detail? {
        (try? JSONDecoder().decode(ConsentdErrorBody.self, from: body))?.error
    }

    var error: ConsentdError {
        .status(url: url, status: status, code: problem?.code, message: problem?.message)
    }

    func decode<T: Decodable>(_ type: T.Type) throws(ConsentdError) -> T {
        do {
            return try JSONDecoder().decode(type, from: body)
        } catch {
            throw .malformed(url: url, message: String(describing: error))
        }
    }
}

extension ConsentdClient {
    /// `POST /v1/consents` with `credential` (the publishable key, for an event without a
    /// subject, or the subject's token).
    func append(_ event: ConsentEventRequest, credential: String, timeout: TimeInterval) async throws(ConsentdError) -> ConsentdAnswer {
        try await post("v1/consents", body: event, credential: credential, timeout: timeout)
    }

    /// `POST /v1/consents/batch` with the subject's token.
    func appendBatch(_ events: [ConsentEventRequest], credential: String, timeout: TimeInterval) async throws(ConsentdError) -> ConsentdAnswer {
        try await post("v1/consents/batch", body: ConsentBatchRequest(events: events), credential: credential, timeout: timeout)
    }

    /// `POST /v1/analytics/closed` with the app's publishable key: a notice closed without a
    /// choice, which consentd counts (the outcome `closed` of its analytics, docs/decisions/0044)
    /// and stores as nothing else. Throws unless counted (`204`).
    func countClosed(_ close: NoticeCloseRequest, timeout: TimeInterval) async throws(ConsentdError) {
        let answer = try await post("v1/analytics/closed", body: close, credential: endpoint.publishableKey, timeout: timeout)
        guard answer.status == 204 else { throw answer.error }
    }

    /// `GET /v1/subjects/{subjectId}` with the subject's token.
    func subject(_ subjectId: String, credential: String, timeout: TimeInterval) async throws(ConsentdError) -> ConsentdAnswer {
        let escaped = subjectId.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "/"))) ?? subjectId
        let url = endpoint.baseURL.appendingPathComponent("v1/subjects").appendingPathComponent(escaped)
        return try await send(TransportRequest(url: url, headers: headers(credential), timeout: timeout))
    }

    private func post<Body: Encodable>(_ path: String, body: Body, credential: String, timeout: TimeInterval) async throws(ConsentdError) -> ConsentdAnswer {
        let url = endpoint.baseURL.appendingPathComponent(path)
        let data: Data
        do {
            data = try JSONEncoder().encode(body)
        } catch {
            throw .malformed(url: url.absoluteString, message: "cannot encode the request: \(error)")
        }
        var headers = headers(credential)
        headers["Content-Type"] = "application/json"
        return try await send(TransportRequest(url: url, method: "POST", headers: headers, body: data, timeout: timeout))
    }

    private func headers(_ credential: String) -> [String: String] {
        ["Authorization": "Bearer \(credential)", "Accept": "application/json"]
    }

    private func send(_ request: TransportRequest) async throws(ConsentdError) -> ConsentdAnswer {
        let response: TransportResponse
        do {
            response = try await transport.send(request)
        } catch {
            throw .transport(url: request.url.absoluteString, message: String(describing: error))
        }
        return ConsentdAnswer(status: response.status, body: response.body,
                              retryAfter: response.header("Retry-After").flatMap { Self.retryAfter($0, now: now()) }, url: request.url.absoluteString)
    }

    /// `Retry-After` as seconds: delta-seconds, or an HTTP date (RFC 9110 §10.2.3) from now.
    static func retryAfter(_ value: String, now: Date) -> TimeInterval? {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        if let seconds = Int(trimmed), seconds >= 0 { return TimeInterval(seconds) }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        guard let date = formatter.date(from: trimmed) else { return nil }
        return max(0, date.timeIntervalSince(now))
    }
}

/// The body of `POST /v1/analytics/closed`: which notice was closed without a choice, and when;
/// never who closed it.
struct NoticeCloseRequest: Encodable, Sendable, Equatable {
    /// The notice's version (the proof's `noticeVersion`).
    var noticeVersion: String
    /// The language it was shown in (the proof's `language`).
    var language: String
    /// Where it was shown (the proof's `platform`).
    var platform: ConsentProof.Platform
    /// When it was closed, ISO 8601.
    var closedAt: String
}
