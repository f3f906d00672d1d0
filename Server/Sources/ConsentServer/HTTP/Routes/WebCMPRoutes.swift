import ConsentKit
import ConsentRequests
import ConsentKitFormats
import ConsentdAPI
import Foundation
import HTTPTypes
import Hummingbird

/// The web CMP's routes (`/cmp/`, `/v1/web/`), with only what they use. Their pages send the
/// credential in the body, so they check it themselves (``CredentialInBodyRoutes``).
struct WebCMPController: CredentialInBodyRoutes {
    let settings: ServerSettings
    let authenticator: Authenticator
    let appender: ConsentAppender
    let resolver: RegionResolver
    let assets: NoticeAssets
    let web: WebCMP
    let cpuWork: CPUWorkGate

    /// The web CMP for publishers' websites: `GET /cmp/stub.js` (the `__tcfapi` stub, first in a
    /// page's `<head>`), `GET /cmp/cmp.js` (the CMP API and the page's client), and the two calls
    /// that client makes, `POST /v1/web/session` (a page view) and `POST /v1/web/choices` (a
    /// choice, stored as a consent event with `platform: web`); and `GET /v1/web/vendor-details`
    /// (the vendors' details the session's document leaves out, which the notice loads when its
    /// vendor list opens: public, cacheable, with an ETag). The calls come from other
    /// origins: they take the credential in the body and JSON as `text/plain`, so a page sends
    /// them without a CORS preflight, and every answer allows any origin (the key is public).
    var endpoints: RouteCollection<ConsentdContext> {
        let router = RouteCollection(context: ConsentdContext.self)
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
            do throws(InvalidField) {
                try WebRequestFields.checkSession(body)
            } catch {
                throw APIError(error)
            }
            let session = try RequestBody.decode(WebSessionRequest.self, from: body)
            let principal = try await self.authenticateWeb(credential: session.credential, action: "open a web page's consent session")
            let region = self.resolver.decide(headers: request.headers, address: clientAddress(request, context, header: self.settings.clientIPHeader),
                                              debug: session.debugRegion)
            let gpc = session.gpc == true || Self.sendsGPC(request.headers)
            let answer = try await self.cpuWork.run { try self.web.session(session, appId: principal.appId, region: region, gpc: gpc, now: Date()) }
            guard let renewed = try await self.renewedWebToken(principal) else { return jsonResponse(text: answer) }
            return jsonResponse(text: String(answer.dropLast()) + #","subjectToken":""# + renewed + #""}"#)
        }
        router.get("/v1/web/vendor-details") { request, _ -> Response in
            guard let appId = request.query("site"), AppID.isValid(appId) else {
                throw APIError(.badRequest, "invalid_field", "site must be the app id of a website (letters, digits, '.', '-', '_')", field: "site")
            }
            let language = try languageParameter(request.query("language"), field: "language")
            let document = try await self.cpuWork.run { try self.web.vendorDetails(appId: appId, language: language) }
            return try document.response(to: request, maxAge: 300)
        }
        router.post("/v1/web/choices") { request, context -> Response in
            var request = request
            let body = try await request.jsonBody(limit: self.settings.bodyLimit, alsoAsText: true)
            var choiceRequest = try WebCMP.ChoiceRequest(json: body)
            choiceRequest.gpc = choiceRequest.gpc || Self.sendsGPC(request.headers)
            let region = self.resolver.decide(headers: request.headers, address: clientAddress(request, context, header: self.settings.clientIPHeader),
                                              debug: choiceRequest.debugRegion)
            let principal = try await self.authenticateWeb(credential: choiceRequest.credential, action: "record a web page's choice")
            // An app's consent is written with the app's own token, for its subject (never the page's key).
            var writer = principal
            if let app = choiceRequest.appConsent {
                writer = try await self.authenticate(credential: try app.credential(), allowing: [.subjectToken],
                                                     action: "record an app's consent from its web view")
            }
            let now = Date()
            let (action, recorded, closed) = try await self.cpuWork.run {
                try self.web.choice(choiceRequest, appId: principal.appId, region: region, now: now)
            }
            if let closed {
                // Counted for the page's app, never for a subject (docs/decisions/0044).
                try await self.appender.store.recordClose(closed, appId: principal.appId, region: region.analyticsRegion, closedAt: now)
            }
            let site = try self.web.site(appId: principal.appId)
            var json = JSONWriter(capacity: 4096, escaping: .standard)
            json.beginObject()
            json.key("action"); json.string(action)
            if let recorded {
                try self.takeSubjectCreation(for: writer)
                let event = try recorded.event.checked(fieldPrefix: "")
                let answer = try await self.appendEvents([.success(event)], for: writer, requiringSubject: false,
                                                              region: region.analyticsRegion)[0].get()
                let result = try answer.result()
                if let tcf = recorded.tcf {
                    json.key("addtlConsent")
                    if let ac = tcf.addtlConsent { json.string(ac) } else { json.null() }
                }
                json.key("event"); json.raw(answer.json)
                json.key("gpp"); json.raw(WebCMP.gppJSON(recorded.gpp, settings: site.usPrivacy,
                                                          bounds: TCData.Bounds(vendorList: self.web.catalog.vendorList)))
                json.key("subjectId"); json.string(result.subjectId)
                if let token = try self.creationToken(for: writer, answer: answer, lifetime: self.settings.webTokenLifetime) {
                    json.key("subjectToken"); json.string(token)
                }
                if let tcf = recorded.tcf {
                    json.key("tcData")
                    let tcData = try await self.cpuWork.run {
                        try TCData(tcString: tcf.tcString, decoded: tcf.decoded, addtlConsent: tcf.addtlConsent, cmp: self.web.cmp,
                                   bounds: TCData.Bounds(vendorList: self.web.catalog.vendorList)).json()
                    }
                    json.raw(tcData)
                    json.key("tcString"); json.string(tcf.tcString)
                }
                if let own = recorded.usChoice {
                    // The visitor's own answer, before GPC: the page keeps it (decision record 0046).
                    json.key("usChoice")
                    own.write(to: &json)
                }
            }
            json.endObject()
            return jsonResponse(text: json.text, status: recorded == nil ? .ok : .created)
        }
        return router
    }

    /// Whether the request carries the browser's Global Privacy Control signal (`Sec-GPC: 1`).
    static func sendsGPC(_ headers: HTTPFields) -> Bool {
        headers[HTTPField.Name("Sec-GPC")!] == "1"
    }

    /// A web page's credential checked (its publishable key or its visitor's token), saying so
    /// when a visitor's token expired: the page then starts again with its key.
    func authenticateWeb(credential: String, action: String) async throws -> Principal {
        do {
            return try await authenticate(credential: credential, allowing: [.publishable, .subjectToken], action: action)
        } catch let error as APIError where error.status == .unauthorized {
            let text = credential.trimmingCharacters(in: .whitespaces)
            guard text.hasPrefix("ckt_"), SubjectToken.verify(text, with: secret) == nil,
                  SubjectToken.verify(text, with: secret, now: .distantPast) != nil else { throw error }
            throw APIError(.unauthorized, "subject_token_expired",
                           "this visitor's subject token expired: send the page's publishable key again (the page forgets the token, "
                           + "and its next choice makes a new subject)")
        }
    }

    /// A renewed token for a web visitor whose token (minted by a page key, so expiring) is in
    /// the last third of its ``ServerSettings/webTokenLifetime``; nil otherwise. The backend's
    /// session tokens (minted by a secret key) are never renewed.
    func renewedWebToken(_ principal: Principal, now: Date = Date()) async throws -> String? {
        guard let token = principal.token, let expiresAt = token.expiresAt,
              Double(expiresAt) - now.timeIntervalSince1970 < Double(settings.webTokenLifetime.components.seconds) / 3,
              try await keys.liveKey(id: token.keyId)?.kind == .publishable else { return nil }
        return SubjectToken(appId: token.appId, subjectHash: token.subjectHash, keyId: token.keyId, lifetime: settings.webTokenLifetime, now: now)
            .encoded(with: secret)
    }
}
