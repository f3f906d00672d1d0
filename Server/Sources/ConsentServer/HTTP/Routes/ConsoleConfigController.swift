import Crypto
import Foundation
import Hummingbird

/// The console's configuration routes, under `/v1/console` behind the ``ConsoleSessionMiddleware``
/// (editor and owner; decision 0041): publishers (their settings), their ad-tech providers, apps
/// and websites, each listed, read, created, replaced and deleted (publishers, apps and websites
/// by one set of handlers, ``ConfigEntries``). Every body is checked by the
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
            .entries(Self.publishers, controller: self)
            .get("publishers/{publisherId}/ad-tech-providers", use: listProviders)
            .post("publishers/{publisherId}/ad-tech-providers", use: createProvider)
            .put("publishers/{publisherId}/ad-tech-providers/{providerId}", use: replaceProvider)
            .delete("publishers/{publisherId}/ad-tech-providers/{providerId}", use: deleteProvider)
            .entries(Self.apps, controller: self)
            .entries(Self.websites, controller: self)
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

    // MARK: Publishers, apps and websites

    /// Publishers: `id`, checked as publishers.yaml's entries are (their apps are ``app(_:)``s).
    static let publishers = ConfigEntries<ConfigurationDocument.Publisher>(
        kind: "publisher", path: "publishers", idKey: "id", entries: \.publishers, id: \.id) { text, _ in try publisher(try object(text)) }

    /// Apps: `appId` and the publishers it reads, which must be listed.
    static let apps = ConfigEntries<ConfigurationDocument.App>(kind: "app", path: "apps", idKey: "appId", entries: \.apps, id: \.appId) {
        text, document in
        let app = try app(try object(text))
        try requirePublishers(app.publisherIds, in: document)
        return app
    }

    /// Websites: `appId` and their notice, checked against the publishers listed.
    static let websites = ConfigEntries<ConfigurationDocument.Website>(
        kind: "website", path: "websites", idKey: "appId", entries: \.websites, id: \.appId) { text, document in
        try website(text, in: document)
    }

    /// `GET /v1/console/{path}`: every entry of the kind.
    func list<Entry>(_ kind: ConfigEntries<Entry>) -> @Sendable (Request, ConsentdContext) async throws -> Response {
        { _, _ in try jsonResponse([kind.path: try await store.load().document[keyPath: kind.entries]]) }
    }

    /// `GET /v1/console/{path}/{id}`: one entry, with its ETag.
    func get<Entry>(_ kind: ConfigEntries<Entry>) -> @Sendable (Request, ConsentdContext) async throws -> Response {
        { _, context in
            let id = try context.pathParameter(kind.idParameter)
            guard let entry = try await store.load().document[keyPath: kind.entries].first(where: { $0[keyPath: kind.id] == id }) else {
                throw Self.missing(kind.kind, id)
            }
            return try entryResponse(entry)
        }
    }

    /// `POST /v1/console/{path}`: a new entry (409 `already_exists` for an id listed).
    func create<Entry>(_ kind: ConfigEntries<Entry>) -> @Sendable (Request, ConsentdContext) async throws -> Response {
        { request, context in
            let body = try await Self.object(request)
            let text = try Self.json(body)
            let session = try context.requireConsoleSession()
            let entry = try await store.change(.configurationCreated, target: "\(kind.kind) \(body[kind.idKey].map { "\($0)" } ?? "")",
                                               operatorId: session.operatorId, address: RequestOrigin.address, now: console.clock()) { document in
                let entry = try kind.parse(text, document)
                let id = entry[keyPath: kind.id]
                guard !document[keyPath: kind.entries].contains(where: { $0[keyPath: kind.id] == id }) else {
                    throw APIError(.conflict, "already_exists", "\(kind.kind) \(id) exists already: PUT /v1/console/\(kind.path)/\(id) changes it",
                                   field: kind.idKey)
                }
                document[keyPath: kind.entries].append(entry)
                document[keyPath: kind.entries].sort { $0[keyPath: kind.id] < $1[keyPath: kind.id] }
                return entry
            }
            return try entryResponse(entry, status: .created)
        }
    }

    /// `PUT /v1/console/{path}/{id}`: the entry replaced (its id cannot change; `If-Match` checked).
    func replace<Entry>(_ kind: ConfigEntries<Entry>) -> @Sendable (Request, ConsentdContext) async throws -> Response {
        { request, context in
            let id = try context.pathParameter(kind.idParameter)
            var body = try await Self.object(request)
            try Self.keepId(&body, key: kind.idKey, path: id)
            let text = try Self.json(body)
            let match = request.headers[.ifMatch]
            let session = try context.requireConsoleSession()
            let entry = try await store.change(.configurationUpdated, target: "\(kind.kind) \(id)", operatorId: session.operatorId,
                                               address: RequestOrigin.address, now: console.clock()) { document in
                guard let index = document[keyPath: kind.entries].firstIndex(where: { $0[keyPath: kind.id] == id }) else {
                    throw Self.missing(kind.kind, id)
                }
                try Self.check(match, document[keyPath: kind.entries][index])
                let entry = try kind.parse(text, document)
                document[keyPath: kind.entries][index] = entry
                return entry
            }
            return try entryResponse(entry)
        }
    }

    /// `DELETE /v1/console/{path}/{id}` (`If-Match` checked).
    func delete<Entry>(_ kind: ConfigEntries<Entry>) -> @Sendable (Request, ConsentdContext) async throws -> Response {
        { request, context in
            let id = try context.pathParameter(kind.idParameter)
            let match = request.headers[.ifMatch]
            let session = try context.requireConsoleSession()
            try await store.change(.configurationDeleted, target: "\(kind.kind) \(id)", operatorId: session.operatorId,
                                   address: RequestOrigin.address, now: console.clock()) { document in
                guard let index = document[keyPath: kind.entries].firstIndex(where: { $0[keyPath: kind.id] == id }) else {
                    throw Self.missing(kind.kind, id)
                }
                try Self.check(match, document[keyPath: kind.entries][index])
                document[keyPath: kind.entries].remove(at: index)
            }
            return Response(status: .noContent)
        }
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

    /// JSON text of an object (``json(_:)``'s) read back as the object.
    static func object(_ text: String) throws -> [String: Any] {
        guard let object = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] else {
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

/// One kind of entry of the configuration that the console lists, reads, creates, replaces and
/// deletes under `/v1/console/{path}`: where the entries are in the document, their id, and how a
/// body becomes one (checked against the configuration it joins, in the transaction that writes it).
struct ConfigEntries<Entry: Codable & Sendable>: Sendable {
    /// The entry's name in answers and the audit log ("publisher").
    let kind: String
    /// The routes' path under `/v1/console`, and the list's key in its answer ("publishers").
    let path: String
    /// The id's key in a body ("id", "appId").
    let idKey: String
    /// The entries in the configuration.
    let entries: WritableKeyPath<ConfigurationDocument, [Entry]> & Sendable
    /// An entry's id.
    let id: KeyPath<Entry, String> & Sendable
    /// A body (JSON text of an object) checked as the entry it becomes, in `document`.
    let parse: @Sendable (_ text: String, _ document: ConfigurationDocument) throws -> Entry

    /// The id's path parameter ("publisherId", "appId").
    var idParameter: String { idKey == "id" ? kind + "Id" : idKey }
}

extension RouterGroup<ConsentdContext> {
    /// The five routes of `kind`: list, read, create, replace and delete.
    @discardableResult
    fileprivate func entries<Entry>(_ kind: ConfigEntries<Entry>, controller: ConsoleConfigController) -> Self {
        get(RouterPath(kind.path), use: controller.list(kind))
            .post(RouterPath(kind.path), use: controller.create(kind))
            .get(RouterPath("\(kind.path)/{\(kind.idParameter)}"), use: controller.get(kind))
            .put(RouterPath("\(kind.path)/{\(kind.idParameter)}"), use: controller.replace(kind))
            .delete(RouterPath("\(kind.path)/{\(kind.idParameter)}"), use: controller.delete(kind))
    }
}
