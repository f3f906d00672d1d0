import Foundation
import Hummingbird

/// The vendor lists: the global one and its translations (public), the storage disclosures of a
/// vendor (public, any origin), and the list trimmed to an app's publishers (publishable or
/// secret key).
struct VendorListsController {
    let authenticator: Authenticator
    let catalog: VendorListCatalog
    let publishers: PublisherDirectory
    let storageDisclosures: StorageDisclosures
    /// How long clients may cache a list (``ServerSettings/vendorListMaxAge``).
    let maxAge: Int

    /// The routes, under `/v1`.
    var endpoints: RouteCollection<ConsentdContext> {
        let routes = RouteCollection(context: ConsentdContext.self)
        routes.get("vendor-list.json", use: globalList)
        routes.get("vendor-list/translations/{language}", use: translation)
        routes.get("vendor-list/storage/{vendorId}", use: storageDisclosure)
        routes.group().add(middleware: authenticator.require([.publishable, .secret], to: "read vendor lists"))
            .get("vendor-list/trimmed", use: trimmed)
        return routes
    }

    /// `GET /v1/vendor-list.json`: the global vendor list as loaded.
    @Sendable func globalList(_ request: Request, context: ConsentdContext) async throws -> Response {
        try catalog.document.response(to: request, maxAge: maxAge)
    }

    /// `GET /v1/vendor-list/translations/{language}`: the purposes' and features' texts in a
    /// language, only when they cover the list served (a translation is never paired with a list
    /// it has no text for).
    @Sendable func translation(_ request: Request, context: ConsentdContext) async throws -> Response {
        guard let language = try languageParameter(try context.pathParameter("language"), field: "language") else {
            throw APIError.badRequest("language is missing", field: "language")
        }
        guard let document = catalog.translation(language) else {
            throw APIError.notFound("no translation for \(language); loaded: \(catalog.languages.joined(separator: ", "))")
        }
        if let gap = catalog.translationGap(language) { throw APIError.notFound(gap) }
        return try document.response(to: request, maxAge: maxAge)
    }

    /// `GET /v1/vendor-list/storage/{vendorId}`: a vendor's device storage disclosure, fetched
    /// once and kept.
    @Sendable func storageDisclosure(_ request: Request, context: ConsentdContext) async throws -> Response {
        let raw = try context.parameters.require("vendorId")
        guard let id = Int(raw), (1...65535).contains(id) else {
            throw APIError.badRequest("vendorId must be a vendor id, 1-65535", field: "vendorId")
        }
        let document: ServedDocument
        do {
            document = try await storageDisclosures.disclosure(vendorId: id)
        } catch {
            switch error {
            case .missing(let reason): throw APIError.notFound(reason)
            case .unavailable(let reason): throw APIError(.badGateway, "storage_disclosure_unavailable", reason)
            }
        }
        // Pages and apps (a WKWebView's file: origin included) read it: a GET of the API (WebCORSMiddleware).
        return try document.response(to: request, maxAge: 3600)
    }

    /// `GET /v1/vendor-list/trimmed?publisherIds=…&language=…`: the list cut to the vendors of
    /// the app's publishers.
    @Sendable func trimmed(_ request: Request, context: ConsentdContext) async throws -> Response {
        let principal = try context.requirePrincipal()
        let selected = try publishers.current.selected(publisherIds(request), appId: principal.appId)
        let language = try languageParameter(request.query("language"), field: "language")
        let vendorIds = Array(Set(selected.flatMap(\.vendorIds))).sorted()
        return try catalog.trimmed(vendorIds: vendorIds, language: language).response(to: request, maxAge: maxAge)
    }
}
