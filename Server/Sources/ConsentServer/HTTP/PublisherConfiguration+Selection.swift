import ConsentdAPI

extension PublisherConfiguration {
    /// The publishers named, in order, for a key of `appId`: 400 `unknown_publisher` naming every
    /// unknown one, 403 `publisher_not_for_app` naming every one that is not the app's (its
    /// `apps:` in the publisher configuration does not list the app).
    func selected(_ ids: [String], appId: String) throws -> [AppConfig.Publisher] {
        let unknown = ids.filter { self.publishers[$0] == nil }
        guard unknown.isEmpty else {
            throw APIError(.badRequest, "unknown_publisher", "unknown publisher ids: \(unknown.joined(separator: ", "))", field: "publisherIds")
        }
        let foreign = ids.filter { !publisher($0, belongsTo: appId) }
        guard foreign.isEmpty else {
            throw APIError(.forbidden, "publisher_not_for_app",
                           "publishers \(foreign.joined(separator: ", ")) are not app \(appId)'s: the publisher configuration lists "
                           + "the apps of each publisher under apps", field: "publisherIds")
        }
        return ids.compactMap { self.publishers[$0] }
    }
}
