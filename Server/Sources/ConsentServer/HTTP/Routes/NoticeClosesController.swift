import Foundation
import Hummingbird

/// `POST /v1/analytics/closed`: an app's notice closed without a choice, counted once as
/// ``ChoiceOutcome/closed`` in the app's choice analytics (docs/decisions/0044). It takes the
/// credentials consent events take (the publishable key, a subject token, the secret key) and
/// names no subject: a subject token's subject is not kept, nor is any id in the body.
struct NoticeClosesController {
    let authenticator: Authenticator
    let appender: ConsentAppender
    /// The largest body (``ServerSettings/bodyLimit``, as one event's).
    let bodyLimit: Int

    /// The route, under `/v1`.
    var endpoints: RouteCollection<ConsentdContext> {
        let routes = RouteCollection(context: ConsentdContext.self)
        routes.group()
            .add(middleware: authenticator.require([.publishable, .secret, .subjectToken], to: "count a notice closed without a choice"))
            .post("analytics/closed", use: close)
        return routes
    }

    /// `POST /v1/analytics/closed`: `{"noticeVersion", "language", "platform", "closedAt"?}`,
    /// answered 204 once counted.
    @Sendable func close(_ request: Request, context: ConsentdContext) async throws -> Response {
        let principal = try context.requirePrincipal()
        var request = request
        let (close, closedAt) = try NoticeClose.decode(try await request.jsonBody(limit: bodyLimit), now: Date())
        try await appender.store.recordClose(close, appId: principal.appId, region: appender.region(of: request, context: context),
                                             closedAt: closedAt)
        return Response(status: .noContent)
    }
}
