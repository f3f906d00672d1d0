@testable import ConsentServer
import Hummingbird
import HummingbirdTesting

extension TestServer {
    /// Runs `body` against the real server listening on loopback, then closes the database,
    /// also when `body` fails (a database left open traps when it is freed).
    func live(_ body: @escaping @Sendable (any TestClientProtocol) async throws -> Void) async throws {
        do {
            try await consentd.application().test(.live, body)
        } catch {
            await consentd.close()
            throw error
        }
        await consentd.close()
    }
}
