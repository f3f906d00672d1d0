import ConsentKitFormats
import Foundation
import Hummingbird
import Logging

/// The console's data-subject requests, under `/v1/console` behind the ``ConsoleSessionMiddleware``
/// (decision 0042): look a subject up by its id or its stored hash, read its history with proofs,
/// export it, erase it, start it anew, and verify an app's hash chain. Each does what the
/// secret-key route of the same name does (the same store calls, the same answers), and each is
/// written to the console's audit log, naming the subject by its hash only.
///
/// Every route takes the app (`appId`) and the subject (`subjectId` or `subjectHash`) as query
/// parameters: `GET /subjects`, `GET /subjects/events`, `GET /subjects/export`, `DELETE /subjects`,
/// `POST /subjects/restart`; and `POST /chain/verify?appId=`.
struct ConsoleSubjectsController {
    let console: Console
    let store: ConsentStore
    let logger: Logger

    /// The routes, under `/v1/console`.
    var endpoints: RouteCollection<ConsentdContext> {
        let routes = RouteCollection(context: ConsentdContext.self)
        routes.group()
            .add(middleware: ConsoleSessionMiddleware(console: console))
            .get("subjects", use: lookUp)
            .get("subjects/events", use: history)
            .get("subjects/export", use: export)
            .delete("subjects", use: erase)
            .post("subjects/restart", use: restart)
            .post("chain/verify", use: verifyChain)
        return routes
    }

    /// A subject as a request names it: its app, its stored hash, and its id when given.
    struct Subject {
        var appId: String
        var subjectHash: String
        var subjectId: String?

        /// How the audit log names it: never by its clear id.
        var auditTarget: String { "\(subjectHash) of \(appId)" }
    }

    /// `GET /v1/console/subjects?appId=&subjectId=` (or `subjectHash=`): the subject's current
    /// state, event count and last erasure. Audited found or not.
    @Sendable func lookUp(_ request: Request, context: ConsentdContext) async throws -> Response {
        let session = try context.requireConsoleSession()
        let subject = try await self.subject(request)
        try await audit(.subjectLookedUp, subject.auditTarget, session)
        return try jsonResponse(try await summary(of: subject))
    }

    /// `GET /v1/console/subjects/events?…&limit=&cursor=`: the subject's events, oldest first, a
    /// page at a time, each with its chain link checked.
    @Sendable func history(_ request: Request, context: ConsentdContext) async throws -> Response {
        let session = try context.requireConsoleSession()
        let subject = try await self.subject(request)
        var limit = 50
        if let text = request.query("limit") {
            guard let value = Int(text), (1...500).contains(value) else {
                throw APIError.badRequest("limit must be an integer from 1 to 500", field: "limit")
            }
            limit = value
        }
        let cursor = request.query("cursor")
        _ = try await summary(of: subject)
        let page: ProvenEventPage
        do {
            page = try await store.provenEvents(appId: subject.appId, subjectHash: subject.subjectHash, limit: limit, cursor: cursor)
        } catch let error as StoreError where error == .badCursor(cursor ?? "") {
            throw APIError.badRequest(error.description, field: "cursor")
        }
        try await audit(.subjectHistoryRead, subject.auditTarget, session)
        return try jsonResponse(page)
    }

    /// `GET /v1/console/subjects/export?…`: the export `GET /v1/subjects/{subjectId}/export`
    /// answers, as a download (`Content-Disposition: attachment`).
    @Sendable func export(_ request: Request, context: ConsentdContext) async throws -> Response {
        let session = try context.requireConsoleSession()
        let subject = try await self.subject(request)
        _ = try await summary(of: subject)
        guard let export = try await store.export(appId: subject.appId, subjectHash: subject.subjectHash,
                                                  named: subject.subjectId ?? subject.subjectHash, now: console.clock()) else {
            throw APIError(.notFound, "nothing_held", "nothing is held about this subject (it was erased): there is nothing to export")
        }
        try await audit(.subjectExported, subject.auditTarget, session)
        var response = try jsonResponse(export)
        response.headers[.contentDisposition] = "attachment; filename=\"subject-\(subject.subjectHash.prefix(16)).json\""
        return response
    }

    /// `DELETE /v1/console/subjects?…`: erases the subject as `DELETE /v1/subjects/{subjectId}`
    /// does and answers its receipt; 409 `already_erased` when nothing is left to erase.
    @Sendable func erase(_ request: Request, context: ConsentdContext) async throws -> Response {
        let session = try context.requireConsoleSession()
        let subject = try await self.subject(request)
        let found = try await summary(of: subject)
        guard let receipt = try await store.erase(appId: subject.appId, subjectHash: subject.subjectHash, now: console.clock()) else {
            throw APIError(.conflict, "already_erased",
                           "the subject was erased at \(found.erasure?.erasedAt ?? "an earlier time") and nothing of it is held since")
        }
        try await audit(.subjectErased, subject.auditTarget + ", receipt \(receipt.receiptId)", session)
        logger.info("subject erased from the console", metadata: ["app": "\(subject.appId)", "receipt": "\(receipt.receiptId)"])
        return try jsonResponse(receipt)
    }

    /// `POST /v1/console/subjects/restart?…`: starts an erased subject anew, as
    /// `POST /v1/subjects/{subjectId}/restart` does; 409 `not_erased` for a subject that is not.
    @Sendable func restart(_ request: Request, context: ConsentdContext) async throws -> Response {
        let session = try context.requireConsoleSession()
        let subject = try await self.subject(request)
        let found = try await summary(of: subject)
        guard found.erasure != nil,
              let restarted = try await store.restart(appId: subject.appId, subjectHash: subject.subjectHash, now: console.clock()),
              let restartedAt = restarted.restartedAt else {
            throw APIError(.conflict, "not_erased", "the subject was never erased: only an erased subject is started anew")
        }
        try await audit(.subjectRestarted, subject.auditTarget, session)
        struct Restarted: Encodable {
            var appId: String
            var subjectHash: String
            var erasedAt: String
            var restartedAt: String
        }
        return try jsonResponse(Restarted(appId: subject.appId, subjectHash: subject.subjectHash,
                                          erasedAt: ISO8601.format(milliseconds: restarted.erasedAt),
                                          restartedAt: ISO8601.format(milliseconds: restartedAt)))
    }

    /// `POST /v1/console/chain/verify?appId=`: the verification `consent chain verify` and
    /// `GET /v1/chain/verify` run, for the app; 404 `app_not_found` for an app the database does
    /// not know.
    @Sendable func verifyChain(_ request: Request, context: ConsentdContext) async throws -> Response {
        let session = try context.requireConsoleSession()
        let appId = try await knownApp(request)
        let result = try await store.verifyChain(appId: appId)
        try await audit(.chainVerified, appId, session)
        return try jsonResponse(result)
    }

    // MARK: - The request's subject

    /// The longest app id, subject id accepted (as `/v1/subjects/{subjectId}` accepts).
    static let maximumIdBytes = 256

    /// The `appId` query parameter, naming an app the database knows (404 `app_not_found`).
    func knownApp(_ request: Request) async throws -> String {
        guard let appId = request.query("appId"), !appId.isEmpty else {
            throw APIError(.badRequest, "missing_field", "appId is required: the app whose subjects or chain to read", field: "appId")
        }
        guard appId.utf8.count <= Self.maximumIdBytes else {
            throw APIError.badRequest("appId must be 1 to \(Self.maximumIdBytes) bytes long", field: "appId")
        }
        guard try await store.knowsApp(appId) else {
            throw APIError(.notFound, "app_not_found", "no app \(appId) in this database: it has no consent event and no key")
        }
        return appId
    }

    /// The subject the query names: `appId` and exactly one of `subjectId` (1 to 256 bytes) and
    /// `subjectHash` (64 hex digits, the stored id a subject token's payload carries).
    func subject(_ request: Request) async throws -> Subject {
        let subjectId = request.query("subjectId")
        let subjectHash = request.query("subjectHash")
        if subjectId != nil, subjectHash != nil {
            throw APIError.badRequest("give subjectId or subjectHash, not both", field: "subjectHash")
        }
        if let subjectId {
            guard !subjectId.isEmpty, subjectId.utf8.count <= Self.maximumIdBytes else {
                throw APIError.badRequest("subjectId must be 1 to \(Self.maximumIdBytes) bytes long", field: "subjectId")
            }
        } else if let subjectHash {
            guard Self.isSubjectHash(subjectHash) else {
                throw APIError.badRequest("subjectHash must be 64 hexadecimal digits (the stored id of a subject)", field: "subjectHash")
            }
        } else {
            throw APIError(.badRequest, "missing_field", "subjectId is required (or subjectHash, the subject's stored id)", field: "subjectId")
        }
        let appId = try await knownApp(request)
        if let subjectId {
            return Subject(appId: appId, subjectHash: store.secret.subjectHash(appId: appId, subjectId: subjectId), subjectId: subjectId)
        }
        return Subject(appId: appId, subjectHash: subjectHash!.lowercased(), subjectId: nil)
    }

    /// Whether `text` is 64 hexadecimal digits.
    static func isSubjectHash(_ text: String) -> Bool {
        text.utf8.count == 64 && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) || (0x41...0x46).contains($0) }
    }

    /// The subject's summary, or 404 `subject_not_found` when the app holds nothing of it and
    /// never erased it.
    func summary(of subject: Subject) async throws -> SubjectSummary {
        guard let found = try await store.summary(appId: subject.appId, subjectHash: subject.subjectHash, subjectId: subject.subjectId) else {
            throw APIError(.notFound, "subject_not_found",
                           "app \(subject.appId) holds nothing about this subject and never erased it; check the id (ids are case-sensitive) or the app")
        }
        return found
    }

    private func audit(_ action: AuditAction, _ target: String, _ session: ConsoleSession) async throws {
        try await console.audit.record(action, operatorId: session.operatorId, target: target,
                                       address: RequestOrigin.address ?? "unknown", at: console.clock())
    }
}
