import ConsentKitFormats
import Foundation
import Testing

@Suite("ISO8601")
struct ISO8601Tests {
    static func roundTrip(_ text: String) -> String? { ISO8601.milliseconds(text).map { ISO8601.format(milliseconds: $0) } }

    @Test("UTC text is written with three fraction digits, before 1970 as well")
    func format() {
        #expect(ISO8601.format(milliseconds: 0) == "1970-01-01T00:00:00.000Z")
        #expect(ISO8601.format(milliseconds: 1_763_892_930_250) == "2025-11-23T10:15:30.250Z")
        #expect(ISO8601.format(milliseconds: -1) == "1969-12-31T23:59:59.999Z")
        #expect(ISO8601.format(milliseconds: 253_402_300_799_999) == "9999-12-31T23:59:59.999Z")
    }

    @Test("a fraction of any length is read to the millisecond, later digits dropped toward the past")
    func fractions() {
        #expect(Self.roundTrip("2017-11-07T19:15:55Z") == "2017-11-07T19:15:55.000Z")
        #expect(Self.roundTrip("2017-11-07T19:15:55.4Z") == "2017-11-07T19:15:55.400Z")
        #expect(Self.roundTrip("2017-11-07T19:15:55.45Z") == "2017-11-07T19:15:55.450Z")
        #expect(Self.roundTrip("2026-11-23T10:15:30.123456789Z") == "2026-11-23T10:15:30.123Z")
        #expect(Self.roundTrip("2026-11-23T10:15:30.999999Z") == "2026-11-23T10:15:30.999Z")
        #expect(Self.roundTrip("1969-12-31T23:59:59.999Z") == "1969-12-31T23:59:59.999Z")
        #expect(ISO8601.parse("2026-11-23T10:15:30.25Z")?.fractionDigits == [2, 5])
    }

    @Test("every millisecond of a second is read as the very millisecond written, never one less")
    func everyMillisecond() {
        let base: Int64 = 1_763_892_930_000
        for millisecond in 0..<1000 {
            let text = ISO8601.format(milliseconds: base + Int64(millisecond))
            #expect(ISO8601.milliseconds(text) == base + Int64(millisecond), "\(text)")
        }
    }

    @Test("a Date a hair under its millisecond is written as that millisecond")
    func hairUnder() {
        // 1.001 s is 1.000999… s as a Double: truncating would write .000.
        #expect(Int64((1.001 * 1000).rounded(.down)) == 1000)
        #expect(ISO8601.format(Date(timeIntervalSince1970: 1.001)) == "1970-01-01T00:00:01.001Z")
        let date = Date(timeIntervalSince1970: 1_763_892_930.678)
        #expect(ISO8601.format(date) == "2025-11-23T10:15:30.678Z")
        #expect(ISO8601.format(Date(timeIntervalSince1970: 1_763_892_930.678.nextDown)) == "2025-11-23T10:15:30.678Z")
        #expect(ISO8601.milliseconds(of: date) == 1_763_892_930_678)
        #expect(ISO8601.milliseconds(of: date.addingTimeInterval(0.0004)) == 1_763_892_930_678)
        #expect(ISO8601.milliseconds(of: date.addingTimeInterval(0.0006)) == 1_763_892_930_679)
    }

    @Test("offsets with and without a colon, +0000 and Z mean the same instant in UTC")
    func offsets() {
        #expect(Self.roundTrip("2026-11-23T10:15:30.250Z") == "2026-11-23T10:15:30.250Z")
        #expect(Self.roundTrip("2026-11-23t10:15:30.250z") == "2026-11-23T10:15:30.250Z")
        #expect(Self.roundTrip("2026-11-23T10:15:30.250+0000") == "2026-11-23T10:15:30.250Z")
        #expect(Self.roundTrip("2026-11-23T10:15:30.250+00:00") == "2026-11-23T10:15:30.250Z")
        #expect(Self.roundTrip("2024-02-29T00:00:00-00:00") == "2024-02-29T00:00:00.000Z")
        #expect(Self.roundTrip("2026-11-23T10:15:30.250+01:30") == "2026-11-23T08:45:30.250Z")
        #expect(Self.roundTrip("2026-11-23T10:15:30.250+0130") == "2026-11-23T08:45:30.250Z")
        #expect(Self.roundTrip("2026-11-23T10:15:30.250-0500") == "2026-11-23T15:15:30.250Z")
        #expect(Self.roundTrip("2026-01-01T01:00:00+02:00") == "2025-12-31T23:00:00.000Z")
        #expect(Self.roundTrip("2025-12-31T23:30:00-01:00") == "2026-01-01T00:30:00.000Z")
    }

    @Test("29 February exists in leap years only, 1900 not, 2000 and 2024 yes")
    func leapYears() {
        #expect(Self.roundTrip("2024-02-29T12:00:00Z") == "2024-02-29T12:00:00.000Z")
        #expect(Self.roundTrip("2000-02-29T12:00:00Z") == "2000-02-29T12:00:00.000Z")
        #expect(ISO8601.parse("2023-02-29T12:00:00Z") == nil)
        #expect(ISO8601.parse("1900-02-29T12:00:00Z") == nil)
        #expect(ISO8601.parse("2026-04-31T12:00:00Z") == nil)
        #expect(ISO8601.format(milliseconds: 951_868_800_000) == "2000-03-01T00:00:00.000Z")
        #expect(ISO8601.format(milliseconds: 951_782_400_000) == "2000-02-29T00:00:00.000Z")
    }

    @Test("text that is not an ISO 8601 date-time with a zone is refused")
    func refused() {
        for bad in ["", "x", "2026-11-23T10:15:30", "2026-11-23 10:15:30Z", "2026-13-01T00:00:00Z", "2026-00-01T00:00:00Z",
                    "2026-11-00T00:00:00Z", "2026-11-23T24:00:00Z", "2026-11-23T10:60:00Z", "2026-11-23T10:15:61Z",
                    "2026-11-23T10:15:30.Z", "2026-11-23T10:15:30+01", "2026-11-23T10:15:30+01:0", "2026-11-23T10:15:30+010",
                    "2026-11-23T10:15:30+2400", "2026-11-23T10:15:30+01:60", "2026-11-23T10:15:30+01:00Z", "2026-11-23T10:15:30Z ",
                    "+2026-11-23T10:15:30Z", "2026-1-23T10:15:30Z", "２０２６-11-23T10:15:30Z"] {
            #expect(ISO8601.parse(bad) == nil, "\(bad)")
        }
    }

    @Test("a leap second is read as the first second of the next minute")
    func leapSecond() {
        #expect(Self.roundTrip("2016-12-31T23:59:60Z") == "2017-01-01T00:00:00.000Z")
    }

    @Test("a Date keeps the fraction to the nanosecond")
    func nanoseconds() throws {
        let date = try #require(ISO8601.date("2024-11-13T14:55:31.549123456789Z"))
        #expect(abs(date.timeIntervalSince1970 - 1_731_509_731.549_123_456) < 1e-6)
    }
}
