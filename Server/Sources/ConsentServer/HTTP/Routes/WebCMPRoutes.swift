import ConsentKit
import ConsentRequests
import ConsentdAPI
import Foundation
import HTTPTypes
import Hummingbird

extension Consentd {
    /// The web CMP for publishers' websites: `GET /cmp/stub.js` (the `__tcfapi` stub, first in a
    /// page's `<head>`), `GET /cmp/cmp.js` (the CMP API and the page's client), and the two calls
    /// that client makes, `POST /v1/web/session` (a page view) and `POST /v1/web/choices` (a
    /// choice, stored as a consent event with `platform: web`). The calls come from other
    /// origins: they take the credential in the body and JSON as `text/plain`, so a page sends
    /// them without a CORS preflight, and every answer allows any origin (the key is public).
    func addWebCMPRoutes(to router: Router<ConsentdContext>) {
        router.get("/cmp/{file}") { request, context -> Response in
            let name = try context.parameters.require("file")
            guard let document = self.assets.cmp[name] else { throw APIError.notFound("no CMP file \(name)") }
            var response = try self.serve(document, for: request, maxAge: 300)
            // Loaded by other origins' pages, which may require it (Cross-Origin-Embedder-Policy).
            response.headers[.crossOriginResourcePolicy] = "cross-origin"
            response.headers[.xContentTypeOptions] = "nosniff"
            return response
        }
        router.post("/v1/web/session") { request, context -> Response in
            var request = request
            let body = try await request.jsonBody(limit: self.settings.bodyLimit, alsoAsText: true)
            let session: WebCMP.SessionRequest
            do {
                session = try JSONDecoder().decode(WebCMP.SessionRequest.self, from: body)
            } catch {
                throw APIError.badRequest("the body must be a page view: {credential, language?, tcString?, addtlConsent?, reopen?, debugRegion?}: \(error)")
            }
            let principal = try await self.authenticate(credential: session.credential, allowing: [.publishable, .subjectToken],
                                                        action: "open a web page's consent session")
            let headerValue = self.resolver.countryHeader.flatMap { name in HTTPField.Name(name).flatMap { request.headers[$0] } }
            let region = self.resolver.decide(headerValue: headerValue, address: clientAddress(request, context, header: self.settings.clientIPHeader),
                                              debug: session.debugRegion)
            return jsonResponse(text: try self.web.session(session, appId: principal.appId, region: region, now: Date()))
        }
        router.post("/v1/web/choices") { request, _ -> Response in
            var request = request
            let body = try await request.jsonBody(limit: self.settings.bodyLimit, alsoAsText: true)
            let choiceRequest = try WebCMP.ChoiceRequest(json: body)
            let principal = try await self.authenticate(credential: choiceRequest.credential, allowing: [.publishable, .subjectToken],
                                                        action: "record a web page's choice")
            // An app's consent is written with the app's own token, for its subject (never the page's key).
            var writer = principal
            if let app = choiceRequest.appConsent {
                writer = try await self.authenticate(credential: try app.credential(), allowing: [.subjectToken],
                                                     action: "record an app's consent from its web view")
            }
            let now = Date()
            let (action, recorded) = try self.web.choice(choiceRequest, appId: principal.appId, now: now)
            var json = JSONText(capacity: 4096)
            json.beginObject()
            json.key("action"); json.string(action)
            if let recorded {
                let event = try recorded.checkedEvent(fieldPrefix: "")
                let answer = try await self.appendEvents([.success(event)], for: writer, requiringSubject: false)[0].get()
                let result = try answer.result()
                json.key("addtlConsent")
                if let ac = recorded.addtlConsent { json.string(ac) } else { json.null() }
                json.key("event"); json.raw(answer.json)
                json.key("subjectId"); json.string(result.subjectId)
                if writer.credential == .publishable {
                    json.key("subjectToken"); json.string(self.subjectToken(for: writer, subjectId: result.subjectId))
                }
                json.key("tcData")
                json.raw(TCData(tcString: recorded.tcString, decoded: recorded.decoded, addtlConsent: recorded.addtlConsent, cmp: self.web.cmp).json())
                json.key("tcString"); json.string(recorded.tcString)
            }
            json.endObject()
            return jsonResponse(text: json.text, status: recorded == nil ? .ok : .created)
        }
    }

    /// The token that alone may write `subjectId` again, for a subject a publishable key created.
    func subjectToken(for principal: Principal, subjectId: String) -> String {
        SubjectToken(appId: principal.appId, subjectHash: secret.subjectHash(appId: principal.appId, subjectId: subjectId), keyId: principal.keyId)
            .encoded(with: secret)
    }
}

/// Lets pages of any origin read the web CMP's answers (`/v1/web/`), errors included, and
/// answers their preflight requests: the credential a page sends is a publishable key or a
/// subject token, both meant to be seen by the page.
struct WebCORSMiddleware: RouterMiddleware {
    typealias Context = ConsentdContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard request.uri.path.hasPrefix("/v1/web/") else { return try await next(request, context) }
        if request.method == .options {
            return Response(status: .noContent, headers: [
                .accessControlAllowOrigin: "*", .accessControlAllowMethods: "POST", .accessControlAllowHeaders: "Content-Type",
                .accessControlMaxAge: "86400",
            ])
        }
        do {
            var response = try await next(request, context)
            response.headers[.accessControlAllowOrigin] = "*"
            return response
        } catch let error as APIError {
            var response = try error.response(from: request, context: context)
            response.headers[.accessControlAllowOrigin] = "*"
            return response
        }
    }
}
