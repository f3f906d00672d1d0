import Foundation
import Hummingbird

extension Consentd {
    /// The subject routes: state, history, export, erasure, tokens; and chain verification.
    func addSubjectRoutes(to router: Router<ConsentdContext>) {
        router.get("/v1/subjects/{subjectId}") { request, context -> Response in
            let principal = try await self.authenticate(request, allowing: [.secret, .subjectToken], action: "read a subject's state")
            let subjectId = try context.subjectId()
            try self.requireSubject(principal, subjectId: subjectId)
            guard let state = try await self.store.currentJSON(appId: principal.appId, subjectId: subjectId) else {
                throw APIError.notFound("subject \(subjectId) has no consent state")
            }
            return jsonResponse(text: state)
        }
        router.get("/v1/subjects/{subjectId}/events") { request, context -> Response in
            let principal = try await self.authenticate(request, allowing: [.secret], action: "read a subject's history")
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
                page = try await self.store.events(appId: principal.appId, subjectId: subjectId, limit: limit, cursor: cursor)
            } catch let error as StoreError {
                throw APIError.badRequest(error.description, field: "cursor")
            }
            if cursor == nil, page.events.isEmpty {
                throw APIError.notFound("subject \(subjectId) has no events")
            }
            return try jsonResponse(page)
        }
        router.get("/v1/subjects/{subjectId}/export") { request, context -> Response in
            let principal = try await self.authenticate(request, allowing: [.secret], action: "export a subject's data")
            let subjectId = try context.subjectId()
            guard let export = try await self.store.export(appId: principal.appId, subjectId: subjectId) else {
                throw APIError.notFound("nothing is held about subject \(subjectId)")
            }
            return try jsonResponse(export)
        }
        router.delete("/v1/subjects/{subjectId}") { request, context -> Response in
            let principal = try await self.authenticate(request, allowing: [.secret], action: "erase a subject")
            let subjectId = try context.subjectId()
            guard let receipt = try await self.store.erase(appId: principal.appId, subjectId: subjectId) else {
                throw APIError.notFound("nothing is held about subject \(subjectId)")
            }
            self.logger.info("subject erased", metadata: ["app": "\(principal.appId)", "receipt": "\(receipt.receiptId)"])
            return try jsonResponse(receipt)
        }
        router.post("/v1/subjects/{subjectId}/tokens") { request, context -> Response in
            let principal = try await self.authenticate(request, allowing: [.secret], action: "mint subject tokens")
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
            let token = SubjectToken(appId: principal.appId, subjectHash: self.secret.subjectHash(appId: principal.appId, subjectId: subjectId),
                                     keyId: principal.keyId, issuedAt: Timestamps.milliseconds(now), expiresAt: expiresAt)
            struct Minted: Encodable {
                var token: String
                var subjectId: String
                var expiresAt: String
            }
            return try jsonResponse(Minted(token: token.encoded(with: self.secret), subjectId: subjectId,
                                           expiresAt: Timestamps.format(milliseconds: expiresAt * 1000)), status: .created)
        }
        router.post("/v1/subjects/{subjectId}/restart") { request, context -> Response in
            let principal = try await self.authenticate(request, allowing: [.secret], action: "start an erased subject anew")
            let subjectId = try context.subjectId()
            guard let restarted = try await self.store.restart(appId: principal.appId, subjectId: subjectId),
                  let restartedAt = restarted.restartedAt else {
                throw APIError.notFound("subject \(subjectId) was not erased")
            }
            self.logger.info("erased subject started anew", metadata: ["app": "\(principal.appId)"])
            struct Restarted: Encodable {
                var subjectId: String
                var erasedAt: String
                var restartedAt: String
            }
            return try jsonResponse(Restarted(subjectId: subjectId, erasedAt: Timestamps.format(milliseconds: restarted.erasedAt),
                                              restartedAt: Timestamps.format(milliseconds: restartedAt)))
        }
        router.get("/v1/chain/verify") { request, _ -> Response in
            let principal = try await self.authenticate(request, allowing: [.secret], action: "verify the hash chain")
            return try jsonResponse(try await self.store.verifyChain(appId: principal.appId))
        }
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
