import ConsentdAPI
import HTTPTypes
import Hummingbird

extension Consentd {
    /// `GET /v1/config`.
    func addConfigRoutes(to router: Router<ConsentdContext>) {
        router.get("/v1/config") { request, context -> Response in
            let principal = try await self.authenticate(request, allowing: [.publishable, .secret], action: "read the app configuration")
            let selected = try self.publishers(for: publisherIds(request), appId: principal.appId)
            var debug: DebugRegion?
            if let value = request.query(DebugRegion.queryName) {
                guard let parsed = DebugRegion(rawValue: value) else {
                    throw APIError.badRequest(
                        "\(DebugRegion.queryName) must be one of \(DebugRegion.allCases.map(\.rawValue).joined(separator: ", "))",
                        field: DebugRegion.queryName)
                }
                // Only test setups pretend a region (--allow-debug-region); elsewhere it is ignored.
                debug = self.settings.allowDebugRegion ? parsed : nil
            }
            let headerValue = self.resolver.countryHeader.flatMap { name in HTTPField.Name(name).flatMap { request.headers[$0] } }
            let decision = self.resolver.decide(headerValue: headerValue, address: clientAddress(request, context, header: self.settings.clientIPHeader), debug: debug)
            var providers: [Int: AppConfig.AdTechProvider] = [:]
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
                gvlSpecificationVersion: list.gvlSpecificationVersion, cmp: self.settings.cmp))
        }
    }

    /// The publishers named, in order, for a key of `appId`: 400 `unknown_publisher` naming every
    /// unknown one, 403 `publisher_not_for_app` naming every one that is not the app's (its
    /// `apps:` in the publisher configuration does not list the app).
    func publishers(for ids: [String], appId: String) throws -> [AppConfig.Publisher] {
        let unknown = ids.filter { publishers.publishers[$0] == nil }
        guard unknown.isEmpty else {
            throw APIError(.badRequest, "unknown_publisher", "unknown publisher ids: \(unknown.joined(separator: ", "))", field: "publisherIds")
        }
        let foreign = ids.filter { !publishers.publisher($0, belongsTo: appId) }
        guard foreign.isEmpty else {
            throw APIError(.forbidden, "publisher_not_for_app",
                           "publishers \(foreign.joined(separator: ", ")) are not app \(appId)'s: the publisher configuration lists "
                           + "the apps of each publisher under apps", field: "publisherIds")
        }
        return ids.compactMap { publishers.publishers[$0] }
    }
}
