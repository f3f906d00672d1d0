import ConsentKitFormats
import Foundation
import Hummingbird
import Logging

/// A subject's routes (state, history, export, erasure, tokens, restart) and the verification of
/// the app's hash chain: each behind the credential kinds it allows.
struct SubjectsController {
    let authenticator: Authenticator
    let store: ConsentStore
    let logger: Logger

    /// The routes, under `/v1`.
    var endpoints: RouteCollection<ConsentdContext> {
        let routes = RouteCollection(context: ConsentdContext.self)
        routes.group().add(middleware: authenticator.require([.secret, .subjectToken], to: "read a subject's state"))
            .get("subjects/{subjectId}", use: state)
        routes.group().add(middleware: authenticator.require([.secret], to: "read a subject's history"))
            .get("subjects/{subjectId}/events", use: events)
        routes.group().add(middleware: authenticator.require([.secret], to: "export a subject's data"))
            .get("subjects/{subjectId}/export", use: export)
        routes.group().add(middleware: authenticator.require([.secret], to: "erase a subject"))
            .delete("subjects/{subjectId}", use: erase)
        routes.group().add(middleware: authenticator.require([.secret], to: "mint subject tokens"))
            .post("subjects/{subjectId}/tokens", use: mintToken)
        routes.group().add(middleware: authenticator.require([.secret], to: "start an erased subject anew"))
            .post("subjects/{subjectId}/restart", use: restart)
        routes.group().add(middleware: authenticator.require([.secret], to: "verify the hash chain"))
            .get("chain/verify", use: verifyChain)
        return routes
    }

    /// `GET /v1/subjects/{subjectId}`: the subject's current consent state.
    @Sendable func state(_ request: Request, context: ConsentdContext) async throws -> Response {
        let principal = try context.requirePrincipal()
        let subjectId = try context.subjectId()
        try authenticator.requireSubject(principal, subjectId: subjectId)
        guard let state = try await store.currentJSON(appId: principal.appId, subjectId: subjectId) else {
            throw APIError.notFound("subject \(subjectId) has no consent state")
        }
        return jsonResponse(text: state)
    }

    /// `GET /v1/subjects/{subjectId}/events`: the subject's events, a page at a time (`limit` 1-500, `cursor`).
    @Sendable func events(_ request: Request, context: ConsentdContext) async throws -> Response {
        let principal = try context.requirePrincipal()
        let subjectId = try context.subjectId()
        var limit = 50
        if let text = request.query("limit") {
            guard let value = Int(text), (1...500).contains(value) else {
                throw APIError.badRequest("limit must be an integer from 1 to 500", field: "limit")
            }
            limit = value
        }
        let cursor = request.query("cursor")
        let page: EventPage
        do {
            page = try await store.events(appId: principal.appId, subjectId: subjectId, limit: limit, cursor: cursor)
        } catch let error as StoreError where error == .badCursor(cursor ?? "") {
            throw APIError.badRequest(error.description, field: "cursor")
        }
        if cursor == nil, page.events.isEmpty {
            throw APIError.notFound("subject \(subjectId) has no events")
        }
        return try jsonResponse(page)
    }

    /// `GET /v1/subjects/{subjectId}/export`: everything held about the subject (GDPR Art. 15).
    @Sendable func export(_ request: Request, context: ConsentdContext) async throws -> Response {
        let principal = try context.requirePrincipal()
        let subjectId = try context.subjectId()
        guard let export = try await store.export(appId: principal.appId, subjectId: subjectId) else {
            throw APIError.notFound("nothing is held about subject \(subjectId)")
        }
        return try jsonResponse(export)
    }

    /// `DELETE /v1/subjects/{subjectId}`: erases the subject (GDPR Art. 17) and answers its receipt.
    @Sendable func erase(_ request: Request, context: ConsentdContext) async throws -> Response {
        let principal = try context.requirePrincipal()
        let subjectId = try context.subjectId()
        guard let receipt = try await store.erase(appId: principal.appId, subjectId: subjectId) else {
            throw APIError.notFound("nothing is held about subject \(subjectId)")
        }
        logger.info("subject erased", metadata: ["app": "\(principal.appId)", "receipt": "\(receipt.receiptId)"])
        return try jsonResponse(receipt)
    }

    /// `POST /v1/subjects/{subjectId}/tokens`: a subject token for the subject (`{"ttlSeconds": N}`, 60 to 86400, optional).
    @Sendable func mintToken(_ request: Request, context: ConsentdContext) async throws -> Response {
        let principal = try context.requirePrincipal()
        let subjectId = try context.subjectId()
        var lifetime = SubjectToken.defaultLifetime
        var request = request
        if request.headers[.contentType] != nil || (request.headers[.contentLength].flatMap(Int.init) ?? 0) > 0 {
            let body = try await request.jsonBody(limit: 4096)
            if !body.isEmpty {
                lifetime = try Self.tokenLifetime(body)
            }
        }
        let now = Date()
        let expiresAt = Int64(now.timeIntervalSince1970) + lifetime
        let token = SubjectToken(appId: principal.appId, subjectHash: authenticator.secret.subjectHash(appId: principal.appId, subjectId: subjectId),
                                 keyId: principal.keyId, issuedAt: ISO8601.milliseconds(of: now), expiresAt: expiresAt)
        struct Minted: Encodable {
            var token: String
            var subjectId: String
            var expiresAt: String
        }
        return try jsonResponse(Minted(token: token.encoded(with: authenticator.secret), subjectId: subjectId,
                                       expiresAt: ISO8601.format(milliseconds: expiresAt * 1000)), status: .created)
    }

    /// `POST /v1/subjects/{subjectId}/restart`: starts an erased subject anew, for the secret key and tokens minted from now on.
    @Sendable func restart(_ request: Request, context: ConsentdContext) async throws -> Response {
        let principal = try context.requirePrincipal()
        let subjectId = try context.subjectId()
        guard let restarted = try await store.restart(appId: principal.appId, subjectId: subjectId),
              let restartedAt = restarted.restartedAt else {
            throw APIError.notFound("subject \(subjectId) was not erased")
        }
        logger.info("erased subject started anew", metadata: ["app": "\(principal.appId)"])
        struct Restarted: Encodable {
            var subjectId: String
            var erasedAt: String
            var restartedAt: String
        }
        return try jsonResponse(Restarted(subjectId: subjectId, erasedAt: ISO8601.format(milliseconds: restarted.erasedAt),
                                          restartedAt: ISO8601.format(milliseconds: restartedAt)))
    }

    /// `GET /v1/chain/verify`: walks the app's hash chain and reports the first link that does not hold.
    @Sendable func verifyChain(_ request: Request, context: ConsentdContext) async throws -> Response {
        let principal = try context.requirePrincipal()
        return try jsonResponse(try await store.verifyChain(appId: principal.appId))
    }

    /// Reads `{"ttlSeconds": N}` (60 to 86400).
    static func tokenLifetime(_ body: Data) throws -> Int64 {
        struct TokenRequest: Decodable {
            var ttlSeconds: Int64?
        }
        guard let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any] else {
            throw APIError(.badRequest, "invalid_json", "the body must be a JSON object such as {\"ttlSeconds\": 900}")
        }
        if let unknown = object.keys.sorted().first(where: { $0 != "ttlSeconds" }) {
            throw APIError.badRequest("\(unknown) is not a field of this object", field: unknown)
        }
        if object["ttlSeconds"] is NSNull {
            throw APIError.badRequest("ttlSeconds must be an integer from 60 to 86400, not null", field: "ttlSeconds")
        }
        guard let request = try? JSONDecoder().decode(TokenRequest.self, from: body),
              (60...SubjectToken.maxLifetime).contains(request.ttlSeconds ?? SubjectToken.defaultLifetime)
        else {
            throw APIError.badRequest("ttlSeconds must be an integer from 60 to 86400", field: "ttlSeconds")
        }
        return request.ttlSeconds ?? SubjectToken.defaultLifetime
    }
}
