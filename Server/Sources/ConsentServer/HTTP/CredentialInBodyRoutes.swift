import ConsentRequests
import Foundation
import Hummingbird

/// Routes whose requests carry their credential in the body (the web CMP's pages, the demo's
/// playground), so they check it themselves rather than behind a ``CredentialMiddleware``, and
/// write events as every other route does, through the ``ConsentAppender``.
protocol CredentialInBodyRoutes {
    var authenticator: Authenticator { get }
    var appender: ConsentAppender { get }
}

extension CredentialInBodyRoutes {
    /// The API keys.
    var keys: APIKeys { authenticator.keys }
    /// The server secret.
    var secret: ServerSecret { authenticator.secret }

    /// See ``Authenticator/authenticate(credential:allowing:action:)``.
    func authenticate(credential: String, allowing allowed: Set<CredentialKind>, action: String) async throws -> Principal {
        try await authenticator.authenticate(credential: credential, allowing: allowed, action: action)
    }

    /// See ``Authenticator/takeSubjectCreation(for:)``.
    func takeSubjectCreation(for principal: Principal) throws(APIError) {
        try authenticator.takeSubjectCreation(for: principal)
    }

    /// See ``ConsentAppender/appendEvents(_:for:requiringSubject:region:)``.
    func appendEvents(
        _ events: [Result<CheckedConsentEvent, APIError>], for principal: Principal, requiringSubject: Bool, region: String
    ) async throws -> [Result<ConsentStore.AppendAnswer, APIError>] {
        try await appender.appendEvents(events, for: principal, requiringSubject: requiringSubject, region: region)
    }

    /// See ``ConsentAppender/creationToken(for:answer:lifetime:now:)``.
    func creationToken(for principal: Principal, answer: ConsentStore.AppendAnswer, lifetime: Duration? = nil, now: Date = Date()) throws -> String? {
        try appender.creationToken(for: principal, answer: answer, lifetime: lifetime, now: now)
    }

    /// See ``ServedDocument/response(to:maxAge:)``.
    func serve(_ document: ServedDocument, for request: Request, maxAge: Int) throws -> Response {
        try document.response(to: request, maxAge: maxAge)
    }
}
