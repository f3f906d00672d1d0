import ConsentdAPI
import Foundation
@testable import ConsentKit

/// consentd's answers to the sync client, made from each request as consentd makes them (the
/// event ids and times the client sent), for a ``ScriptedTransport``.
enum ConsentdAnswers {
    /// The subject consentd creates for the installation's first event.
    static let subjectId = "sub_test"
    /// The installation token it answers with it.
    static let installationToken = "ckt_installation"

    /// `POST /v1/consents` accepted (`201`): the event is the subject's current state; to the
    /// publishable key (an event with no subject) consentd creates `subjectId` and answers its
    /// token.
    static func appended(subjectId: String = subjectId) -> ScriptedTransport.Step {
        .answer { request in
            guard let event = try? JSONDecoder().decode(ConsentEventRequest.self, from: request.body ?? Data()) else {
                return problem(400, code: "invalid_json", message: "not an event")
            }
            let creating = event.subjectId == nil
            let result = AppendResult(eventId: event.eventId, subjectId: event.subjectId ?? subjectId, outcome: .current,
                                      current: state(of: event, subjectId: event.subjectId ?? subjectId),
                                      subjectToken: creating ? installationToken : nil)
            return json(201, result)
        }
    }

    /// `POST /v1/consents/batch` answered `200` with one result per event: `201` for each event
    /// whose status in `statuses` is 201 (the default for all), else that status with a refusal
    /// (`field` `tcString`).
    static func batch(_ statuses: [Int]? = nil) -> ScriptedTransport.Step {
        .answer { request in
            guard let batch = try? JSONDecoder().decode(ConsentBatchRequest.self, from: request.body ?? Data()) else {
                return problem(400, code: "invalid_json", message: "not a batch")
            }
            var current: SubjectState?
            let items = batch.events.enumerated().map { index, event -> ConsentBatchItem in
                let status = statuses.map { index < $0.count ? $0[index] : 201 } ?? 201
                guard status == 201 else {
                    return ConsentBatchItem(eventId: event.eventId, status: status,
                                            error: ConsentdErrorBody.Detail(code: "invalid_tc_string", message: "refused by the test", field: "tcString"))
                }
                current = state(of: event, subjectId: event.subjectId ?? subjectId)
                return ConsentBatchItem(eventId: event.eventId, status: 201, result: AppendResult(
                    eventId: event.eventId, subjectId: event.subjectId ?? subjectId, outcome: .current, current: current!))
            }
            return json(200, ConsentBatchResponse(results: items))
        }
    }

    /// `GET /v1/subjects/{id}` answered with `state`.
    static func subject(_ state: SubjectState) -> ScriptedTransport.Step {
        .respond(json(200, state))
    }

    /// A refusal: `status` with consentd's error body, and `Retry-After` when given.
    static func refusal(_ status: Int, code: String = "unavailable", field: String? = nil, retryAfter: String? = nil) -> ScriptedTransport.Step {
        .respond(problem(status, code: code, message: "refused by the test", field: field, retryAfter: retryAfter))
    }

    /// `event` as consentd holds it: the subject's state.
    static func state(of event: ConsentEventRequest, subjectId: String = subjectId) -> SubjectState {
        SubjectState(subjectId: subjectId, eventId: event.eventId, collectedAt: event.collectedAt, receivedAt: event.collectedAt,
                     consent: event.consent)
    }

    private static func problem(_ status: Int, code: String, message: String, field: String? = nil, retryAfter: String? = nil) -> TransportResponse {
        json(status, ConsentdErrorBody(code: code, message: message, field: field), headers: retryAfter.map { ["Retry-After": $0] } ?? [:])
    }

    private static func json(_ status: Int, _ body: some Encodable, headers: [String: String] = [:]) -> TransportResponse {
        TransportResponse(status: status, headers: headers.merging(["Content-Type": "application/json"]) { $1 },
                          body: (try? JSONEncoder().encode(body)) ?? Data())
    }
}
