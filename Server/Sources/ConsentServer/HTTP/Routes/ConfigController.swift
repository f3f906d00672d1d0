import ConsentdAPI
import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// `GET /v1/config`: an app's configuration (its publishers, vendors, region decision, vendor
/// list versions and CMP identity), for a publishable or secret key.
struct ConfigController {
    let authenticator: Authenticator
    let publishers: PublisherDirectory
    let resolver: RegionResolver
    let catalog: VendorListCatalog
    /// The CMP identity the configuration names (``ServerSettings/cmp``).
    let cmp: AppConfig.CMP
    /// The trusted proxy's client-address header (``ServerSettings/clientIPHeader``).
    let clientIPHeader: String?
    /// The notices published in the console (decision record 0043).
    var published = PublishedNotices()

    /// The route, under `/v1/config`.
    var endpoints: RouteCollection<ConsentdContext> {
        let routes = RouteCollection(context: ConsentdContext.self)
        routes.group().add(middleware: authenticator.require([.publishable, .secret], to: "read the app configuration"))
            .get(use: config)
        return routes
    }

    /// `GET /v1/config?publisherIds=…`.
    @Sendable func config(_ request: Request, context: ConsentdContext) async throws -> Response {
        let principal = try context.requirePrincipal()
        // One read: a reload between two would mix two configurations.
        let configuration = publishers.current
        let ids = try publisherIds(request)
        let selected = try configuration.selected(ids, appId: principal.appId)
        var debug: DebugRegion?
        if let value = request.query(DebugRegion.queryName) {
            // Refused even where the resolver ignores it (without --allow-debug-region), so a typo shows in a test setup.
            guard let parsed = DebugRegion(rawValue: value) else {
                throw APIError.badRequest("\(DebugRegion.queryName) must be \(DebugRegion.forms), not \(value)", field: DebugRegion.queryName)
            }
            debug = parsed
        }
        let decision = resolver.decide(headers: request.headers, address: clientAddress(request, context, header: clientIPHeader), debug: debug)
        var providers: [Int: AppConfig.AdTechProvider] = [:]
        for publisher in selected {
            for provider in publisher.adTechProviders where providers[provider.id] == nil { providers[provider.id] = provider }
        }
        let list = catalog.vendorList
        var answer = AppConfig(
            appId: principal.appId, gdprApplies: decision.gdprApplies, region: decision.region, country: decision.country,
            geoSource: decision.geoSource, publishers: selected,
            vendorIds: Array(Set(selected.flatMap(\.vendorIds))).sorted(),
            adTechProviders: providers.values.sorted { $0.id < $1.id },
            vendorListVersion: list.vendorListVersion, tcfPolicyVersion: list.tcfPolicyVersion ?? 0,
            gvlSpecificationVersion: list.gvlSpecificationVersion, cmp: cmp, subdivision: decision.subdivision,
            gpp: decision.gpp(configuration.usPrivacy(publisherIds: ids)))
        if let notice = published.notice(appId: principal.appId) {
            answer.notice = AppConfig.NoticeVersions(
                noticeVersion: notice.noticeVersion, materialNoticeVersion: notice.materialVersion, options: notice.options)
        }
        return try taggedJSONResponse(request, answer)
    }
}

/// `value` as JSON with a strong `ETag` of its bytes and `Cache-Control: private, no-cache`; 304
/// without a body when `If-None-Match` names that tag (strong or weak) or `*`. A change of the
/// configuration changes the body, so the tag: a client that sends the old one gets the new value.
func taggedJSONResponse(_ request: Request, _ value: some Encodable) throws -> Response {
    let encoder = JSONEncoder()
    // Sorted keys: the same value gives the same bytes, so the same tag.
    encoder.outputFormatting = [.withoutEscapingSlashes, .sortedKeys]
    let body = try encoder.encode(value)
    let etag = "\"" + String(SHA256.hash(data: body).hexString.prefix(32)) + "\""
    var headers: HTTPFields = [.eTag: etag, .cacheControl: "private, no-cache"]
    if let match = request.headers[.ifNoneMatch],
       match.split(separator: ",").contains(where: {
           let tag = $0.trimmingCharacters(in: .whitespaces)
           return tag == etag || tag == "W/" + etag || tag == "*"
       }) {
        return Response(status: .notModified, headers: headers)
    }
    headers[.contentType] = "application/json; charset=utf-8"
    return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(data: body)))
}
