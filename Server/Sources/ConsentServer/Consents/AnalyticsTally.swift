import ConsentKit
import ConsentdAPI
import GPP
import SQLKit

/// What consent events add to (or, erased, take from) the analytics rollups (migration
/// "consent analytics", docs/decisions/0039): events per app, dimension, UTC day of collection,
/// the dimension's value and outcome in `analytics_choices` (each event once per dimension, and
/// once under `all`), and counts per app, kind, day and item in `analytics_counts`. The append path adds a batch's tally in the batch's own transaction, so
/// the figures are always the stored events' own.
struct AnalyticsTally: Sendable, Equatable {
    /// One row of `analytics_choices`.
    struct ChoiceKey: Hashable, Sendable {
        var dimension: String
        var day: Int64
        var value: String
        var outcome: String
    }

    /// One row of `analytics_counts`.
    struct CountKey: Hashable, Sendable {
        var day: Int64
        var kind: AnalyticsCountKind
        var item: String
    }

    /// Events per choice row.
    private(set) var choices: [ChoiceKey: Int64] = [:]
    /// Events per count row.
    private(set) var counts: [CountKey: Int64] = [:]

    /// Milliseconds in a day.
    static let dayMilliseconds: Int64 = 86_400_000

    /// Nothing counted.
    var isEmpty: Bool { choices.isEmpty && counts.isEmpty }

    /// Counts one event (`sign` 1) or takes it back (`sign` -1): its record, the region it was
    /// sent from, its collection time (milliseconds since 1970) and its GPP values.
    ///
    /// An event counts in the `tcf` base when its record carries an id list (purposes, legitimate
    /// interests, special features, vendors): every opt-in of those lists, the Google choice and
    /// the Additional Consent string's consented providers count there. It counts in the `us`
    /// base when its GPP string's section is a US one: its opt-outs count there.
    mutating func add(_ record: ConsentRecord, region: String, collectedAt: Int64, gpp: GPPEventValues?, sign: Int64 = 1) {
        let day = collectedAt / Self.dayMilliseconds
        let proof = record.proof
        let outcome = ChoiceOutcome(proof.method).rawValue
        let values: [(AnalyticsDimension?, String)] = [
            (nil, AnalyticsDimension.all), (.region, region), (.language, proof.language), (.platform, proof.platform.rawValue),
            (.noticeVersion, proof.noticeVersion), (.method, proof.method.rawValue),
        ]
        for (dimension, value) in values {
            choices[ChoiceKey(dimension: dimension?.rawValue ?? AnalyticsDimension.all, day: day, value: value, outcome: outcome),
                    default: 0] += sign
        }
        func count(_ kind: AnalyticsCountKind, _ item: String) {
            counts[CountKey(day: day, kind: kind, item: item), default: 0] += sign
        }
        let lists: [(AnalyticsCountKind, [Int]?)] = [
            (.purposeConsent, record.purposeConsents), (.purposeLegitimateInterest, record.purposeLegitimateInterests),
            (.specialFeatureOptin, record.specialFeatureOptins), (.vendorConsent, record.vendorConsents),
            (.vendorLegitimateInterest, record.vendorLegitimateInterests),
        ]
        if lists.contains(where: { $0.1 != nil }) {
            count(.events, "tcf")
            for (kind, ids) in lists {
                for id in Set(ids ?? []) { count(kind, String(id)) }
            }
            if let choice = record.googleAdsChoice { count(.google, choice.rawValue) }
            if let text = record.additionalConsent, let parsed = AdditionalConsent.parse(text) {
                count(.google, "additionalConsent")
                for id in parsed.consented { count(.additionalConsent, String(id)) }
            }
        }
        if let gpp, GPPSectionID(rawValue: gpp.sectionId)?.isUS == true {
            count(.events, "us")
            let flags: [(String, Bool?)] = [
                ("saleOptOut", gpp.saleOptOut), ("sharingOptOut", gpp.sharingOptOut),
                ("targetedAdvertisingOptOut", gpp.targetedAdvertisingOptOut), ("sensitiveDataLimit", gpp.sensitiveDataLimit),
                ("gpc", gpp.gpc),
            ]
            for (item, flag) in flags where flag == true { count(.us, item) }
        }
    }

    /// Counts one notice closed without a choice (docs/decisions/0044): one ``ChoiceOutcome/closed``
    /// under `all` and under each dimension (the region it was sent from, its language,
    /// platform and notice version, and ``NoticeClose/method``), on the UTC day of `closedAt`
    /// (milliseconds since 1970). Nothing in `analytics_counts`: a close opts into nothing, and
    /// is in no base.
    mutating func add(_ close: NoticeClose, region: String, closedAt: Int64) {
        let day = closedAt / Self.dayMilliseconds
        let values: [(AnalyticsDimension?, String)] = [
            (nil, AnalyticsDimension.all), (.region, region), (.language, close.language), (.platform, close.platform.rawValue),
            (.noticeVersion, close.noticeVersion), (.method, NoticeClose.method),
        ]
        for (dimension, value) in values {
            choices[ChoiceKey(dimension: dimension?.rawValue ?? AnalyticsDimension.all, day: day, value: value,
                              outcome: ChoiceOutcome.closed.rawValue), default: 0] += 1
        }
    }

    /// Adds another tally's counts.
    mutating func add(_ other: AnalyticsTally) {
        choices.merge(other.choices, uniquingKeysWith: +)
        counts.merge(other.counts, uniquingKeysWith: +)
    }

    /// The statements that add this tally to `appId`'s rollups: upserts in chunks that stay
    /// under SQLite's bind limit, each row once (so PostgreSQL never updates a row twice).
    func upserts(appId: String) -> [SQLQueryString] {
        let choiceRows: [SQLQueryString] = choices.filter { $0.value != 0 }.map { key, events in
            "(\(bind: appId), \(bind: key.dimension), \(bind: key.day), \(bind: key.value), \(bind: key.outcome), \(bind: events))"
        }
        let countRows: [SQLQueryString] = counts.filter { $0.value != 0 }.map { key, events in
            "(\(bind: appId), \(bind: key.day), \(bind: key.kind.rawValue), \(bind: key.item), \(bind: events))"
        }
        return choiceRows.chunks(of: 200).map { chunk in
            """
            INSERT INTO analytics_choices (app_id, dimension, day, value, outcome, events) VALUES
            """ + chunk.joined(separator: ", ") + """
             ON CONFLICT (app_id, dimension, day, value, outcome) DO UPDATE SET events = analytics_choices.events + excluded.events
            """
        } + countRows.chunks(of: 200).map { chunk in
            "INSERT INTO analytics_counts (app_id, day, kind, item, events) VALUES " + chunk.joined(separator: ", ") + """
             ON CONFLICT (app_id, kind, day, item) DO UPDATE SET events = analytics_counts.events + excluded.events
            """
        }
    }
}
