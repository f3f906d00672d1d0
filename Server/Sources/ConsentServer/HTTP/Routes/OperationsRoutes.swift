import Hummingbird

extension Consentd {
    /// `GET /health` and `GET /metrics`.
    func addOperationsRoutes(to router: Router<ConsentdContext>) {
        router.get("/health") { _, _ -> Response in
            struct Health: Encodable {
                var status: String
                var database: String
            }
            do {
                // Both paths: a pooled read and the writer connection (reopened if it was lost).
                try await self.database.read { db in try await db.raw("SELECT 1 AS one").run() }
                try await self.database.transaction { db in try await db.raw("SELECT 1 AS one").run() }
            } catch {
                throw APIError(.serviceUnavailable, "unavailable", "the database does not answer")
            }
            return try jsonResponse(Health(status: "ok", database: self.database.engine.rawValue))
        }
        router.get("/metrics") { _, _ -> Response in
            var buffer: [UInt8] = []
            Self.metrics.emit(into: &buffer)
            return Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                            body: .init(byteBuffer: ByteBuffer(bytes: buffer)))
        }
    }
}
