import Foundation

/// ISO 8601 date-times as ConsentKit and consentd read and write them: `2026-11-23T10:15:30.250Z`.
///
/// Reading takes RFC 3339's form: `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)`, with any number of
/// fraction digits, a lower-case `t` or `z`, and also the offset without its colon (`+0130`, what
/// Java's `SSSZ` writes). The day must exist in its month (no 29 February 2023); a second of 60
/// (a leap second) is taken. Everything else is refused: a space for the `T`, no zone, `+01`.
/// Writing always gives UTC with exactly three fraction digits.
///
/// The arithmetic is on whole numbers (Howard Hinnant's `days_from_civil` and `civil_from_days`,
/// proleptic Gregorian), so a millisecond read is the millisecond written, never one less.
public enum ISO8601 {
    /// A date-time as read: whole seconds since 1970-01-01T00:00:00Z, and the digits of the
    /// fraction of a second as written (none without one).
    public struct DateTime: Sendable, Hashable {
        /// Whole seconds since 1970-01-01T00:00:00Z, the offset applied.
        public let seconds: Int64
        /// The fraction's digits (each 0 to 9), as many as the text had.
        public let fractionDigits: [UInt8]

        /// A date-time of `seconds` since the epoch and a fraction of `fractionDigits`.
        public init(seconds: Int64, fractionDigits: [UInt8] = []) {
            self.seconds = seconds
            self.fractionDigits = fractionDigits
        }

        /// Milliseconds since the epoch; digits past the third are dropped (toward the past).
        public var milliseconds: Int64 { seconds * 1000 + Int64(leading(3)) }

        /// The time as a `Date`, to the nanosecond (all a `Date` can tell apart).
        public var date: Date { Date(timeIntervalSince1970: Double(seconds) + Double(leading(9)) / 1e9) }

        /// The first `count` fraction digits as a number, padded with zeros.
        private func leading(_ count: Int) -> Int {
            var value = 0
            for index in 0..<count { value = value * 10 + Int(index < fractionDigits.count ? fractionDigits[index] : 0) }
            return value
        }
    }

    /// Reads `text` (see ``ISO8601``); nil for anything else.
    public static func parse(_ text: String) -> DateTime? {
        var text = text
        return text.withUTF8(parse(utf8:))
    }

    /// Milliseconds since the epoch of `text`, nil when it is not an ISO 8601 date-time.
    public static func milliseconds(_ text: String) -> Int64? { parse(text)?.milliseconds }

    /// The `Date` of `text`, nil when it is not an ISO 8601 date-time.
    public static func date(_ text: String) -> Date? { parse(text)?.date }

    /// `date` in UTC with milliseconds, like `2026-11-23T10:15:30.250Z`, from ``milliseconds(of:)``.
    public static func format(_ date: Date) -> String { format(milliseconds: milliseconds(of: date)) }

    /// Milliseconds since the epoch of `date`, rounded to the nearest. A time kept to the
    /// millisecond is often a hair under it as a `Double` (1.001 s is 1.000999… s): rounding
    /// down, as `ISO8601FormatStyle` does, would write it one millisecond early.
    public static func milliseconds(of date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1000).rounded(.toNearestOrAwayFromZero))
    }

    /// A time in milliseconds since the epoch as UTC text: `2026-11-23T10:15:30.250Z`.
    public static func format(milliseconds: Int64) -> String {
        let (seconds, millis) = milliseconds.floorDivided(by: 1000)
        let (days, secondOfDay) = seconds.floorDivided(by: 86_400)
        let (year, month, day) = civil(fromDays: days)
        var out = [UInt8]()
        out.reserveCapacity(24)
        func put(_ value: Int64, _ width: Int) {
            var digits = [UInt8](repeating: UInt8(ascii: "0"), count: width)
            var rest = value
            for index in stride(from: width - 1, through: 0, by: -1) {
                digits[index] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            }
            if rest > 0 { out.append(contentsOf: String(value).utf8) } else { out.append(contentsOf: digits) }
        }
        if year < 0 {
            out.append(UInt8(ascii: "-"))
            put(-year, 4)
        } else {
            put(year, 4)
        }
        out.append(UInt8(ascii: "-")); put(month, 2)
        out.append(UInt8(ascii: "-")); put(day, 2)
        out.append(UInt8(ascii: "T")); put(secondOfDay / 3600, 2)
        out.append(UInt8(ascii: ":")); put(secondOfDay / 60 % 60, 2)
        out.append(UInt8(ascii: ":")); put(secondOfDay % 60, 2)
        out.append(UInt8(ascii: ".")); put(millis, 3)
        out.append(UInt8(ascii: "Z"))
        return String(decoding: out, as: UTF8.self)
    }

    private static func parse(utf8 bytes: UnsafeBufferPointer<UInt8>) -> DateTime? {
        var index = 0
        func number(_ digits: Int) -> Int64? {
            guard index + digits <= bytes.count else { return nil }
            var value: Int64 = 0
            for _ in 0..<digits {
                let byte = bytes[index]
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int64(byte - UInt8(ascii: "0"))
                index += 1
            }
            return value
        }
        func expect(_ first: Unicode.Scalar, _ second: Unicode.Scalar? = nil) -> Bool {
            guard index < bytes.count,
                  bytes[index] == UInt8(ascii: first) || second.map({ bytes[index] == UInt8(ascii: $0) }) == true
            else { return false }
            index += 1
            return true
        }
        guard let year = number(4), expect("-"), let month = number(2), expect("-"), let day = number(2),
              expect("T", "t"), let hour = number(2), expect(":"), let minute = number(2), expect(":"),
              let second = number(2)
        else { return nil }
        var fraction: [UInt8] = []
        if expect(".") {
            while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
                fraction.append(bytes[index] - UInt8(ascii: "0"))
                index += 1
            }
            guard !fraction.isEmpty else { return nil }
        }
        var offset: Int64 = 0
        if !expect("Z", "z") {
            guard index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") else { return nil }
            let sign: Int64 = bytes[index] == UInt8(ascii: "-") ? -1 : 1
            index += 1
            // `+01:00` (RFC 3339) or `+0100` (ISO 8601's basic form).
            guard let hours = number(2) else { return nil }
            _ = expect(":")
            guard let minutes = number(2), hours < 24, minutes < 60 else { return nil }
            offset = sign * (hours * 3600 + minutes * 60)
        }
        guard index == bytes.count, (1...12).contains(month), hour < 24, minute < 60, second < 61,
              (1...daysIn(month: month, year: year)).contains(day)
        else { return nil }
        let days = days(fromCivil: year, month, day)
        return DateTime(seconds: days * 86_400 + hour * 3600 + minute * 60 + second - offset, fractionDigits: fraction)
    }

    private static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's `days_from_civil`).
    private static func days(fromCivil year: Int64, _ month: Int64, _ day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = y.floorDivided(by: 400).quotient
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The proleptic Gregorian date `days` after 1970-01-01 (Howard Hinnant's `civil_from_days`).
    private static func civil(fromDays days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = days + 719_468
        let era = z.floorDivided(by: 146_097).quotient
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
    fileprivate func floorDivided(by divisor: Int64) -> (quotient: Int64, remainder: Int64) {
        let quotient = self / divisor, remainder = self % divisor
        return remainder < 0 ? (quotient - 1, remainder + divisor) : (quotient, remainder)
    }
}
