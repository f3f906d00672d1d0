import HTTPTypes

/// Which roles may use each console route: one table for every route behind the session
/// (``ConsoleSessionMiddleware`` asks it). Owners may use every route; a route missing from the
/// table is refused to every other role (decision 0038).
enum ConsoleAccess {
    /// `METHOD /path/{template}` → the roles besides owner allowed.
    static let table: [String: Set<OperatorRole>] = [
        "GET /v1/console/me": [.editor, .analyst, .support],
        "DELETE /v1/console/session": [.editor, .analyst, .support],
        "GET /v1/console/audit": [],
        // The consent analytics (docs/console.md, "The pages").
        "GET /v1/console/analytics/apps": [.analyst],
        "GET /v1/console/analytics/{report}": [.analyst],
        // Configuration and keys (decision 0041): editors and owners.
        "GET /v1/console/config": [.editor],
        "GET /v1/console/publishers": [.editor],
        "POST /v1/console/publishers": [.editor],
        "GET /v1/console/publishers/{publisherId}": [.editor],
        "PUT /v1/console/publishers/{publisherId}": [.editor],
        "DELETE /v1/console/publishers/{publisherId}": [.editor],
        "GET /v1/console/publishers/{publisherId}/ad-tech-providers": [.editor],
        "POST /v1/console/publishers/{publisherId}/ad-tech-providers": [.editor],
        "PUT /v1/console/publishers/{publisherId}/ad-tech-providers/{providerId}": [.editor],
        "DELETE /v1/console/publishers/{publisherId}/ad-tech-providers/{providerId}": [.editor],
        "GET /v1/console/apps": [.editor],
        "POST /v1/console/apps": [.editor],
        "GET /v1/console/apps/{appId}": [.editor],
        "PUT /v1/console/apps/{appId}": [.editor],
        "DELETE /v1/console/apps/{appId}": [.editor],
        "GET /v1/console/websites": [.editor],
        "POST /v1/console/websites": [.editor],
        "GET /v1/console/websites/{appId}": [.editor],
        "PUT /v1/console/websites/{appId}": [.editor],
        "DELETE /v1/console/websites/{appId}": [.editor],
        "GET /v1/console/keys": [.editor],
        "POST /v1/console/keys": [.editor],
        "DELETE /v1/console/keys/{keyId}": [.editor],
        // The notice's versions and preview (decision record 0043): editors and owners.
        "GET /v1/console/notices": [.editor],
        "GET /v1/console/notices/apps": [.editor],
        "POST /v1/console/notices": [.editor],
        "POST /v1/console/notices/preview": [.editor],
        "GET /v1/console/notices/{appId}/{version}": [.editor],
        "PUT /v1/console/notices/{appId}/{version}": [.editor],
        "POST /v1/console/notices/{appId}/{version}/publish": [.editor],
        // Data-subject requests (decision 0042): support and owner.
        "GET /v1/console/subjects": [.support],
        "GET /v1/console/subjects/events": [.support],
        "GET /v1/console/subjects/export": [.support],
        "DELETE /v1/console/subjects": [.support],
        "POST /v1/console/subjects/restart": [.support],
        "POST /v1/console/chain/verify": [.support],
    ]

    /// Whether `role` may use the route `METHOD path`.
    static func allows(_ role: OperatorRole, _ method: HTTPRequest.Method, _ path: String) -> Bool {
        role == .owner || table["\(method) \(path)"]?.contains(role) == true
    }
}
