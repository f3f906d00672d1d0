import ConsentKitFormats
import Foundation

/// A point in time as the TCF stores it: whole deciseconds since the Unix epoch.
///
/// Consent strings keep `Created` and `LastUpdated` to a tenth of a second; this type keeps
/// exactly that, so a decoded value re-encodes to the same bits.
public struct TCFTimestamp: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Deciseconds since 1970-01-01T00:00:00Z.
    public let deciseconds: Int64

    /// A timestamp of `deciseconds` since the epoch.
    public init(deciseconds: Int64) { self.deciseconds = deciseconds }

    /// The timestamp of `date`, rounded to the nearest decisecond.
    public init(_ date: Date) {
        deciseconds = Int64((date.timeIntervalSince1970 * 10).rounded())
    }

    /// The timestamp as a `Date`.
    public var date: Date { Date(timeIntervalSince1970: Double(deciseconds) / 10) }

    /// Orders timestamps by time.
    public static func < (lhs: TCFTimestamp, rhs: TCFTimestamp) -> Bool { lhs.deciseconds < rhs.deciseconds }

    /// ISO 8601 in UTC with milliseconds, like `2017-11-07T19:15:55.400Z`.
    public var description: String { iso8601 }

    /// ISO 8601 in UTC with milliseconds, like `2017-11-07T19:15:55.400Z`.
    public var iso8601: String { ISO8601.format(milliseconds: deciseconds * 100) }

    /// Parses ISO 8601 text as ``ISO8601`` reads it, such as `2017-11-07T19:15:55.400Z`,
    /// `2017-11-07T19:15:55Z` or with an offset like `+02:00`. Returns nil for other text or for a
    /// fraction finer than a decisecond, which the TCF cannot hold.
    public init?(iso8601 text: String) {
        guard let time = ISO8601.parse(text), time.fractionDigits.dropFirst().allSatisfy({ $0 == 0 }) else { return nil }
        deciseconds = time.seconds * 10 + Int64(time.fractionDigits.first ?? 0)
    }
}
