import ConsentdAPI
import Foundation
import Hummingbird

extension Consentd {
    /// `GET /notice/{file}` (the consent notice's page, style and script) and, when the demo is
    /// on, `GET /demo`, `GET /demo/{file}`, `POST /demo/document`, `POST /demo/result`.
    func addNoticeRoutes(to router: Router<ConsentdContext>) {
        router.get("/notice/{file}") { request, context -> Response in
            let name = try context.parameters.require("file")
            guard let document = self.assets.notice[name] else { throw APIError.notFound("no notice file \(name)") }
            return try self.serveAsset(document, for: request)
        }
        guard settings.demo else { return }
        router.get("/demo") { request, _ -> Response in
            try self.serveAsset(self.assets.demo["demo.html"]!, for: request)
        }
        router.get("/demo/{file}") { request, context -> Response in
            let name = try context.parameters.require("file")
            guard name != "demo.html", let document = self.assets.demo[name] else { throw APIError.notFound("no demo file \(name)") }
            return try self.serveAsset(document, for: request)
        }
        router.post("/demo/document") { request, _ -> Response in
            var request = request
            let body = try await request.jsonBody(limit: self.settings.bodyLimit)
            let options: NoticeDemo.Options
            do {
                options = try JSONDecoder().decode(NoticeDemo.Options.self, from: body)
            } catch {
                throw APIError.badRequest("the body must be the demo's options: \(error)")
            }
            return jsonResponse(text: String(decoding: try self.demo.document(options).0.json(), as: UTF8.self))
        }
        router.post("/demo/result") { request, _ -> Response in
            var request = request
            let body = try await request.jsonBody(limit: self.settings.bodyLimit)
            return try jsonResponse(try await self.demo.decide(NoticeDemo.Decide(json: body)))
        }
    }

    /// A file of the notice or the demo: validators and gzip as for vendor lists, five minutes of
    /// caching, and a policy that lets the page load nothing from another origin.
    private func serveAsset(_ document: ServedDocument, for request: Request) throws -> Response {
        var response = try serve(document, for: request, maxAge: 300)
        response.headers[.contentSecurityPolicy] =
            "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; frame-ancestors 'self'; base-uri 'none'; form-action 'none'"
        response.headers[.xContentTypeOptions] = "nosniff"
        return response
    }
}
