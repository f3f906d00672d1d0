import Foundation
import Hummingbird

/// The console's API keys, under `/v1/console` behind the ``ConsoleSessionMiddleware`` (editor
/// and owner; decision 0041): `GET /keys` lists them (never a secret: kind, app, label, created,
/// revoked and last-used times), `POST /keys` creates one and shows its secret in that answer
/// only, `DELETE /keys/{keyId}` revokes one. Creating and revoking are in the audit log.
struct ConsoleKeysController {
    let console: Console
    let keys: APIKeys

    /// The largest body.
    static let bodyLimit = 4096
    /// The longest label, in bytes.
    static let labelLimit = 200

    /// The routes, under `/v1/console`.
    var endpoints: RouteCollection<ConsentdContext> {
        let routes = RouteCollection(context: ConsentdContext.self)
        routes.group()
            .add(middleware: ConsoleSessionMiddleware(console: console))
            .get("keys", use: list)
            .post("keys", use: create)
            .delete("keys/{keyId}", use: revoke)
        return routes
    }

    /// `GET /v1/console/keys?appId=…`: every key (of one app), oldest first.
    @Sendable func list(_ request: Request, context: ConsentdContext) async throws -> Response {
        struct List: Encodable { var keys: [APIKey] }
        let appId = request.query("appId")
        if let appId, !AppID.isValid(appId) {
            throw APIError.badRequest("appId is not an app id (letters, digits, '.', '-', '_')", field: "appId")
        }
        return try jsonResponse(List(keys: try await keys.list(appId: appId)))
    }

    /// `POST /v1/console/keys` `{appId, kind, label}`: the key, and its full text in `secret`, shown this once.
    @Sendable func create(_ request: Request, context: ConsentdContext) async throws -> Response {
        struct Created: Encodable {
            var key: APIKey
            /// The key's full text: shown in this answer only.
            var secret: String
        }
        var request = request
        let data = try await request.jsonBody(limit: Self.bodyLimit)
        guard let body = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else {
            throw APIError.badRequest("the body must be a JSON object with appId, kind and label")
        }
        if let unknown = body.keys.sorted().first(where: { !["appId", "kind", "label"].contains($0) }) {
            throw APIError.badRequest("\(unknown) is not a known setting (expected one of: appId, kind, label)", field: unknown)
        }
        guard let appValue = body["appId"] else { throw APIError(.badRequest, "missing_field", "appId is required", field: "appId") }
        guard let appId = appValue as? String, AppID.isValid(appId) else {
            throw APIError.badRequest("appId is not an app id (letters, digits, '.', '-', '_')", field: "appId")
        }
        guard let kindValue = body["kind"] else { throw APIError(.badRequest, "missing_field", "kind is required", field: "kind") }
        guard let kindText = kindValue as? String, let kind = APIKey.Kind(rawValue: kindText) else {
            throw APIError.badRequest("kind must be publishable or secret", field: "kind")
        }
        let label: String
        switch body["label"] {
        case nil: label = ""
        case let text as String where text.utf8.count <= Self.labelLimit && !text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }):
            label = text
        default: throw APIError.badRequest("label must be text of at most \(Self.labelLimit) bytes without control characters", field: "label")
        }
        let session = try context.requireConsoleSession()
        let now = console.clock()
        let created = try await keys.create(appId: appId, kind: kind, label: label, now: now)
        try await console.audit.record(.keyCreated, operatorId: session.operatorId, target: "\(created.key.keyId) \(kind.rawValue) \(appId)",
                                       address: RequestOrigin.address, at: now)
        var response = try jsonResponse(Created(key: created.key, secret: created.token), status: .created)
        response.headers[.cacheControl] = "no-store"
        return response
    }

    /// `DELETE /v1/console/keys/{keyId}`: revokes the key (at once on this node; on others within
    /// the key cache's seconds). 404 for an unknown key; a revoked key stays revoked.
    @Sendable func revoke(_ request: Request, context: ConsentdContext) async throws -> Response {
        let keyId = try context.pathParameter("keyId")
        guard keyId.utf8.count == 12, keyId.utf8.allSatisfy({ $0 < 0x80 }) else { throw APIError.notFound("there is no key \(keyId)") }
        let session = try context.requireConsoleSession()
        let now = console.clock()
        guard try await keys.revoke(keyId, now: now) else { throw APIError.notFound("there is no key \(keyId)") }
        try await console.audit.record(.keyRevoked, operatorId: session.operatorId, target: keyId, address: RequestOrigin.address, at: now)
        return Response(status: .noContent)
    }
}
