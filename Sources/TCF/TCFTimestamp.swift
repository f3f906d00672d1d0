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
    public var iso8601: String {
        let (days, tenths) = deciseconds.floorDivided(by: 864_000)
        let (year, month, day) = Self.civil(fromDays: days)
        let seconds = tenths / 10
        func pad(_ value: Int64, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: Swift.max(0, width - digits.count)) + digits
        }
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(seconds / 3600, 2)):"
            + "\(pad(seconds / 60 % 60, 2)):\(pad(seconds % 60, 2)).\(tenths % 10)00Z"
    }

    /// Parses ISO 8601 UTC text such as `2017-11-07T19:15:55.400Z`, `2017-11-07T19:15:55Z` or
    /// with an offset like `+02:00`. Returns nil for other text or for a fraction finer than a
    /// decisecond, which the TCF cannot hold.
    public init?(iso8601 text: String) {
        guard let (seconds, fraction) = Self.parse(iso8601: text),
              fraction.dropFirst().allSatisfy({ $0 == UInt8(ascii: "0") })
        else { return nil }
        deciseconds = seconds * 10 + Int64(fraction.first.map { $0 - UInt8(ascii: "0") } ?? 0)
    }

    /// Splits ISO 8601 text (see ``init(iso8601:)``) into whole seconds since the epoch, UTC,
    /// and the digits of its fraction of a second, however many there are (none without one).
    static func parse(iso8601 text: String) -> (seconds: Int64, fraction: ArraySlice<UInt8>)? {
        let bytes = Array(text.utf8)
        // Only ever called for two- and four-digit fields, so the value cannot overflow.
        func number(_ range: Range<Int>) -> Int64? {
            guard range.upperBound <= bytes.count else { return nil }
            var value: Int64 = 0
            for index in range {
                let digit = Int64(bytes[index]) - 48
                guard digit >= 0, digit <= 9 else { return nil }
                value = value * 10 + digit
            }
            return value
        }
        func byte(_ index: Int) -> UInt8? { index < bytes.count ? bytes[index] : nil }
        guard let year = number(0..<4), byte(4) == UInt8(ascii: "-"), let month = number(5..<7),
              byte(7) == UInt8(ascii: "-"), let day = number(8..<10),
              byte(10) == UInt8(ascii: "T") || byte(10) == UInt8(ascii: " "),
              let hour = number(11..<13), byte(13) == UInt8(ascii: ":"), let minute = number(14..<16),
              byte(16) == UInt8(ascii: ":"), let second = number(17..<19),
              (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61
        else { return nil }
        var index = 19
        var fraction: ArraySlice<UInt8> = []
        if byte(index) == UInt8(ascii: ".") {
            index += 1
            let start = index
            while let digit = byte(index), digit >= UInt8(ascii: "0"), digit <= UInt8(ascii: "9") { index += 1 }
            guard index > start else { return nil }
            fraction = bytes[start..<index]
        }
        var offsetSeconds: Int64 = 0
        switch byte(index) {
        case UInt8(ascii: "Z"), UInt8(ascii: "z"):
            index += 1
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            guard let hours = number((index + 1)..<(index + 3)), byte(index + 3) == UInt8(ascii: ":"),
                  let minutes = number((index + 4)..<(index + 6)) else { return nil }
            offsetSeconds = (hours * 3600 + minutes * 60) * (bytes[index] == UInt8(ascii: "+") ? 1 : -1)
            index += 6
        default:
            return nil
        }
        guard index == bytes.count else { return nil }
        let days = Self.days(fromCivil: year, month, day)
        return (days * 86_400 + hour * 3600 + minute * 60 + second - offsetSeconds, fraction)
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
    static func days(fromCivil year: Int64, _ month: Int64, _ day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The proleptic Gregorian date `days` after 1970-01-01.
    static func civil(fromDays days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}

extension Int64 {
    /// Quotient and remainder rounded toward negative infinity.
    fileprivate func floorDivided(by divisor: Int64) -> (Int64, Int64) {
        let quotient = self / divisor, remainder = self % divisor
        return remainder < 0 ? (quotient - 1, remainder + divisor) : (quotient, remainder)
    }
}
