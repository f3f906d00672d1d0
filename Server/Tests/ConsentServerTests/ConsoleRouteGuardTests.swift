@testable import ConsentServer
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

/// Every `/v1/console/` route of the router, found by walking it (not listed by hand), is behind
/// the session, the per-address rate limit and the body budget (issue 29 §5, decision 0042): a
/// console route added later that misses one fails here.
@Suite("Console routes are guarded")
struct ConsoleRouteGuardTests {
    /// A console route: its method, its template and a URI for it (sample values in its
    /// parameters, and the query the data-subject routes read).
    struct Route: CustomStringConvertible {
        var method: HTTPRequest.Method
        var template: String
        var uri: String
        var description: String { "\(method) \(template)" }
    }

    /// The sign-in: the one console route without a session.
    static let signIn = "POST /v1/console/session"

    /// Every console route `consentd`'s router has.
    static func routes(_ consentd: Consentd) -> [Route] {
        consentd.router().routes.filter { "\($0.path)".hasPrefix("/v1/console/") }.map { route in
            let template = "\(route.path)"
            let filled = template.split(separator: "/", omittingEmptySubsequences: false).map { part in
                // A number where the route reads one (a notice's version), so that the route gets
                // as far as its body; "sample" elsewhere.
                part == "{version}" || part == ":version" ? "1" : part.hasPrefix("{") || part.hasPrefix(":") ? "sample" : String(part)
            }.joined(separator: "/")
            return Route(method: route.method, template: template, uri: filled + "?appId=com.example.news&subjectId=user-1&limit=1")
        }.sorted { $0.description < $1.description }
    }

    @Test("the walk finds the console's routes, the data-subject ones among them")
    func walkFindsTheRoutes() async throws {
        let server = try await TestServer.make()
        let found = Set(Self.routes(server.consentd).map(\.description))
        await server.consentd.close()
        #expect(found.isSuperset(of: [Self.signIn, "GET /v1/console/me", "GET /v1/console/subjects", "DELETE /v1/console/subjects",
                                      "POST /v1/console/chain/verify"]))
    }

    @Test("every console route but sign-in answers 401 without a session or with an unknown one, whatever it is sent")
    func everyRouteNeedsASession() async throws {
        let server = try await TestServer.make()
        let routes = Self.routes(server.consentd).filter { $0.description != Self.signIn }
        #expect(routes.count >= 9)
        try await server.test { client in
            for route in routes {
                for cookie in [nil, "consentkit_console=\(randomToken())", "consentkit_console="] {
                    var headers: HTTPFields = [ConsoleSessionCookie.csrf: randomToken(), .origin: "http://localhost"]
                    if let cookie { headers[.cookie] = cookie }
                    let response = try await client.send(route.method, route.uri, json: #"{"email": "x@example.com"}"#, headers: headers)
                    #expect(response.status == .unauthorized, "\(route) cookie \(cookie ?? "none")")
                    #expect(response.errorCode == "unauthorized", "\(route)")
                }
            }
        }
    }

    @Test("every console route, sign-in included, is under the per-address rate limit")
    func everyRouteIsRateLimited() async throws {
        let server = try await TestServer.make { $0.rateLimitPerIP = RateLimit(perSecond: 0.001, burst: 1) }
        let routes = Self.routes(server.consentd)
        try await server.test { client in
            #expect(try await client.send(.get, "/health").status == .ok)
            for route in routes {
                let response = try await client.send(route.method, route.uri, json: "{}")
                #expect(response.status == .tooManyRequests, "\(route)")
                #expect(response.errorCode == "rate_limited", "\(route)")
                #expect(response.headers[.retryAfter] != nil, "\(route)")
            }
        }
    }

    @Test("every console route reads a body only within the body budget, and only the routes that take one read it")
    func everyRouteIsBodyBounded() async throws {
        let console = try await ConsoleFixture(.sqlite)
        let owner = try await console.createOperator(.owner)
        // Signing out last: the other routes need the session.
        let all = Self.routes(console.server.consentd)
        let routes = all.filter { $0.description != "DELETE /v1/console/session" } + all.filter { $0.description == "DELETE /v1/console/session" }
        let budget = console.server.consentd.guards.bodyBudget
        // The routes openapi.yaml gives a request body.
        let paths = OpenAPIContract.shared.document["paths"] as? [String: Any] ?? [:]
        let takingBodies = Set(routes.filter { route in
            ((paths[route.template] as? [String: Any])?[route.method.rawValue.lowercased()] as? [String: Any])?["requestBody"] != nil
        }.map(\.description))
        #expect(takingBodies.contains(Self.signIn))
        try await console.server.live { client in
            let session = try #require(ConsoleSessionCookie(try await client.signIn(owner, ConsoleAuthTests.password)))
            // Every byte of the budget held: a route that reads a body must be refused 503.
            let held = BodyReservation(budget: budget)
            try held.take(budget.limit)
            let body = "{\"pad\": \"" + String(repeating: "x", count: 1024) + "\"}"
            for route in routes {
                let response = try await client.send(route.method, route.uri, json: body, headers: session.stateChangingHeaders)
                if takingBodies.contains(route.description) {
                    #expect(response.status == .serviceUnavailable, "\(route)")
                    #expect(response.errorCode == "server_busy", "\(route)")
                } else {
                    // A route that takes no body answers without reading it (a 503 would mean it read it).
                    #expect(response.status != .serviceUnavailable && response.status.code < 500, "\(route): \(response.status)")
                }
            }
            #expect(budget.reserved == budget.limit)
            held.releaseAll()
            #expect(budget.reserved == 0)
        }
    }
}
