import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// The console's consent analytics (issue 29 §3), under `/v1/console` behind the
/// ``ConsoleSessionMiddleware`` (analyst and owner, ``ConsoleAccess``):
/// `GET /analytics/{report}?app=…` answers what the secret key's `GET /v1/analytics/{report}`
/// answers, with the same parameters, checks, JSON and CSV (``AnalyticsController``), for the app
/// `app` names: an operator sees every app of the consentd. `GET /analytics/apps` lists the apps
/// with figures.
struct ConsoleAnalyticsController {
    let console: Console
    let analytics: ConsentAnalytics

    /// The routes, under `/v1/console`.
    var endpoints: RouteCollection<ConsentdContext> {
        let routes = RouteCollection(context: ConsentdContext.self)
        routes.group()
            .add(middleware: ConsoleSessionMiddleware(console: console))
            .get("analytics/apps", use: apps)
            .get("analytics/{report}", use: report)
        return routes
    }

    /// The longest app id the route takes (the keys' app ids are shorter).
    static let maximumAppIdBytes = 128

    /// `GET /v1/console/analytics/{report}?app=…`, with ``AnalyticsController/query(_:report:today:)``'s
    /// parameters; the CSV comes as a download (`Content-Disposition`) named after the report, the
    /// app and the range.
    @Sendable func report(_ request: Request, context: ConsentdContext) async throws -> Response {
        guard let app = request.query("app"), !app.isEmpty else {
            throw APIError(.badRequest, "missing_field", "app is required: the id of the app whose figures to read (GET /v1/console/analytics/apps)",
                           field: "app")
        }
        guard app.utf8.count <= Self.maximumAppIdBytes else {
            throw APIError.badRequest("app may have at most \(Self.maximumAppIdBytes) bytes", field: "app")
        }
        let query = try AnalyticsController.query(request, report: context.parameters.require("report"), today: Date())
        let page = try await analytics.page(query, appId: app)
        if try AnalyticsController.wantsCSV(request) {
            var headers: HTTPFields = [.contentType: "text/csv; charset=utf-8", .cacheControl: "no-store"]
            if let next = page.nextCursor { headers[AnalyticsController.nextCursorHeader] = next }
            headers[.contentDisposition] = #"attachment; filename="\#(Self.fileName(query, app: app))""#
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: AnalyticsController.csv(page.rows))))
        }
        var response = jsonResponse(text: AnalyticsController.json(page, query: query))
        response.headers[.cacheControl] = "no-store"
        return response
    }

    /// `GET /v1/console/analytics/apps`: the ids of the apps with figures, in order.
    @Sendable func apps(_ request: Request, context: ConsentdContext) async throws -> Response {
        struct Apps: Encodable {
            var apps: [String]
        }
        return try jsonResponse(Apps(apps: try await analytics.apps()))
    }

    /// `consent-<report>[-<by>]-<app>-<from>-<to>.csv`, of characters safe in a header and a file name.
    static func fileName(_ query: AnalyticsQuery, app: String) -> String {
        let safeApp = String(app.unicodeScalars.map { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "._-".unicodeScalars.contains($0)) ? Character($0) : "_" })
        let by = query.by.map { "-" + $0.rawValue } ?? ""
        return "consent-\(query.report.rawValue)\(by)-\(safeApp)-\(AnalyticsQuery.dayLabel(query.from))-\(AnalyticsQuery.dayLabel(query.to)).csv"
    }
}
