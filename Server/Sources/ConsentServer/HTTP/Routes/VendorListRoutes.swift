import Foundation
import Hummingbird

extension Consentd {
    /// `GET /v1/vendor-list.json`, `GET /v1/vendor-list/translations/{language}`, `GET /v1/vendor-list/trimmed`,
    /// `GET /v1/vendor-list/storage/{vendorId}`.
    func addVendorListRoutes(to router: Router<ConsentdContext>) {
        router.get("/v1/vendor-list.json") { request, _ -> Response in
            try self.serve(self.catalog.document, for: request)
        }
        router.get("/v1/vendor-list/translations/{language}") { request, context -> Response in
            let language = try languageParameter(try context.pathParameter("language"), field: "language")!
            guard let document = self.catalog.translation(language) else {
                throw APIError.notFound("no translation for \(language); loaded: \(self.catalog.languages.joined(separator: ", "))")
            }
            return try self.serve(document, for: request)
        }
        router.get("/v1/vendor-list/storage/{vendorId}") { request, context -> Response in
            let raw = try context.parameters.require("vendorId")
            guard let id = Int(raw), (1...65535).contains(id) else {
                throw APIError.badRequest("vendorId must be a vendor id, 1-65535", field: "vendorId")
            }
            let document: ServedDocument
            do {
                document = try await self.storageDisclosures.disclosure(vendorId: id)
            } catch let failure as StorageDisclosures.Failure {
                switch failure {
                case .missing(let reason): throw APIError.notFound(reason)
                case .unavailable(let reason): throw APIError(.badGateway, "storage_disclosure_unavailable", reason)
                }
            }
            // Pages and apps (a WKWebView's file: origin included) read it without credentials.
            var response = try self.serve(document, for: request, maxAge: 3600)
            response.headers[.accessControlAllowOrigin] = "*"
            return response
        }
        router.get("/v1/vendor-list/trimmed") { request, _ -> Response in
            let principal = try await self.authenticate(request, allowing: [.publishable, .secret], action: "read vendor lists")
            let selected = try self.publishers(for: publisherIds(request), appId: principal.appId)
            let language = try languageParameter(request.query("language"), field: "language")
            let vendorIds = Array(Set(selected.flatMap(\.vendorIds))).sorted()
            return try self.serve(try self.catalog.trimmed(vendorIds: vendorIds, language: language), for: request)
        }
    }

    /// A document with `ETag` and `Cache-Control` (`maxAge` seconds, the vendor lists' by
    /// default), 304 for a matching `If-None-Match`, gzip when `Accept-Encoding` prefers it, 406
    /// when it refuses both gzip and identity.
    func serve(_ document: ServedDocument, for request: Request, maxAge: Int? = nil) throws -> Response {
        var headers: HTTPFields = [
            .eTag: document.etag,
            .cacheControl: "public, max-age=\(maxAge ?? settings.vendorListMaxAge)",
            .vary: "Accept-Encoding",
        ]
        if let match = request.headers[.ifNoneMatch],
           match.split(separator: ",").contains(where: { let tag = $0.trimmingCharacters(in: .whitespaces); return tag == document.etag || tag == "W/" + document.etag || tag == "*" }) {
            return Response(status: .notModified, headers: headers)
        }
        headers[.contentType] = document.contentType
        guard let coding = AcceptEncoding(request.headers).choice() else {
            throw APIError(.notAcceptable, "not_acceptable", "Accept-Encoding refuses both gzip and identity; send one of them")
        }
        if coding == "gzip", !document.gzipped.isEmpty {
            headers[.contentEncoding] = "gzip"
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(data: document.gzipped)))
        }
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(data: document.body)))
    }
}
