import ConsentKit
import ConsentKitUI
import ConsentdAPI
import Foundation
import Hummingbird

/// The notice's versions in the console (decision record 0043), under `/v1/console`, behind the
/// ``ConsoleSessionMiddleware`` (editors and owners, ``ConsoleAccess``): `GET /notices?appId=`
/// (the versions and what is published), `POST /notices` (a new draft), `GET` and `PUT
/// /notices/{appId}/{version}` (a version; a draft's options replaced), `POST
/// /notices/{appId}/{version}/publish`, and `POST /notices/preview` (the notice document the
/// real notice page shows for options not yet saved, in a language and mode).
struct NoticeVersionsController {
    let console: Console
    let versions: NoticeVersions
    let web: WebCMP
    let publishers: PublisherDirectory
    let cpuWork: CPUWorkGate

    /// The largest body: options with a logo of 100 KB as a `data:` URL and texts.
    static let bodyLimit = 262_144

    /// The routes, under `/v1/console`.
    var endpoints: RouteCollection<ConsentdContext> {
        let routes = RouteCollection(context: ConsentdContext.self)
        routes.group()
            .add(middleware: ConsoleSessionMiddleware(console: console))
            .get("notices", use: list)
            .get("notices/apps", use: apps)
            .post("notices", use: create)
            .post("notices/preview", use: preview)
            .get("notices/{appId}/{version}", use: get)
            .put("notices/{appId}/{version}", use: update)
            .post("notices/{appId}/{version}/publish", use: publish)
        return routes
    }

    /// `GET /v1/console/notices/apps`: the websites and apps whose notice the console edits, by
    /// app id, with the notice version published now.
    @Sendable func apps(_ request: Request, context: ConsentdContext) async throws -> Response {
        struct App: Encodable {
            var appId: String
            var kind: String
            var name: String
            var noticeVersion: Int
        }
        _ = try context.requireConsoleSession()
        let configuration = web.configuration
        var apps: [String: App] = [:]
        for (id, appIds) in configuration.publisherApps {
            for appId in appIds where apps[appId] == nil {
                apps[appId] = App(appId: appId, kind: "app", name: configuration.publishers[id]?.name ?? appId, noticeVersion: 0)
            }
        }
        for (appId, website) in configuration.websites { apps[appId] = App(appId: appId, kind: "website", name: website.name, noticeVersion: 0) }
        let answer = apps.values.sorted { $0.appId < $1.appId }.map { app in
            var app = app
            app.noticeVersion = web.published.notice(appId: app.appId)?.noticeVersion ?? 0
            return app
        }
        return try jsonResponse(["apps": answer])
    }

    /// `GET /v1/console/notices?appId=…`: the app's versions, newest first, what is published, and
    /// the options a first draft starts from.
    @Sendable func list(_ request: Request, context: ConsentdContext) async throws -> Response {
        struct Answer: Encodable {
            var appId: String
            var kind: String
            var noticeVersion: Int
            var materialNoticeVersion: Int
            var publishedVersion: Int?
            var baseline: NoticeOptions
            var versions: [NoticeVersion]
            var languages: [String]
        }
        _ = try context.requireConsoleSession()
        guard let appId = request.query("appId") else {
            throw APIError(.badRequest, "missing_field", "appId is required: the app or website whose notice to list", field: "appId")
        }
        let target = try target(appId: appId)
        let published = web.published.notice(appId: appId)
        return try jsonResponse(Answer(
            appId: appId, kind: target.kind,
            noticeVersion: published?.noticeVersion ?? 0, materialNoticeVersion: published?.materialVersion ?? 0,
            publishedVersion: published?.version, baseline: target.baseline, versions: try await versions.list(appId: appId),
            languages: NoticeTexts.languages()))
    }

    /// `POST /v1/console/notices` `{appId, options?, from?}`: a new draft holding `options`, else
    /// a copy of version `from`, else of the published version, else the baseline. 201.
    @Sendable func create(_ request: Request, context: ConsentdContext) async throws -> Response {
        let session = try context.requireConsoleSession()
        struct Fields: Decodable { var from: Int? }
        let (body, fields) = try await Self.body(request, known: ["appId", "options", "from"], as: Fields.self)
        let appId = try Self.appId(body)
        let target = try target(appId: appId)
        let options: NoticeOptions
        if body["options"] != nil {
            options = try NoticeOptions.decode(body["options"])
        } else if let from = fields.from {
            options = try await versions.get(appId: appId, version: from).options
        } else {
            options = web.published.notice(appId: appId)?.options ?? target.baseline
        }
        try await check(options, target: target)
        let draft = try await versions.createDraft(appId: appId, options: options, by: session.operatorId, address: Self.address,
                                                   now: console.clock())
        return try jsonResponse(draft, status: .created)
    }

    /// `GET /v1/console/notices/{appId}/{version}`.
    @Sendable func get(_ request: Request, context: ConsentdContext) async throws -> Response {
        _ = try context.requireConsoleSession()
        let (appId, version) = try Self.path(context)
        return try jsonResponse(try await versions.get(appId: appId, version: version))
    }

    /// `PUT /v1/console/notices/{appId}/{version}` `{options}`: a draft's options replaced, after
    /// the checks of a notice build; 409 for a published version.
    @Sendable func update(_ request: Request, context: ConsentdContext) async throws -> Response {
        let session = try context.requireConsoleSession()
        let (appId, version) = try Self.path(context)
        let (body, _) = try await Self.body(request, known: ["options"], as: Empty.self)
        let target = try target(appId: appId)
        let options = try NoticeOptions.decode(body["options"])
        try await check(options, target: target)
        return try jsonResponse(try await versions.updateDraft(appId: appId, version: version, options: options, by: session.operatorId,
                                                               address: Self.address, now: console.clock()))
    }

    /// `POST /v1/console/notices/{appId}/{version}/publish` `{reask?}`: publishes a draft.
    @Sendable func publish(_ request: Request, context: ConsentdContext) async throws -> Response {
        let session = try context.requireConsoleSession()
        let (appId, version) = try Self.path(context)
        struct Fields: Decodable { var reask: Bool? }
        let (_, fields) = try await Self.body(request, known: ["reask"], as: Fields.self, emptyAllowed: true)
        let reask = fields.reask ?? false
        let target = try target(appId: appId)
        let draft = try await versions.get(appId: appId, version: version)
        // Checked again: the vendor list or the site may have changed since the draft was saved.
        if draft.state == "draft" { try await check(draft.options, target: target) }
        return try jsonResponse(try await versions.publish(appId: appId, version: version, reask: reask, baseline: target.baseline,
                                                           by: session.operatorId, address: Self.address, now: console.clock()))
    }

    /// `POST /v1/console/notices/preview` `{appId, options, language?, mode?}`: the notice's
    /// document for the real notice page (`/notice/notice.html`, `ConsentKitNotice.configure`),
    /// built as the served notice is, with `options`, in `language` (the default of the options
    /// when absent) and `mode` (`tcf`, `google` or `us`, a visitor in California).
    @Sendable func preview(_ request: Request, context: ConsentdContext) async throws -> Response {
        _ = try context.requireConsoleSession()
        struct Fields: Decodable {
            var language: String?
            var mode: String?
        }
        let (body, fields) = try await Self.body(request, known: ["appId", "options", "language", "mode"], as: Fields.self)
        let appId = try Self.appId(body)
        let target = try target(appId: appId)
        let options = try NoticeOptions.decode(body["options"])
        let language = fields.language ?? options.languages.first ?? "en"
        guard options.languages.contains(language) else {
            throw APIError(.badRequest, "invalid_field", "language must be one of the options' languages (\(options.languages.joined(separator: ", ")))",
                           field: "language")
        }
        guard let mode = NoticeSettings.Mode(rawValue: fields.mode ?? "tcf") else {
            throw APIError(.badRequest, "invalid_field", "mode must be tcf, google or us", field: "mode")
        }
        let json = try await cpuWork.run { try self.document(options, target: target, language: language, mode: mode).json() }
        return jsonResponse(text: String(decoding: json, as: UTF8.self))
    }

    // MARK: - Building

    /// The app or website a notice belongs to: the site the notice is built for (a website's, or
    /// for an app its publishers' vendors and providers), its kind and the options it starts from.
    struct Target: Sendable {
        var site: WebCMP.Site
        var kind: String
        var baseline: NoticeOptions
    }

    /// The website or app `appId`; 404 `app_unknown` when the configuration has neither.
    func target(appId: String) throws -> Target {
        guard appId.utf8.count <= 200 else { throw APIError(.badRequest, "invalid_field", "appId is too long", field: "appId") }
        let configuration = web.configuration
        if let website = configuration.websites[appId] {
            var site = try web.site(appId: appId)
            site.notice = nil
            return Target(site: site, kind: "website", baseline: .baseline(
                name: website.name, privacyPolicyURL: website.privacyPolicyURL, layout: website.layout, logo: website.logo, theme: website.theme))
        }
        let ids = configuration.publisherApps.filter { $0.value.contains(appId) }.keys.sorted()
        guard !ids.isEmpty else {
            throw APIError(.notFound, "app_unknown", "no website or app \(appId) is configured: name it under a publisher's apps or under websites",
                           field: "appId")
        }
        let publishers = ids.compactMap { configuration.publishers[$0] }
        let active = Set(web.catalog.vendorList.activeVendors().map(\.id))
        var providers: [Int: AppConfig.AdTechProvider] = [:]
        for provider in publishers.flatMap(\.adTechProviders) where providers[provider.id] == nil { providers[provider.id] = provider }
        let name = publishers.first?.name ?? appId
        // The website record only carries the publishers and name; its privacy policy is the options'.
        let website = PublisherConfiguration.Website(appId: appId, name: name, privacyPolicyURL: URL(string: "about:blank")!, publisherIds: ids)
        let site = WebCMP.Site(
            website: website, vendorIds: Set(publishers.flatMap(\.vendorIds)).intersection(active).sorted(),
            adTechProviders: providers.values.sorted { $0.id < $1.id }, nonPersonalizedOnly: publishers.contains(where: \.nonPersonalizedOnly),
            usPrivacy: configuration.usPrivacy(publisherIds: ids))
        return Target(site: site, kind: "app", baseline: .baseline(name: name, privacyPolicyURL: nil))
    }

    /// Builds the notice in every language of `options`, as the served notice is built: a
    /// refusal of the build (contrast, unequal or blank labels, an unknown text key, a logo) is a
    /// 422 `notice_refused` naming the field.
    func check(_ options: NoticeOptions, target: Target) async throws {
        try await cpuWork.run {
            for language in options.languages {
                _ = try self.document(options, target: target, language: language, mode: .tcf)
            }
        }
    }

    /// The notice of `target` with `options` in `language` and `mode`, for a visitor without a decision.
    func document(_ options: NoticeOptions, target: Target, language: String, mode: NoticeSettings.Mode) throws -> NoticeDocument {
        var site = target.site
        site.notice = PublishedNotice(appId: site.website.appId, version: 0, noticeVersion: 0, materialVersion: 0, materialSince: .distantPast,
                                      options: options)
        var settings = options.settings(language: language, mode: mode)
        if mode == .google {
            settings.appName = options.publisherName
        }
        do {
            switch mode {
            case .us:
                let region = RegionDecision(gdprApplies: false, region: .us, country: "US", subdivision: "CA", geoSource: .debug)
                return try NoticeDocument.build(
                    us: region.gpp(site.usPrivacy), subdivision: "CA", signals: USPrivacySignals(gpc: false, knownChild: false), current: nil,
                    settings: settings, cmp: web.cmp, noticeVersion: 0, language: language,
                    request: NoticeRequest(reason: .noDecision, allowsDismissal: false, isUserInitiated: false))
            case .tcf, .google:
                let scope = try web.scope(site, language: language)
                return try NoticeDocument.build(
                    scope: scope, settings: settings, cmp: web.cmp, current: nil,
                    request: NoticeRequest(reason: .noDecision, allowsDismissal: false, isUserInitiated: false),
                    adTechProviders: site.adTechProviders)
            }
        } catch let error as NoticeDocumentError {
            throw APIError(.unprocessableContent, "notice_refused", "\(language): \(error)", field: error.optionsField(language: language))
        }
    }

    // MARK: - Requests

    private static var address: String { RequestOrigin.address ?? "unknown" }

    private struct Empty: Decodable {}

    /// The body as an object whose keys are all `known`, and its scalar fields decoded as `Fields`
    /// (a wrong type is a 400 naming the field).
    private static func body<Fields: Decodable>(_ request: Request, known: Set<String>, as type: Fields.Type, emptyAllowed: Bool = false)
        async throws -> ([String: Any], Fields) {
        var request = request
        var data = emptyAllowed && request.headers[.contentType] == nil ? Data() : try await request.jsonBody(limit: bodyLimit)
        if data.isEmpty, emptyAllowed { data = Data("{}".utf8) }
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw APIError.badRequest("the body must be a JSON object")
        }
        if let unknown = object.keys.sorted().first(where: { !known.contains($0) }) {
            throw APIError(.badRequest, "unknown_field", "\(unknown) is not a field of this request (\(known.sorted().joined(separator: ", ")))",
                           field: unknown)
        }
        do {
            return (object, try JSONDecoder().decode(type, from: data))
        } catch let DecodingError.typeMismatch(_, context) {
            let field = context.codingPath.first?.stringValue ?? ""
            throw APIError(.badRequest, "invalid_field", "\(field) has the wrong type (see docs/consentd-api.md)", field: field)
        } catch {
            throw APIError.badRequest("the body does not decode: \(error)")
        }
    }

    private static func appId(_ body: [String: Any]) throws(APIError) -> String {
        guard let appId = body["appId"] as? String, !appId.isEmpty else {
            throw APIError(.badRequest, "missing_field", "appId is required: the app or website the notice is for", field: "appId")
        }
        return appId
    }

    private static func path(_ context: ConsentdContext) throws -> (String, Int) {
        let appId = try context.parameters.require("appId")
        guard let text = context.parameters.get("version"), let version = Int(text), version > 0 else {
            throw APIError(.badRequest, "invalid_field", "version must be a version's number (1, 2, …)", field: "version")
        }
        return (appId, version)
    }
}
