@testable import ConsentServer
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

/// What ``ConsoleAuthTests`` leaves out of the console's CSRF, fixation and brute-force checks
/// (issue 29 §5, decision 0042), on a data-subject route as well as sign-out.
@Suite("Console security")
struct ConsoleSecurityTests {
    @Test("a CSRF token belongs to its session: another session's token is refused, and every sign-in makes a new one",
          arguments: StoreEngine.configured)
    func csrfTokenIsBoundToItsSession(engine: StoreEngine) async throws {
        let fixture = try await SubjectsFixture(engine)
        let email = try await fixture.console.createOperator(.support)
        try await fixture.console.server.live { client in
            let first = try #require(ConsoleSessionCookie(try await client.signIn(email, ConsoleAuthTests.password)))
            let second = try #require(ConsoleSessionCookie(try await client.signIn(email, ConsoleAuthTests.password)))
            #expect(first.csrfToken != second.csrfToken)
            #expect(first.id != second.id)
            var crossed = first.cookieHeader
            crossed[ConsoleSessionCookie.csrf] = second.csrfToken
            let verify = "/v1/console/chain/verify?appId=\(fixture.appId)"
            let refused = try await client.send(.post, verify, headers: crossed)
            #expect(refused.status == .forbidden)
            #expect(refused.errorCode == "csrf_refused")
            #expect(try await client.send(.delete, "/v1/console/session", headers: crossed).errorCode == "csrf_refused")
            #expect(try await client.send(.post, verify, headers: first.stateChangingHeaders).status == .ok)
            #expect(try await client.send(.post, verify, headers: second.stateChangingHeaders).status == .ok)
        }
    }

    @Test("an Origin of the same host on another port, or of another host, is another origin, and is refused", arguments: StoreEngine.configured)
    func otherPortOrSchemeIsAnotherOrigin(engine: StoreEngine) async throws {
        let fixture = try await SubjectsFixture(engine)
        let email = try await fixture.console.createOperator(.support)
        try await fixture.console.server.live { client in
            let session = try #require(ConsoleSessionCookie(try await client.signIn(email, ConsoleAuthTests.password)))
            for origin in ["http://localhost:1", "http://localhost.attacker.example", "http://127.0.0.1", "null"] {
                var headers = session.stateChangingHeaders
                headers[.origin] = origin
                let refused = try await client.send(.post, "/v1/console/chain/verify?appId=\(fixture.appId)", headers: headers)
                #expect(refused.status == .forbidden, "\(origin)")
                #expect(refused.errorCode == "csrf_refused", "\(origin)")
            }
        }
    }

    @Test("a brute force locks only the e-mail it guesses: another operator signs in from the same address meanwhile",
          arguments: StoreEngine.configured)
    func lockoutIsPerEmail(engine: StoreEngine) async throws {
        let console = try await ConsoleFixture(engine)
        let victim = try await console.createOperator(.support)
        let other = try await console.createOperator(.support)
        try await console.server.live { client async throws in
            for _ in 1...5 { #expect(try await client.signIn(victim, "guessed password \(UUID())").status == .unauthorized) }
            #expect(try await client.signIn(victim, ConsoleAuthTests.password).errorCode == "locked_out")
            #expect(try await client.signIn(other, ConsoleAuthTests.password).status == .ok)
            // More guesses while locked change nothing: still locked, no password checked, for the same 15 minutes.
            for _ in 1...3 { #expect(try await client.signIn(victim, "guessed password \(UUID())").errorCode == "locked_out") }
            console.clock.advance(15 * 60 + 1)
            #expect(try await client.signIn(victim, ConsoleAuthTests.password).status == .ok)
        }
    }
}
