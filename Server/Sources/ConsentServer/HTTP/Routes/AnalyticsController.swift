import ConsentKitFormats
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// `GET /v1/analytics/{report}`: the consent analytics (docs/decisions/0039) for the secret key's
/// app, as JSON or CSV (`Accept: text/csv` or `format=csv`), one bounded page at a time.
struct AnalyticsController {
    let authenticator: Authenticator
    let analytics: ConsentAnalytics

    /// The route, under `/v1`.
    var endpoints: RouteCollection<ConsentdContext> {
        let routes = RouteCollection(context: ConsentdContext.self)
        routes.group().add(middleware: authenticator.require([.secret], to: "read consent analytics"))
            .get("analytics/{report}", use: report)
        return routes
    }

    /// `GET /v1/analytics/{report}`.
    @Sendable func report(_ request: Request, context: ConsentdContext) async throws -> Response {
        let principal = try context.requirePrincipal()
        let query = try Self.query(request, report: context.parameters.require("report"), today: Date())
        let page = try await analytics.page(query, appId: principal.appId)
        if try Self.wantsCSV(request) {
            var headers: HTTPFields = [.contentType: "text/csv; charset=utf-8"]
            if let next = page.nextCursor { headers[Self.nextCursorHeader] = next }
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: Self.csv(page.rows))))
        }
        return jsonResponse(text: Self.json(page, query: query))
    }

    /// The header that carries a CSV page's next cursor.
    static let nextCursorHeader = HTTPField.Name("Next-Cursor")!

    /// The query a request asks for, every parameter checked: `from` and `to` (`YYYY-MM-DD`, by
    /// default the 30 days up to `today`, at most ``AnalyticsQuery/maximumDays``), `granularity`,
    /// `by` (choices only), `limit` (1 to ``AnalyticsQuery/maximumLimit``) and `cursor`.
    static func query(_ request: Request, report name: String, today: Date) throws -> AnalyticsQuery {
        guard let report = AnalyticsQuery.Report(rawValue: name) else {
            throw APIError.notFound("no analytics report \(name): the reports are "
                                    + AnalyticsQuery.Report.allCases.map(\.rawValue).joined(separator: ", "))
        }
        func day(_ field: String) throws -> Int64? {
            try request.query(field).map { text in
                guard let day = AnalyticsQuery.day(text) else {
                    throw APIError.badRequest("\(field) must be a date as YYYY-MM-DD (UTC), not \(text)", field: field)
                }
                return day
            }
        }
        func choice<T: RawRepresentable & CaseIterable>(_ field: String, _: T.Type) throws -> T? where T.RawValue == String {
            try request.query(field).map { text in
                guard let value = T(rawValue: text) else {
                    throw APIError.badRequest("\(field) must be one of " + T.allCases.map(\.rawValue).joined(separator: ", "), field: field)
                }
                return value
            }
        }
        let to = try day("to") ?? ISO8601.milliseconds(of: today) / AnalyticsTally.dayMilliseconds
        let from = try day("from") ?? to - 29
        guard from <= to else { throw APIError.badRequest("from must not be after to", field: "from") }
        guard to - from < AnalyticsQuery.maximumDays else {
            throw APIError.badRequest("the range spans \(to - from + 1) days; at most \(AnalyticsQuery.maximumDays) are read at once", field: "from")
        }
        let by = try choice("by", AnalyticsQuery.Dimension.self)
        if by != nil, report != .choices {
            throw APIError.badRequest("by groups the choices report only", field: "by")
        }
        var limit = AnalyticsQuery.defaultLimit
        if let text = request.query("limit") {
            guard let value = Int(text), (1...AnalyticsQuery.maximumLimit).contains(value) else {
                throw APIError.badRequest("limit must be an integer from 1 to \(AnalyticsQuery.maximumLimit)", field: "limit")
            }
            limit = value
        }
        var offset = 0
        if let text = request.query("cursor") {
            guard text.utf8.count <= 9, !text.isEmpty, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let value = Int(text) else {
                throw APIError.badRequest("cursor \(text) is not one this server handed out", field: "cursor")
            }
            offset = value
        }
        return AnalyticsQuery(report: report, from: from, to: to, granularity: try choice("granularity", AnalyticsQuery.Granularity.self) ?? .day,
                              by: by, limit: limit, offset: offset)
    }

    /// Whether the answer is CSV: `format=csv`, or `Accept` naming `text/csv` (and no
    /// `format=json`). Another `format` is refused.
    static func wantsCSV(_ request: Request) throws -> Bool {
        switch request.query("format") {
        case "csv"?: return true
        case "json"?: return false
        case nil: return request.headers[.accept]?.lowercased().contains("text/csv") ?? false
        case let other?: throw APIError.badRequest("format must be json or csv, not \(other)", field: "format")
        }
    }

    /// The page as JSON: the query, the figures and the next cursor.
    static func json(_ page: ConsentAnalytics.Page, query: AnalyticsQuery) -> String {
        var json = JSONWriter(capacity: 256 + 96 * page.rows.count, escaping: .standard)
        json.beginObject()
        if let by = query.by { json.key("by"); json.string(by.rawValue) }
        json.key("from"); json.string(AnalyticsQuery.dayLabel(query.from))
        json.key("granularity"); json.string(query.granularity.rawValue)
        json.key("nextCursor")
        if let next = page.nextCursor { json.string(next) } else { json.null() }
        json.key("report"); json.string(query.report.rawValue)
        json.key("rows")
        json.beginArray()
        for row in page.rows {
            json.beginObject()
            json.key("count"); json.integer(row.count)
            json.key("group"); json.string(row.group)
            json.key("item"); json.string(row.item)
            json.key("of"); json.integer(row.of)
            json.key("period"); json.string(row.period)
            json.key("rate"); json.raw(row.rate)
            json.endObject()
        }
        json.endArray()
        json.key("to"); json.string(AnalyticsQuery.dayLabel(query.to))
        json.endObject()
        return json.text
    }

    /// The figures as CSV (RFC 4180, CRLF): a header line, then one line per figure.
    static func csv(_ rows: [ConsentAnalytics.Row]) -> String {
        var text = "period,group,item,count,of,rate\r\n"
        for row in rows {
            text += [cell(row.period), cell(row.group), cell(row.item), String(row.count), String(row.of), row.rate].joined(separator: ",") + "\r\n"
        }
        return text
    }

    /// A text cell: quoted when it holds a comma, quote or line break; a value a spreadsheet would
    /// run as a formula (`=`, `+`, `-`, `@`, tab, CR first: a notice version or language comes from
    /// clients) gets a leading `'`.
    static func cell(_ value: String) -> String {
        var value = value
        if let first = value.first, "=+-@\t\r".contains(first) { value = "'" + value }
        guard value.contains(where: { ",\"\r\n".contains($0) }) else { return value }
        return "\"" + value.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
