import Foundation
import HTTPTypes
import Hummingbird

/// The console's web pages (docs/console.md, "The pages"): `GET /console/` (`index.html`;
/// `GET /console` redirects there) and `GET /console/{file}` (every file of ``ConsoleAssets``).
/// Every answer has the console's policy (``ConsoleAssets/contentSecurityPolicy``), is never
/// framed, and is revalidated on each use (`no-cache` with its ETag: the files' names carry no
/// version, so a new consentd's files are used at once).
struct ConsolePagesController {
    let assets: ConsoleAssets

    /// The routes, at the root.
    var endpoints: RouteCollection<ConsentdContext> {
        let routes = RouteCollection(context: ConsentdContext.self)
        // The router takes `/console` and `/console/` for one path: the page is served at the
        // latter only, so that its relative links (`console.css`) resolve under /console/.
        routes.get("/console") { request, _ -> Response in
            guard request.uri.path.hasSuffix("/") else {
                return Response(status: .movedPermanently, headers: [.location: "/console/", .cacheControl: "no-cache"])
            }
            return try self.serve("index.html", for: request)
        }
        routes.get("/console/{file}") { request, context -> Response in
            try self.serve(context.parameters.require("file"), for: request)
        }
        return routes
    }

    /// A file of the console with its validators, gzip when accepted, and the console's headers.
    func serve(_ name: String, for request: Request) throws -> Response {
        guard let document = assets.files[name] else { throw APIError.notFound("the console has no file \(name)") }
        var response = try document.response(to: request, maxAge: 0)
        response.headers[.cacheControl] = "no-cache"
        response.headers[.contentSecurityPolicy] = ConsoleAssets.contentSecurityPolicy
        response.headers[HTTPField.Name("X-Frame-Options")!] = "DENY"
        response.headers[.xContentTypeOptions] = "nosniff"
        response.headers[HTTPField.Name("Referrer-Policy")!] = "no-referrer"
        return response
    }
}
