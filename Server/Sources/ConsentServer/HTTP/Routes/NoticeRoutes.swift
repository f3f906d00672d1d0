import ConsentdAPI
import Foundation
import Hummingbird
import NIOCore

/// The notice's files (`/notice/`) and the demo (`/demo`), with only what they use. The
/// playground sends its credential in the body, so it checks it itself (``CredentialInBodyRoutes``).
struct NoticeController: CredentialInBodyRoutes {
    let settings: ServerSettings
    let authenticator: Authenticator
    let appender: ConsentAppender
    let assets: NoticeAssets
    let demo: NoticeDemo
    let demoSite: DemoSite
    let pages: DemoPages
    let cpuWork: CPUWorkGate

    /// `GET /notice/{file}` (the consent notice's page, style and script) and, when the demo is
    /// on, `GET /demo` (the demo site, with its page key and ad frame's origin filled in),
    /// `GET /demo/playground` (the notice alone, every mode and language, with its page key),
    /// `GET /demo/{file}`, `POST /demo/document`, `POST /demo/result` (a result written as every
    /// other consent event is: credential, rate limit and erasure rules).
    var endpoints: RouteCollection<ConsentdContext> {
        let router = RouteCollection(context: ConsentdContext.self)
        router.get("/notice/{file}") { request, context -> Response in
            let name = try context.parameters.require("file")
            guard let document = self.assets.notice[name] else { throw APIError.notFound("no notice file \(name)") }
            // Websites show the notice in a frame of their own pages (/cmp/cmp.js); notice.html
            // holds its style and scripts, which its policy names.
            let inline = name == "notice.html" ? self.assets.noticeInline : nil
            return try self.serveAsset(document, for: request, frameAncestors: "*", inline: inline)
        }
        guard settings.demo else { return router }
        router.get("/demo") { request, _ -> Response in
            // The site's markup as a publisher writes it, with this consentd's demo key and the
            // address of its ad frame (the second origin) filled in; `?frame=none` leaves the ad
            // frame blank (scripts/bench-notice times the CMP with and without it). The page's
            // form reloads it with `region`, `lang` and `storage`, which go on the stub's tag.
            let frameOrigin = self.demoSite.frameOrigin ?? ""
            let frameURL = request.query("frame") == "none" ? "about:blank" : frameOrigin + "/demo/frame.html"
            let html = String(decoding: self.pages.site.body, as: UTF8.self)
                .replacingOccurrences(of: "{{site-key}}", with: try await self.demoSite.key(self.keys))
                .replacingOccurrences(of: "{{frame-url}}", with: frameURL)
                .replacingOccurrences(of: "{{cmp-options}}", with: Self.demoCMPOptions(request))
            var response = Response(status: .ok, headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"],
                                    body: .init(byteBuffer: ByteBuffer(string: html)))
            response.headers[.contentSecurityPolicy] = Self.assetPolicy(frameAncestors: "'self'", frameSources: frameOrigin)
            response.headers[.xContentTypeOptions] = "nosniff"
            return response
        }
        router.get("/demo/playground") { _, _ -> Response in
            // The page with its own key (app `demo-playground`), which creates the visitor's
            // subject; the token the first result returns writes it from then on.
            let html = String(decoding: self.pages.playground.body, as: UTF8.self)
                .replacingOccurrences(of: "{{playground-key}}", with: try await self.demoSite.key(.playground, self.keys))
            var response = Response(status: .ok, headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"],
                                    body: .init(byteBuffer: ByteBuffer(string: html)))
            response.headers[.contentSecurityPolicy] = Self.assetPolicy(frameAncestors: "'self'", frameSources: nil)
            response.headers[.xContentTypeOptions] = "nosniff"
            return response
        }
        router.get("/demo/{file}") { request, context -> Response in
            let name = try context.parameters.require("file")
            guard !name.hasSuffix(".html"), let document = self.assets.demo[name] else { throw APIError.notFound("no demo file \(name)") }
            return try self.serveAsset(document, for: request)
        }
        router.post("/demo/document") { request, _ -> Response in
            var request = request
            let body = try await request.jsonBody(limit: self.settings.bodyLimit)
            let options = try RequestBody.decode(DemoOptions.self, from: body)
            let json = try await self.cpuWork.run { try self.demo.document(options).json() }
            return jsonResponse(text: String(decoding: json, as: UTF8.self))
        }
        router.post("/demo/result") { request, context -> Response in
            var request = request
            let body = try await request.jsonBody(limit: self.settings.bodyLimit)
            let decide = try NoticeDemo.Decide(json: body)
            // The credential rules, rate limits and erasure checks of every write: the page key
            // creates a subject, only its token writes it again, an erased subject stays erased.
            let principal = try await self.authenticate(credential: decide.credential, allowing: [.publishable, .subjectToken],
                                                        action: "record a playground result")
            guard principal.appId == NoticeDemo.appId else {
                throw APIError.forbidden("the playground records with its own page key (app \(NoticeDemo.appId)), not with a key of app \(principal.appId)")
            }
            let decided = try await self.cpuWork.run { try self.demo.decide(decide) }
            var answer = decided.answer
            if let choice = decided.event {
                let event = try choice.checked(fieldPrefix: "message.")
                let stored = try await self.appendEvents([.success(event)], for: principal, requiringSubject: false,
                                                          region: self.appender.region(of: request, context: context))[0].get()
                let result = try stored.result()
                answer.event = result
                answer.subjectToken = try self.creationToken(for: principal, answer: stored, lifetime: self.settings.webTokenLifetime)
            }
            return try jsonResponse(answer)
        }
        return router
    }

    /// The stub tag's attributes for the demo site's `region` (any debug region: `eea`,
    /// `not_eea`, `us`, `us-ca`, …), `lang` and `storage` query items; other values are left out.
    static func demoCMPOptions(_ request: Request) -> String {
        var attributes = ""
        if let region = request.query("region").flatMap(DebugRegion.init(rawValue:)) { attributes += #" data-debug-region="\#(region.rawValue)""# }
        if let language = request.query("lang"), (2...8).contains(language.count),
           language.allSatisfy({ $0.isASCII && ($0.isLetter || $0 == "-") }) {
            attributes += #" data-language="\#(language)""#
        }
        if let storage = request.query("storage"), ["cookie", "localStorage"].contains(storage) { attributes += #" data-storage="\#(storage)""# }
        return attributes
    }

    /// A file of the notice or the demo: validators and gzip as for vendor lists, five minutes of
    /// caching, and a policy that lets the page load nothing from another origin (but frames from
    /// `frameSources`) and be framed by `frameAncestors`; of inline blocks, those of `inline` only.
    private func serveAsset(_ document: ServedDocument, for request: Request, frameAncestors: String = "'self'",
                            frameSources: String? = nil, inline: InlinedPage? = nil) throws -> Response {
        var response = try serve(document, for: request, maxAge: 300)
        response.headers[.contentSecurityPolicy] = Self.assetPolicy(frameAncestors: frameAncestors, frameSources: frameSources, inline: inline)
        response.headers[.xContentTypeOptions] = "nosniff"
        return response
    }

    private static func assetPolicy(frameAncestors: String, frameSources: String?, inline: InlinedPage? = nil) -> String {
        let styles = ([" 'self'"] + (inline?.styleSources ?? [])).joined(separator: " ")
        let scripts = ([" 'self'"] + (inline?.scriptSources ?? [])).joined(separator: " ")
        return "default-src 'self'; img-src 'self' data:; style-src\(styles); script-src\(scripts); frame-src 'self'\(frameSources.map { " " + $0 } ?? ""); "
            + "frame-ancestors \(frameAncestors); base-uri 'none'; form-action 'none'"
    }
}

extension Consentd {
    /// The demo's second origin: the ad frame's page and script only, through the same
    /// ``listener(_:port:cap:responder:services:onServerRunning:)`` as the main port (its
    /// deadlines, the per-address cap and rate limit), at most ``ListenerCaps/demoFrame``
    /// connections at once.
    func demoFrameApplication() -> some ApplicationProtocol {
        let router = Router(context: ConsentdContext.self)
        addCommonMiddleware(to: router)
        for (name, document) in demoPages.frame {
            router.get("/demo/\(name)") { request, _ -> Response in
                var response = try document.response(to: request, maxAge: 0)
                response.headers[.contentSecurityPolicy] = "default-src 'self'; img-src 'self' data:; script-src 'self'; style-src 'self' 'unsafe-inline'; base-uri 'none'"
                return response
            }
        }
        return listener("consentd-demo-frame", port: settings.demoFramePort, cap: guards.caps.demoFrame, responder: router.buildResponder()) { url in
            self.demoSite.setFrameOrigin(url)
        }
    }
}
