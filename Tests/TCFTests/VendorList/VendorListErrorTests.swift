import Foundation
import Testing
@testable import TCF

/// A malformed vendor list throws a ``VendorListError`` that says what is wrong and where.
@Suite struct VendorListErrorTests {
    private func error(_ json: String) -> VendorListError? {
        do {
            _ = try VendorList(jsonData: Data(json.utf8))
            return nil
        } catch {
            return error
        }
    }

    /// A minimal valid v3 list around `vendor`.
    private func list(vendor: String) -> String {
        #"{"gvlSpecificationVersion":3,"vendorListVersion":1,"purposes":{},"vendors":{"1":\#(vendor)}}"#
    }

    @Test func aMinimalListDecodes() throws {
        let decoded = try VendorList(jsonData: Data(list(vendor: #"{"id":1,"name":"A"}"#).utf8))
        #expect(decoded.vendors[1]?.name == "A")
    }

    @Test func aValueOfTheWrongTypeNamesItsPath() {
        let json = list(vendor: #"{"id":1,"name":"A","purposes":[1,"2"]}"#)
        let failure = error(json)
        #expect(failure?.reason == .typeMismatch(expected: "an integer"))
        #expect(failure?.path == "vendors.1.purposes[1]")
        #expect(failure?.offset == json.utf8.count - #""2"]}}}"#.utf8.count)
    }

    @Test func anIdOutsideTheAllowedRangeIsAnInvalidValue() {
        let failure = error(list(vendor: #"{"id":1,"name":"A","features":[0]}"#))
        #expect(failure?.reason == .invalidValue("id 0 is outside 1...65535"))
        #expect(failure?.path == "vendors.1.features[0]")
    }

    @Test func anIdThatDoesNotMatchItsKeyIsAnError() {
        let failure = error(list(vendor: #"{"id":2,"name":"A"}"#))
        #expect(failure?.reason == .invalidValue("id 2 does not match its key \"1\""))
        #expect(failure?.path == "vendors.1")
    }

    @Test func aMissingNameIsAMissingKeyAtTheVendor() {
        let failure = error(list(vendor: #"{"id":1}"#))
        #expect(failure?.reason == .missingKey("name"))
        #expect(failure?.path == "vendors.1")
    }

    @Test func aListWithoutVendorsIsAMissingKeyAtTheRoot() {
        let failure = error(#"{"vendorListVersion":1,"purposes":{}}"#)
        #expect(failure?.reason == .missingKey("vendors"))
        #expect(failure?.path == "")
        #expect(failure?.description.contains("at the root") == true)
    }

    @Test func anUnknownSpecificationVersionIsRefused() {
        let failure = error(#"{"gvlSpecificationVersion":4,"vendorListVersion":1,"purposes":{},"vendors":{}}"#)
        #expect(failure?.reason == .unsupportedVersion(4))
        #expect(failure?.path == "gvlSpecificationVersion")
    }

    @Test func aDuplicateIdInAV1ArrayIsAnError() {
        let failure = error(#"{"vendorListVersion":1,"purposes":[],"vendors":[{"id":3,"name":"A"},{"id":3,"name":"B"}]}"#)
        #expect(failure?.reason == .invalidValue("id 3 appears twice"))
        #expect(failure?.path == "vendors[1]")
    }

    @Test func aFractionalIntegerIsAnInvalidValueButAnIntegralOneIsAccepted() throws {
        #expect(error(list(vendor: #"{"id":1,"name":"A","cookieMaxAgeSeconds":0.5}"#))?.reason
            == .invalidValue("0.5 is not an integer"))
        let decoded = try VendorList(jsonData: Data(list(vendor: #"{"id":1,"name":"A","cookieMaxAgeSeconds":3.6e3}"#).utf8))
        #expect(decoded.vendors[1]?.cookieMaxAgeSeconds == 3600)
    }

    @Test func anUnparseableDateIsAnInvalidValue() {
        let failure = error(list(vendor: #"{"id":1,"name":"A","deletedDate":"yesterday"}"#))
        #expect(failure?.reason == .invalidValue("\"yesterday\" is not an ISO 8601 date"))
        #expect(failure?.path == "vendors.1.deletedDate")
    }

    @Test func theErrorGivesLineAndColumn() {
        let failure = error("{\n  \"vendorListVersion\": 1,\n  \"purposes\": {},\n  \"vendors\": [\n    {\"id\": true}\n  ]\n}")
        #expect(failure?.reason == .typeMismatch(expected: "an integer"))
        #expect(failure?.line == 5)
        #expect(failure?.column == 12)
        #expect(failure?.path == "vendors[0].id")
    }

    @Test func invalidUTF8IsRefusedNotRepaired() {
        var bytes = Array(list(vendor: #"{"id":1,"name":"AB"}"#).utf8)
        let index = bytes.firstIndex(of: UInt8(ascii: "B"))!
        bytes[index] = 0xC3  // a lead byte with no continuation
        #expect(throws: VendorListError.self) { try VendorList(jsonData: Data(bytes)) }
    }

    @Test func escapesAndSurrogatePairsDecode() throws {
        let decoded = try VendorList(jsonData: Data(list(vendor: #"{"id":1,"name":"caf\u00e9 \ud83d\ude00 \"q\"\n"}"#).utf8))
        #expect(decoded.vendors[1]?.name == "café 😀 \"q\"\n")
    }

    @Test func aLoneSurrogateIsAnError() {
        #expect(error(list(vendor: #"{"id":1,"name":"\ud83d"}"#))?.reason
            == .invalidJSON(expected: "a low surrogate after \\uD83D"))
    }

    @Test func textAfterTheDocumentIsAnError() {
        #expect(error(list(vendor: #"{"id":1,"name":"A"}"#) + " x")?.reason == .invalidJSON(expected: "end of input"))
    }

    @Test func unknownMembersAreSkippedHoweverDeeplyTheyNest() throws {
        let depth = 100_000
        let deep = String(repeating: "[", count: depth) + "{\"k\":[1,2.5e-3,null,true,\"s\"]}" + String(repeating: "]", count: depth)
        let decoded = try VendorList(jsonData: Data(list(vendor: #"{"id":1,"name":"A","future":\#(deep)}"#).utf8))
        #expect(decoded.vendors[1]?.name == "A")
        let unclosed = String(repeating: "[", count: depth)
        #expect(error(list(vendor: #"{"id":1,"name":"A","future":\#(unclosed)}"#))?.reason == .invalidJSON(expected: "a value"))
    }

    @Test func everyTruncationOfAListIsAnErrorNeverAPartialList() {
        let json = list(vendor: #"{"id":1,"name":"A \u00e9","purposes":[1,2],"usesCookies":true,"cookieMaxAgeSeconds":null,"dataRetention":{"stdRetention":30,"purposes":{"2":90}}}"#)
        let bytes = Array(json.utf8)
        for length in 0..<bytes.count {
            #expect(throws: VendorListError.self, "prefix of \(length) bytes") {
                try VendorList(jsonData: Data(bytes[..<length]))
            }
        }
    }

    @Test func aTruncatedRealListIsAnError() throws {
        let data = try Fixtures.data(VendorListDecodingTests.v3)
        for length in stride(from: 0, to: data.count, by: data.count / 29) {
            #expect(throws: VendorListError.self) { try VendorList(jsonData: data.prefix(length)) }
        }
    }

    @Test func datesKeepAnyFractionAndAHugeOneIsNoCrash() throws {
        let decoded = try VendorList(jsonData: Data(list(vendor: #"{"id":1,"name":"A","deletedDate":"2024-11-13T14:55:31.549Z"}"#).utf8))
        let deleted = try #require(decoded.vendors[1]?.deletedDate)
        #expect(abs(deleted.timeIntervalSince1970 - 1_731_509_731.549) < 1e-6)
        // Found by the fuzzer: a fraction of 60 digits once overflowed while being parsed.
        let long = "2024-11-13T14:55:31." + String(repeating: "9", count: 60) + "Z"
        let rounded = try VendorList(jsonData: Data(list(vendor: #"{"id":1,"name":"A","deletedDate":"\#(long)"}"#).utf8))
        let time = try #require(rounded.vendors[1]?.deletedDate).timeIntervalSince1970
        #expect(time > 1_731_509_731.99 && time <= 1_731_509_732)
        let fuzzed = #"{"n":66,"lastUpdated":"4040-03-12T16:40:30.0338888888888888888888888888888888888888-pded""#
        #expect(error(fuzzed)?.reason == .invalidValue(#""4040-03-12T16:40:30.0338888888888888888888888888888888888888-pded" is not an ISO 8601 date"#))
    }

    @Test func aConsentStringTimestampTakesDecisecondsAndRefusesFinerFractionsWithoutCrashing() {
        #expect(TCFTimestamp(iso8601: "2017-11-07T19:15:55.4Z")?.deciseconds == 15_100_821_554)
        #expect(TCFTimestamp(iso8601: "2017-11-07T19:15:55.4" + String(repeating: "0", count: 80) + "Z")?.deciseconds == 15_100_821_554)
        #expect(TCFTimestamp(iso8601: "2017-11-07T19:15:55.45Z") == nil)
        #expect(TCFTimestamp(iso8601: "2017-11-07T19:15:55." + String(repeating: "8", count: 80) + "Z") == nil)
    }
}
