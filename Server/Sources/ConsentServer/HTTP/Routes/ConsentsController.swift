import ConsentKitFormats
import ConsentRequests
import ConsentdAPI
import Foundation
import Hummingbird

/// `POST /v1/consents` and `POST /v1/consents/batch`, for any credential. Both check and append
/// their events through the ``ConsentAppender``, so one event is answered the same whichever
/// route carries it.
struct ConsentsController {
    let authenticator: Authenticator
    let appender: ConsentAppender
    /// The largest body of one event (``ServerSettings/bodyLimit``).
    let bodyLimit: Int
    /// The largest body of a batch (``ServerSettings/batchBodyLimit``).
    let batchBodyLimit: Int

    /// The routes, under `/v1/consents`.
    var endpoints: RouteCollection<ConsentdContext> {
        let routes = RouteCollection(context: ConsentdContext.self)
        routes.group()
            .add(middleware: authenticator.require([.publishable, .secret, .subjectToken], to: "append consent events"))
            .post(use: append)
            .post("batch", use: appendBatch)
        return routes
    }

    /// `POST /v1/consents`: one event; with a publishable key and no `subjectId`, a new subject
    /// and its installation token.
    @Sendable func append(_ request: Request, context: ConsentdContext) async throws -> Response {
        let principal = try context.requirePrincipal()
        try authenticator.takeSubjectCreation(for: principal)
        var request = request
        let body = try await request.jsonBody(limit: bodyLimit)
        let event = Result { () throws(InvalidField) in try CheckedConsentEvent.decode(body) }.mapError { APIError($0) }
        let answer = try await appender.appendEvents([event], for: principal, requiringSubject: false,
                                                    region: appender.region(of: request, context: context))[0].get()
        guard let token = try appender.creationToken(for: principal, answer: answer) else {
            return jsonResponse(text: answer.json, status: answer.created ? .created : .ok)
        }
        // The subject consentd created, and the installation token that alone may write it again.
        return jsonResponse(text: String(answer.json.dropLast()) + #","subjectToken":""# + token + #""}"#,
                            status: answer.created ? .created : .ok)
    }

    /// `POST /v1/consents/batch`: events of existing subjects, each answered on its own.
    @Sendable func appendBatch(_ request: Request, context: ConsentdContext) async throws -> Response {
        let principal = try context.requirePrincipal()
        if principal.credential == .publishable {
            // Every event of a batch names its subject, which the public key alone may not write.
            throw APIError(.forbidden, "subject_credential_required",
                           "a batch writes existing subjects, which a publishable key alone may not: send the subject's token "
                           + "or the secret key; a new subject is created by POST /v1/consents without subjectId")
        }
        var request = request
        let body = try await request.jsonBody(limit: batchBodyLimit)
        let envelope: ConsentBatchEnvelope
        do throws(InvalidField) {
            envelope = try ConsentBatchEnvelope.decode(body)
        } catch {
            throw APIError(error)
        }
        let now = Date()
        let events = envelope.events.map { text -> Result<CheckedConsentEvent, APIError> in
            // What POST /v1/consents would refuse as too large, before reading it.
            guard text.count <= bodyLimit else {
                return .failure(APIError(.contentTooLarge, "payload_too_large",
                                         "the event is larger than \(bodyLimit) bytes, the limit of one event"))
            }
            return Result { () throws(InvalidField) in try CheckedConsentEvent.decode(text, now: now) }.mapError { APIError($0) }
        }
        let answers = try await appender.appendEvents(events, for: principal, requiringSubject: true,
                                                  region: appender.region(of: request, context: context))
        var json = JSONWriter(capacity: 1024 * answers.count, escaping: .standard)
        json.beginObject()
        json.key("results")
        json.beginArray()
        for (text, answer) in zip(envelope.events, answers) {
            json.beginObject()
            switch answer {
            case .success(let answer):
                Self.writeEventId(ConsentBatchEnvelope.sentEventId(in: text), to: &json)
                json.key("result"); json.raw(answer.json)
                json.key("status"); json.integer(answer.created ? 201 : 200)
            case .failure(let refusal):
                json.key("error")
                json.beginObject()
                json.key("code"); json.string(refusal.code)
                if let field = refusal.field { json.key("field"); json.string(field) }
                json.key("message"); json.string(refusal.message)
                json.endObject()
                Self.writeEventId(ConsentBatchEnvelope.sentEventId(in: text), to: &json)
                json.key("status"); json.integer(refusal.status.code)
            }
            json.endObject()
        }
        json.endArray()
        json.endObject()
        return jsonResponse(text: json.text)
    }

    private static func writeEventId(_ eventId: String?, to json: inout JSONWriter) {
        if let eventId { json.key("eventId"); json.string(eventId) }
    }
}
