import Foundation

/// What a read of the analytics asks for: a report, the UTC days it covers (both included), how
/// they are bucketed, the dimension choices are grouped by, and the page.
public struct AnalyticsQuery: Sendable, Equatable {
    /// A report of `GET /v1/analytics/{report}`; the raw values are the API's.
    public enum Report: String, Sendable, CaseIterable {
        /// Events per outcome (``ChoiceOutcome``), out of all events of the bucket and group.
        case choices
        /// Opt-ins per purpose (consent, legitimate interest) and special feature, out of the
        /// `tcf` events.
        case purposes
        /// Opt-ins per vendor (consent, legitimate interest) and per Google ad-tech provider (the
        /// Additional Consent string), out of the `tcf` events.
        case vendors
        /// The Google choice split, out of the `tcf` events.
        case google
        /// The US opt-outs and GPC, out of the `us` events.
        case us

        /// The count kinds the report shows; empty for ``choices``.
        var kinds: [AnalyticsCountKind] {
            switch self {
            case .choices: []
            case .purposes: [.purposeConsent, .purposeLegitimateInterest, .specialFeatureOptin]
            case .vendors: [.vendorConsent, .vendorLegitimateInterest, .additionalConsent]
            case .google: [.google]
            case .us: [.us]
            }
        }

        /// The item of ``AnalyticsCountKind/events`` its rates are out of; nil for ``choices``.
        var base: String? {
            switch self {
            case .choices: nil
            case .purposes, .vendors, .google: "tcf"
            case .us: "us"
            }
        }
    }

    /// How days are bucketed; the raw values are the API's.
    public enum Granularity: String, Sendable, CaseIterable {
        /// One bucket per UTC day, labelled `2026-11-27`.
        case day
        /// One bucket per ISO week (Monday to Sunday, UTC), labelled `2026-W48`: the sum of its
        /// days within the range.
        case week
        /// One bucket for the whole range, labelled `2026-11-01..2026-11-27` (its first and last
        /// day): the figures of the range at once, as the console's per-purpose and per-vendor
        /// charts show them.
        case total
    }

    /// What the choices are grouped by.
    public typealias Dimension = AnalyticsDimension

    /// The report.
    public var report: Report
    /// The first day, in days since 1970-01-01 (UTC).
    public var from: Int64
    /// The last day, included.
    public var to: Int64
    /// The buckets.
    public var granularity: Granularity
    /// The grouping of ``Report/choices``; nil for one group of everything.
    public var by: Dimension?
    /// The most rows a page holds.
    public var limit: Int
    /// The rows skipped (the cursor of the previous page).
    public var offset: Int

    /// The longest range, in days.
    public static let maximumDays: Int64 = 366
    /// The largest page.
    public static let maximumLimit = 5000
    /// The page size when none is asked for.
    public static let defaultLimit = 1000

    /// Creates a query.
    public init(report: Report, from: Int64, to: Int64, granularity: Granularity = .day, by: Dimension? = nil,
                limit: Int = AnalyticsQuery.defaultLimit, offset: Int = 0) {
        self.report = report
        self.from = from
        self.to = to
        self.granularity = granularity
        self.by = by
        self.limit = limit
        self.offset = offset
    }

    /// The day `text` (`YYYY-MM-DD`, UTC) names, in days since 1970-01-01; nil when it is not one.
    public static func day(_ text: String) -> Int64? {
        let bytes = Array(text.utf8)
        guard bytes.count == 10, bytes[4] == 0x2D, bytes[7] == 0x2D,
              bytes.enumerated().allSatisfy({ $0.offset == 4 || $0.offset == 7 || (0x30...0x39).contains($0.element) }),
              let year = Int(text.prefix(4)), let month = Int(text.dropFirst(5).prefix(2)), let day = Int(text.suffix(2)),
              year >= 1970, (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year) else { return nil }
        // Days from civil (Howard Hinnant's algorithm), for the proleptic Gregorian calendar.
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = y / 400
        let yearOfEra = y - era * 400
        let m = Int64(month)
        let dayOfYear = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + Int64(day) - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The date of `day` (days since 1970-01-01) as year, month and day.
    static func civil(_ day: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = day + 719_468
        let era = z / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let d = dayOfYear - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }

    /// `day` as `YYYY-MM-DD`.
    public static func dayLabel(_ day: Int64) -> String {
        let date = civil(day)
        return String(format: "%04lld-%02lld-%02lld", date.year, date.month, date.day)
    }

    /// The ISO week of the Monday `monday`, as `YYYY-Www` (the year of its Thursday).
    public static func weekLabel(_ monday: Int64) -> String {
        let thursday = monday + 3
        let year = civil(thursday).year
        let firstOfYear = day(String(format: "%04lld-01-01", year)) ?? thursday
        return String(format: "%04lld-W%02lld", year, (thursday - firstOfYear) / 7 + 1)
    }

    /// The Monday of `day`'s ISO week (1970-01-01 was a Thursday).
    static func monday(of day: Int64) -> Int64 {
        day - (day + 3) % 7
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}
