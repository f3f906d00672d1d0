import ConsentKitFormats
import Foundation
import SQLKit

/// Reads the analytics rollups (docs/decisions/0039): one page of a report's figures, each a
/// count out of the events of its bucket, from the rollup rows alone (never the events).
public struct ConsentAnalytics: Sendable {
    /// The database the rollups live in.
    public let database: Database

    /// A reader over `database`.
    public init(database: Database) {
        self.database = database
    }

    /// One figure: in bucket `period`, group `group` (the dimension's value for choices, else the
    /// count kind), `count` events had `item` (an outcome, or an id or name of the kind) out of
    /// `of` events.
    public struct Row: Sendable, Equatable {
        /// The bucket: `2026-11-27` or `2026-W48`.
        public var period: String
        /// The group.
        public var group: String
        /// The item counted.
        public var item: String
        /// The events counted.
        public var count: Int64
        /// The events the rate is out of.
        public var of: Int64

        /// Creates a figure.
        public init(period: String, group: String, item: String, count: Int64, of: Int64) {
            self.period = period
            self.group = group
            self.item = item
            self.count = count
            self.of = of
        }

        /// `count / of` to four decimal places, rounded half up (0 when `of` is 0), as text.
        public var rate: String {
            guard of > 0 else { return "0.0000" }
            let scaled = (count * 20_000 + of) / (2 * of)
            let fraction = String(scaled % 10_000)
            return "\(scaled / 10_000)." + String(repeating: "0", count: 4 - fraction.count) + fraction
        }
    }

    /// A page of figures, in order of period, group and item; `nextCursor` continues it.
    public struct Page: Sendable, Equatable {
        /// The figures.
        public var rows: [Row]
        /// The cursor of the next page; nil on the last.
        public var nextCursor: String?
    }

    /// The kinds whose items are names (in alphabetical order); the others' are ids (in numeric order).
    static let namedKinds = [AnalyticsCountKind.events, .google, .us].map(\.rawValue)

    /// The page `query` asks for, of `appId`'s figures.
    public func page(_ query: AnalyticsQuery, appId: String) async throws -> Page {
        let period: SQLQueryString
        let label: @Sendable (Int64) -> String
        switch query.granularity {
        case .day:
            period = "day"
            label = { AnalyticsQuery.dayLabel($0) }
        case .week:
            // A week is its Monday: 1970-01-01 was a Thursday.
            period = "day - (day + 3) % 7"
            label = { AnalyticsQuery.weekLabel($0) }
        case .total:
            // One bucket, the range's first day: an expression of `day` (a bare number in GROUP BY
            // would name a column by its position).
            period = "(0 * day + \(literal: Int(query.from)))"
            let text = AnalyticsQuery.dayLabel(query.from) + ".." + AnalyticsQuery.dayLabel(query.to)
            label = { _ in text }
        }
        let range: SQLQueryString = "app_id = \(bind: appId) AND day >= \(bind: query.from) AND day <= \(bind: query.to)"
        let page: SQLQueryString = " LIMIT \(literal: query.limit + 1) OFFSET \(literal: query.offset)"
        return try await database.read { db in
            var rows: [Row] = []
            if let base = query.report.base {
                var of: [Int64: Int64] = [:]
                for row in try await db.raw("""
                    SELECT \(period) AS period, CAST(SUM(events) AS BIGINT) AS n FROM analytics_counts
                    WHERE \(range) AND kind = 'events' AND item = \(bind: base) GROUP BY \(period)
                    """).all() {
                    of[try row.decode(column: "period", as: Int64.self)] = try row.decode(column: "n", as: Int64.self)
                }
                let kinds = query.report.kinds.map(\.rawValue)
                for row in try await db.raw("""
                    SELECT \(period) AS period, kind, item, CAST(SUM(events) AS BIGINT) AS n FROM analytics_counts
                    WHERE \(range) AND kind IN (\(binds: kinds)) GROUP BY \(period), kind, item
                    ORDER BY period, kind, CASE WHEN kind IN (\(binds: Self.namedKinds)) THEN 0 ELSE LENGTH(item) END, item
                    """ + page).all() {
                    let bucket = try row.decode(column: "period", as: Int64.self)
                    rows.append(Row(period: label(bucket), group: try row.decode(column: "kind", as: String.self),
                                    item: try row.decode(column: "item", as: String.self), count: try row.decode(column: "n", as: Int64.self),
                                    of: of[bucket] ?? 0))
                }
            } else {
                let dimension = query.by?.rawValue ?? AnalyticsDimension.all
                for row in try await db.raw("""
                    SELECT period, grp, item, n, CAST(SUM(n) OVER (PARTITION BY period, grp) AS BIGINT) AS total FROM (
                        SELECT \(period) AS period, value AS grp, outcome AS item, CAST(SUM(events) AS BIGINT) AS n
                        FROM analytics_choices WHERE \(range) AND dimension = \(bind: dimension) GROUP BY \(period), value, outcome
                    ) figures ORDER BY period, grp, item
                    """ + page).all() {
                    rows.append(Row(period: label(try row.decode(column: "period", as: Int64.self)), group: try row.decode(column: "grp", as: String.self),
                                    item: try row.decode(column: "item", as: String.self), count: try row.decode(column: "n", as: Int64.self),
                                    of: try row.decode(column: "total", as: Int64.self)))
                }
            }
            let more = rows.count > query.limit
            return Page(rows: Array(rows.prefix(query.limit)), nextCursor: more ? String(query.offset + query.limit) : nil)
        }
    }
}

extension ConsentAnalytics {
    /// The ids of the apps the rollups have figures for, in order (from the choices of every
    /// event, dimension `all`).
    public func apps() async throws -> [String] {
        try await database.read { db in
            try await db.raw("SELECT DISTINCT app_id FROM analytics_choices WHERE dimension = \(bind: AnalyticsDimension.all) ORDER BY app_id")
                .all().map { try $0.decode(column: "app_id", as: String.self) }
        }
    }
}
