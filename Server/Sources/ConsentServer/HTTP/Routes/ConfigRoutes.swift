import HTTPTypes
import Hummingbird

/// The answer of `GET /v1/config`: where the request comes from and what the publishers use.
struct AppConfig: Encodable {
    var appId: String
    var gdprApplies: Bool?
    var region: RegionDecision.Region
    var country: String?
    var geoSource: RegionDecision.Source
    var publishers: [PublisherConfiguration.Publisher]
    var vendorIds: [Int]
    var adTechProviders: [PublisherConfiguration.AdTechProvider]
    var vendorListVersion: Int
    var tcfPolicyVersion: Int
    var gvlSpecificationVersion: Int

    private enum CodingKeys: String, CodingKey {
        case appId, gdprApplies, region, country, geoSource, publishers, vendorIds, adTechProviders
        case vendorListVersion, tcfPolicyVersion, gvlSpecificationVersion
    }

    // gdprApplies and country are written as null when unknown, not left out.
    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(appId, forKey: .appId)
        try c.encode(gdprApplies, forKey: .gdprApplies)
        try c.encode(region, forKey: .region)
        try c.encode(country, forKey: .country)
        try c.encode(geoSource, forKey: .geoSource)
        try c.encode(publishers, forKey: .publishers)
        try c.encode(vendorIds, forKey: .vendorIds)
        try c.encode(adTechProviders, forKey: .adTechProviders)
        try c.encode(vendorListVersion, forKey: .vendorListVersion)
        try c.encode(tcfPolicyVersion, forKey: .tcfPolicyVersion)
        try c.encode(gvlSpecificationVersion, forKey: .gvlSpecificationVersion)
    }
}

extension Consentd {
    /// `GET /v1/config`.
    func addConfigRoutes(to router: Router<ConsentdContext>) {
        router.get("/v1/config") { request, context -> Response in
            let principal = try await self.authenticate(request, allowing: [.publishable, .secret], action: "read the app configuration")
            let selected = try self.publishers(for: publisherIds(request))
            var debug: DebugGeography?
            if let value = request.query("debug_geo") {
                guard let parsed = DebugGeography(rawValue: value) else {
                    throw APIError.badRequest("debug_geo must be eea or not_eea", field: "debug_geo")
                }
                debug = parsed
            }
            let headerValue = self.resolver.countryHeader.flatMap { name in HTTPField.Name(name).flatMap { request.headers[$0] } }
            let decision = self.resolver.decide(headerValue: headerValue, address: clientAddress(request, context, header: self.settings.clientIPHeader), debug: debug)
            var providers: [Int: PublisherConfiguration.AdTechProvider] = [:]
            for publisher in selected {
                for provider in publisher.adTechProviders where providers[provider.id] == nil { providers[provider.id] = provider }
            }
            let list = self.catalog.vendorList
            return try jsonResponse(AppConfig(
                appId: principal.appId, gdprApplies: decision.gdprApplies, region: decision.region, country: decision.country,
                geoSource: decision.geoSource, publishers: selected,
                vendorIds: Array(Set(selected.flatMap(\.vendorIds))).sorted(),
                adTechProviders: providers.values.sorted { $0.id < $1.id },
                vendorListVersion: list.vendorListVersion, tcfPolicyVersion: list.tcfPolicyVersion ?? 0,
                gvlSpecificationVersion: list.gvlSpecificationVersion))
        }
    }

    /// The publishers named, in order; 400 `unknown_publisher` naming every unknown one.
    func publishers(for ids: [String]) throws -> [PublisherConfiguration.Publisher] {
        let unknown = ids.filter { publishers.publishers[$0] == nil }
        guard unknown.isEmpty else {
            throw APIError(.badRequest, "unknown_publisher", "unknown publisher ids: \(unknown.joined(separator: ", "))", field: "publisherIds")
        }
        return ids.compactMap { publishers.publishers[$0] }
    }
}
