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
