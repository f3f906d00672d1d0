import Hummingbird

/// `GET /health` and `GET /metrics`, for probers and Prometheus: no credential.
struct OperationsController {
    let database: Database

    /// The routes, at the root.
    var endpoints: RouteCollection<ConsentdContext> {
        RouteCollection(context: ConsentdContext.self)
            .get("health", use: health)
            .get("metrics", use: metrics)
    }

    /// `GET /health`: ok when both database paths answer, 503 `unavailable` otherwise.
    @Sendable func health(_ request: Request, context: ConsentdContext) async throws -> Response {
        struct Health: Encodable {
            var status: String
            var database: String
        }
        do {
            // Both paths: a pooled read and the writer connection (reopened if it was lost).
            try await database.read { db in try await db.raw("SELECT 1 AS one").run() }
            try await database.transaction { db in try await db.raw("SELECT 1 AS one").run() }
        } catch {
            throw APIError(.serviceUnavailable, "unavailable", "the database does not answer")
        }
        return try jsonResponse(Health(status: "ok", database: database.engine.rawValue))
    }

    /// `GET /metrics`: the Prometheus text of ``Consentd/metrics``.
    @Sendable func metrics(_ request: Request, context: ConsentdContext) async throws -> Response {
        var buffer: [UInt8] = []
        Consentd.metrics.emit(into: &buffer)
        return Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                        body: .init(byteBuffer: ByteBuffer(bytes: buffer)))
    }
}
