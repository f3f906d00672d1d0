import Crypto
import Foundation
import Hummingbird

/// The console's configuration routes, under `/v1/console` behind the ``ConsoleSessionMiddleware``
/// (editor and owner; decision 0041): publishers (their settings), their ad-tech providers, apps
/// and websites, each listed, read, created, replaced and deleted. Every body is checked by the
/// publishers.yaml reader itself (the same typed errors, naming the field), every change is
/// written through ``ConfigurationStore/change(_:target:operatorId:address:now:_:)`` (audit log,
/// version, the directory replaced at once, so `/v1/config` answers it without a restart).
/// Single entries carry an `ETag`; `If-Match` on `PUT` and `DELETE` refuses a stale edit (412).
struct ConsoleConfigController {
    let console: Console
    let store: ConfigurationStore

    /// The largest body: a website's notice may carry its logo as a `data:` image.
    static let bodyLimit = 256 * 1024

    /// The routes, under `/v1/console`.
    var endpoints: RouteCollection<ConsentdContext> {
        let routes = RouteCollection(context: ConsentdContext.self)
        routes.group()
            .add(middleware: ConsoleSessionMiddleware(console: console))
            .get("config", use: whole)
            .get("publishers", use: listPublishers)
            .post("publishers", use: createPublisher)
            .get("publishers/{publisherId}", use: getPublisher)
            .put("publishers/{publisherId}", use: replacePublisher)
            .delete("publishers/{publisherId}", use: deletePublisher)
            .get("publishers/{publisherId}/ad-tech-providers", use: listProviders)
            .post("publishers/{publisherId}/ad-tech-providers", use: createProvider)
            .put("publishers/{publisherId}/ad-tech-providers/{providerId}", use: replaceProvider)
            .delete("publishers/{publisherId}/ad-tech-providers/{providerId}", use: deleteProvider)
            .get("apps", use: listApps)
            .post("apps", use: createApp)
            .get("apps/{appId}", use: getApp)
            .put("apps/{appId}", use: replaceApp)
            .delete("apps/{appId}", use: deleteApp)
            .get("websites", use: listWebsites)
            .post("websites", use: createWebsite)
            .get("websites/{appId}", use: getWebsite)
            .put("websites/{appId}", use: replaceWebsite)
            .delete("websites/{appId}", use: deleteWebsite)
        return routes
    }

    // MARK: The whole configuration

    /// `GET /v1/console/config`: every publisher, app and website, and the configuration's version.
    @Sendable func whole(_ request: Request, context: ConsentdContext) async throws -> Response {
        struct Whole: Encodable {
            var version: Int64
            var publishers: [ConfigurationDocument.Publisher]
            var apps: [ConfigurationDocument.App]
            var websites: [ConfigurationDocument.Website]
        }
        let (document, version) = try await store.load()
        return try jsonResponse(Whole(version: version, publishers: document.publishers, apps: document.apps, websites: document.websites))
    }

    // MARK: Publishers

    @Sendable func listPublishers(_ request: Request, context: ConsentdContext) async throws -> Response {
        struct List: Encodable { var publishers: [ConfigurationDocument.Publisher] }
        return try jsonResponse(List(publishers: try await store.load().document.publishers))
    }

    @Sendable func getPublisher(_ request: Request, context: ConsentdContext) async throws -> Response {
        let id = try context.pathParameter("publisherId")
        guard let publisher = try await store.load().document.publishers.first(where: { $0.id == id }) else { throw Self.missing("publisher", id) }
        return try entryResponse(publisher)
    }

    @Sendable func createPublisher(_ request: Request, context: ConsentdContext) async throws -> Response {
        let body = try await Self.object(request)
        let publisher = try Self.publisher(body)
        let session = try context.requireConsoleSession()
        try await store.change(.configurationCreated, target: "publisher \(publisher.id)", operatorId: session.operatorId,
                               address: RequestOrigin.address, now: console.clock()) { document in
            guard !document.publishers.contains(where: { $0.id == publisher.id }) else {
                throw APIError(.conflict, "already_exists", "publisher \(publisher.id) exists already: PUT /v1/console/publishers/\(publisher.id) changes it",
                               field: "id")
            }
            document.publishers.append(publisher)
            document.publishers.sort { $0.id < $1.id }
        }
        return try entryResponse(publisher, status: .created)
    }

    @Sendable func replacePublisher(_ request: Request, context: ConsentdContext) async throws -> Response {
        let id = try context.pathParameter("publisherId")
        var body = try await Self.object(request)
        try Self.keepId(&body, key: "id", path: id)
        let publisher = try Self.publisher(body)
        let match = request.headers[.ifMatch]
        let session = try context.requireConsoleSession()
        try await store.change(.configurationUpdated, target: "publisher \(id)", operatorId: session.operatorId,
                               address: RequestOrigin.address, now: console.clock()) { document in
            guard let index = document.publishers.firstIndex(where: { $0.id == id }) else { throw Self.missing("publisher", id) }
            try Self.check(match, document.publishers[index])
            document.publishers[index] = publisher
        }
        return try entryResponse(publisher)
    }

    @Sendable func deletePublisher(_ request: Request, context: ConsentdContext) async throws -> Response {
        let id = try context.pathParameter("publisherId")
        let match = request.headers[.ifMatch]
        let session = try context.requireConsoleSession()
        try await store.change(.configurationDeleted, target: "publisher \(id)", operatorId: session.operatorId,
                               address: RequestOrigin.address, now: console.clock()) { document in
            guard let index = document.publishers.firstIndex(where: { $0.id == id }) else { throw Self.missing("publisher", id) }
            try Self.check(match, document.publishers[index])
            document.publishers.remove(at: index)
        }
        return Response(status: .noContent)
    }

    // MARK: Ad-tech providers

    @Sendable func listProviders(_ request: Request, context: ConsentdContext) async throws -> Response {
        struct List: Encodable { var adTechProviders: [ConfigurationDocument.AdTechProvider] }
        let id = try context.pathParameter("publisherId")
        guard let publisher = try await store.load().document.publishers.first(where: { $0.id == id }) else { throw Self.missing("publisher", id) }
        return try jsonResponse(List(adTechProviders: publisher.adTechProviders ?? []))
    }

    @Sendable func createProvider(_ request: Request, context: ConsentdContext) async throws -> Response {
        let id = try context.pathParameter("publisherId")
        let provider = try Self.provider(try await Self.object(request))
        let session = try context.requireConsoleSession()
        try await store.change(.configurationCreated, target: "ad-tech provider \(provider.id) of publisher \(id)", operatorId: session.operatorId,
                               address: RequestOrigin.address, now: console.clock()) { document in
            guard let index = document.publishers.firstIndex(where: { $0.id == id }) else { throw Self.missing("publisher", id) }
            var providers = document.publishers[index].adTechProviders ?? []
            guard !providers.contains(where: { $0.id == provider.id }) else {
                throw APIError(.conflict, "already_exists", "publisher \(id) has ad-tech provider \(provider.id) already", field: "id")
            }
            providers.append(provider)
            document.publishers[index].adTechProviders = providers
        }
        return try entryResponse(provider, status: .created)
    }

    @Sendable func replaceProvider(_ request: Request, context: ConsentdContext) async throws -> Response {
        let id = try context.pathParameter("publisherId")
        let providerText = try context.pathParameter("providerId")
        var body = try await Self.object(request)
        guard let providerId = Int(providerText) else { throw APIError.badRequest("providerId must be an integer", field: "providerId") }
        if body["id"] == nil { body["id"] = providerId }
        guard (body["id"] as? Int) == providerId || (body["id"] as? NSNumber)?.intValue == providerId else {
            throw APIError.badRequest("id must be \(providerId), the provider's id in the path: an id cannot change", field: "id")
        }
        let provider = try Self.provider(body)
        let match = request.headers[.ifMatch]
        let session = try context.requireConsoleSession()
        try await store.change(.configurationUpdated, target: "ad-tech provider \(providerId) of publisher \(id)", operatorId: session.operatorId,
                               address: RequestOrigin.address, now: console.clock()) { document in
            guard let index = document.publishers.firstIndex(where: { $0.id == id }) else { throw Self.missing("publisher", id) }
            guard let at = document.publishers[index].adTechProviders?.firstIndex(where: { $0.id == providerId }) else {
                throw Self.missing("ad-tech provider", providerText)
            }
            try Self.check(match, document.publishers[index].adTechProviders![at])
            document.publishers[index].adTechProviders![at] = provider
        }
        return try entryResponse(provider)
    }

    @Sendable func deleteProvider(_ request: Request, context: ConsentdContext) async throws -> Response {
        let id = try context.pathParameter("publisherId")
        let providerText = try context.pathParameter("providerId")
        let match = request.headers[.ifMatch]
        let session = try context.requireConsoleSession()
        try await store.change(.configurationDeleted, target: "ad-tech provider \(providerText) of publisher \(id)", operatorId: session.operatorId,
                               address: RequestOrigin.address, now: console.clock()) { document in
            guard let index = document.publishers.firstIndex(where: { $0.id == id }) else { throw Self.missing("publisher", id) }
            guard let at = document.publishers[index].adTechProviders?.firstIndex(where: { String($0.id) == providerText }) else {
                throw Self.missing("ad-tech provider", providerText)
            }
            try Self.check(match, document.publishers[index].adTechProviders![at])
            document.publishers[index].adTechProviders!.remove(at: at)
            if document.publishers[index].adTechProviders!.isEmpty { document.publishers[index].adTechProviders = nil }
        }
        return Response(status: .noContent)
    }

    // MARK: Apps

    @Sendable func listApps(_ request: Request, context: ConsentdContext) async throws -> Response {
        struct List: Encodable { var apps: [ConfigurationDocument.App] }
        return try jsonResponse(List(apps: try await store.load().document.apps))
    }

    @Sendable func getApp(_ request: Request, context: ConsentdContext) async throws -> Response {
        let id = try context.pathParameter("appId")
        guard let app = try await store.load().document.apps.first(where: { $0.appId == id }) else { throw Self.missing("app", id) }
        return try entryResponse(app)
    }

    @Sendable func createApp(_ request: Request, context: ConsentdContext) async throws -> Response {
        let app = try Self.app(try await Self.object(request))
        let session = try context.requireConsoleSession()
        try await store.change(.configurationCreated, target: "app \(app.appId)", operatorId: session.operatorId,
                               address: RequestOrigin.address, now: console.clock()) { document in
            guard !document.apps.contains(where: { $0.appId == app.appId }) else {
                throw APIError(.conflict, "already_exists", "app \(app.appId) exists already: PUT /v1/console/apps/\(app.appId) changes it", field: "appId")
            }
            try Self.requirePublishers(app.publisherIds, in: document)
            document.apps.append(app)
            document.apps.sort { $0.appId < $1.appId }
        }
        return try entryResponse(app, status: .created)
    }

    @Sendable func replaceApp(_ request: Request, context: ConsentdContext) async throws -> Response {
        let id = try context.pathParameter("appId")
        var body = try await Self.object(request)
        try Self.keepId(&body, key: "appId", path: id)
        let app = try Self.app(body)
        let match = request.headers[.ifMatch]
        let session = try context.requireConsoleSession()
        try await store.change(.configurationUpdated, target: "app \(id)", operatorId: session.operatorId,
                               address: RequestOrigin.address, now: console.clock()) { document in
            guard let index = document.apps.firstIndex(where: { $0.appId == id }) else { throw Self.missing("app", id) }
            try Self.check(match, document.apps[index])
            try Self.requirePublishers(app.publisherIds, in: document)
            document.apps[index] = app
        }
        return try entryResponse(app)
    }

    @Sendable func deleteApp(_ request: Request, context: ConsentdContext) async throws -> Response {
        let id = try context.pathParameter("appId")
        let match = request.headers[.ifMatch]
        let session = try context.requireConsoleSession()
        try await store.change(.configurationDeleted, target: "app \(id)", operatorId: session.operatorId,
                               address: RequestOrigin.address, now: console.clock()) { document in
            guard let index = document.apps.firstIndex(where: { $0.appId == id }) else { throw Self.missing("app", id) }
            try Self.check(match, document.apps[index])
            document.apps.remove(at: index)
        }
        return Response(status: .noContent)
    }

    // MARK: Websites

    @Sendable func listWebsites(_ request: Request, context: ConsentdContext) async throws -> Response {
        struct List: Encodable { var websites: [ConfigurationDocument.Website] }
        return try jsonResponse(List(websites: try await store.load().document.websites))
    }

    @Sendable func getWebsite(_ request: Request, context: ConsentdContext) async throws -> Response {
        let id = try context.pathParameter("appId")
        guard let site = try await store.load().document.websites.first(where: { $0.appId == id }) else { throw Self.missing("website", id) }
        return try entryResponse(site)
    }

    @Sendable func createWebsite(_ request: Request, context: ConsentdContext) async throws -> Response {
        let body = try await Self.object(request)
        let text = try Self.json(body)
        let session = try context.requireConsoleSession()
        let site = try await store.change(.configurationCreated, target: "website \(body["appId"].map { "\($0)" } ?? "")", operatorId: session.operatorId,
                                          address: RequestOrigin.address, now: console.clock()) { document in
            let site = try Self.website(text, in: document)
            guard !document.websites.contains(where: { $0.appId == site.appId }) else {
                throw APIError(.conflict, "already_exists", "website \(site.appId) exists already: PUT /v1/console/websites/\(site.appId) changes it",
                               field: "appId")
            }
            document.websites.append(site)
            document.websites.sort { $0.appId < $1.appId }
            return site
        }
        return try entryResponse(site, status: .created)
    }

    @Sendable func replaceWebsite(_ request: Request, context: ConsentdContext) async throws -> Response {
        let id = try context.pathParameter("appId")
        var body = try await Self.object(request)
        try Self.keepId(&body, key: "appId", path: id)
        let text = try Self.json(body)
        let match = request.headers[.ifMatch]
        let session = try context.requireConsoleSession()
        let site = try await store.change(.configurationUpdated, target: "website \(id)", operatorId: session.operatorId,
                                          address: RequestOrigin.address, now: console.clock()) { document in
            guard let index = document.websites.firstIndex(where: { $0.appId == id }) else { throw Self.missing("website", id) }
            try Self.check(match, document.websites[index])
            let site = try Self.website(text, in: document)
            document.websites[index] = site
            return site
        }
        return try entryResponse(site)
    }

    @Sendable func deleteWebsite(_ request: Request, context: ConsentdContext) async throws -> Response {
        let id = try context.pathParameter("appId")
        let match = request.headers[.ifMatch]
        let session = try context.requireConsoleSession()
        try await store.change(.configurationDeleted, target: "website \(id)", operatorId: session.operatorId,
                               address: RequestOrigin.address, now: console.clock()) { document in
            guard let index = document.websites.firstIndex(where: { $0.appId == id }) else { throw Self.missing("website", id) }
            try Self.check(match, document.websites[index])
            document.websites.remove(at: index)
        }
        return Response(status: .noContent)
    }

    // MARK: Checking bodies with the YAML reader

    /// The body as a JSON object (400 otherwise).
    static func object(_ request: Request) async throws -> [String: Any] {
        var request = request
        let data = try await request.jsonBody(limit: bodyLimit)
        guard let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else {
            throw APIError.badRequest("the body must be a JSON object")
        }
        return object
    }

    /// `object` as JSON text: one mapping, so it can stand in a document for the YAML reader.
    static func json(_ object: [String: Any]) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.withoutEscapingSlashes, .sortedKeys]), as: UTF8.self)
    }

    /// Sets the body's `key` to the path's id, or refuses a different one (ids do not change).
    static func keepId(_ body: inout [String: Any], key: String, path: String) throws {
        guard let sent = body[key] else {
            body[key] = path
            return
        }
        guard "\(sent)" == path, sent is String || sent is NSNumber else {
            throw APIError.badRequest("\(key) must be \(path), the id in the path: an id cannot change (create a new entry instead)", field: key)
        }
    }

    /// The reader's refusal of the entry at `prefix` of a document, naming the entry's own field.
    static func refusal(_ error: ConfigurationError, prefix: String) -> APIError {
        var field = error.field
        if let named = field {
            if named == prefix { field = nil } else if named.hasPrefix(prefix + ".") { field = String(named.dropFirst(prefix.count + 1)) }
        }
        let code = error.message == "is required" ? "missing_field" : "invalid_field"
        return APIError(.badRequest, code, "\(field ?? "the body") \(error.message)", field: field)
    }

    /// A publisher's body, checked as publishers.yaml's entries are (its apps are ``app(_:)``s).
    static func publisher(_ body: [String: Any]) throws -> ConfigurationDocument.Publisher {
        if body["apps"] != nil {
            throw APIError.badRequest("apps is not part of a publisher here: an app names the publishers it reads (POST /v1/console/apps)",
                                      field: "apps")
        }
        let text = #"{"publishers":["# + (try json(body)) + "]}"
        do {
            let configuration = try PublisherConfiguration.parse(text, file: "the request")
            guard let publisher = ConfigurationDocument(configuration).publishers.first else { throw APIError.badRequest("the body must be a publisher") }
            return publisher
        } catch let error as ConfigurationError {
            throw refusal(error, prefix: "publishers[0]")
        }
    }

    /// An ad-tech provider's body, checked as a publisher's `adTechProviders` entries are.
    static func provider(_ body: [String: Any]) throws -> ConfigurationDocument.AdTechProvider {
        let text = #"{"publishers":[{"id":"p","name":"p","adTechProviders":["# + (try json(body)) + "]}]}"
        do {
            let configuration = try PublisherConfiguration.parse(text, file: "the request")
            guard let provider = ConfigurationDocument(configuration).publishers.first?.adTechProviders?.first else {
                throw APIError.badRequest("the body must be an ad-tech provider")
            }
            return provider
        } catch let error as ConfigurationError {
            throw refusal(error, prefix: "publishers[0].adTechProviders[0]")
        }
    }

    /// A website's body (JSON text), checked as publishers.yaml's entries are, against the
    /// publishers of `document`.
    static func website(_ text: String, in document: ConfigurationDocument) throws -> ConfigurationDocument.Website {
        let publishers = ConfigurationDocument.json(document.publishers)
        do {
            let configuration = try PublisherConfiguration.parse(#"{"publishers":"# + publishers + #","websites":["# + text + "]}", file: "the request")
            guard let site = ConfigurationDocument(configuration).websites.first else { throw APIError.badRequest("the body must be a website") }
            return site
        } catch let error as ConfigurationError {
            throw refusal(error, prefix: "websites[0]")
        }
    }

    /// An app's body: `appId` (an app id) and `publisherIds` (one or more publisher ids).
    static func app(_ body: [String: Any]) throws -> ConfigurationDocument.App {
        if let unknown = body.keys.sorted().first(where: { !["appId", "publisherIds"].contains($0) }) {
            throw APIError.badRequest("\(unknown) is not a known setting (expected one of: appId, publisherIds)", field: unknown)
        }
        guard let appId = body["appId"] else { throw APIError(.badRequest, "missing_field", "appId is required", field: "appId") }
        guard let appId = appId as? String, AppID.isValid(appId) else {
            throw APIError.badRequest("appId is not an app id (letters, digits, '.', '-', '_')", field: "appId")
        }
        guard let ids = body["publisherIds"] else {
            throw APIError(.badRequest, "missing_field", "publisherIds is required", field: "publisherIds")
        }
        guard let list = ids as? [Any] else { throw APIError.badRequest("publisherIds must be a list", field: "publisherIds") }
        var publisherIds: [String] = []
        for (index, item) in list.enumerated() {
            guard let id = item as? String, !id.isEmpty else {
                throw APIError.badRequest("publisherIds[\(index)] must be non-empty text", field: "publisherIds[\(index)]")
            }
            if !publisherIds.contains(id) { publisherIds.append(id) }
        }
        guard !publisherIds.isEmpty else { throw APIError.badRequest("publisherIds must name at least one publisher", field: "publisherIds") }
        return ConfigurationDocument.App(appId: appId, publisherIds: publisherIds.sorted())
    }

    /// Refuses publisher ids `document` does not list, as the reader refuses a website's.
    static func requirePublishers(_ ids: [String], in document: ConfigurationDocument) throws {
        for (index, id) in ids.enumerated() where !document.publishers.contains(where: { $0.id == id }) {
            throw APIError.badRequest("publisherIds[\(index)] names publisher \(id), which is not listed under publishers",
                                      field: "publisherIds[\(index)]")
        }
    }

    // MARK: Answers

    static func missing(_ kind: String, _ id: String) -> APIError {
        APIError.notFound("there is no \(kind) \(id)")
    }

    /// The entry's ETag: a hash of its stored JSON.
    static func etag(_ entry: some Encodable) -> String {
        "\"" + String(SHA256.hash(data: Data(ConfigurationDocument.json(entry).utf8)).hexString.prefix(32)) + "\""
    }

    /// Refuses an `If-Match` that names another version of the entry (412).
    static func check(_ match: String?, _ entry: some Encodable) throws {
        guard let match, match != "*" else { return }
        let tag = etag(entry)
        let tags = match.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        guard tags.contains(tag) || tags.contains("W/" + tag) else {
            throw APIError(.preconditionFailed, "precondition_failed",
                           "the entry changed since you read it (If-Match does not name its ETag); read it again and redo the change")
        }
    }

    /// The entry as JSON with its ETag.
    func entryResponse(_ entry: some Encodable, status: HTTPResponse.Status = .ok) throws -> Response {
        var response = try jsonResponse(entry, status: status)
        response.headers[.eTag] = Self.etag(entry)
        return response
    }
}
