import Foundation
import Testing
@testable import ConsentKit

/// The JSON form of `USPrivacyChoice`.
@Suite("US privacy choice JSON")
struct USPrivacyChoiceCodingTests {
    @Test("the choice is kept to the millisecond and the language in lower case")
    func milliseconds() {
        let choice = USPrivacyChoice(saleOptOut: true, sharingOptOut: false, targetedAdvertisingOptOut: false, noticeVersion: 2,
                                     language: "EN", decided: Date(timeIntervalSince1970: 1_795_000_000.2504))
        #expect(choice.decided == Date(timeIntervalSince1970: 1_795_000_000.25))
        #expect(choice.language == "en")
    }

    @Test("JSON names every field and writes the decision time in ISO 8601 UTC; it reads back equal")
    func roundTrip() throws {
        let choice = USPrivacyChoice(saleOptOut: true, sharingOptOut: true, targetedAdvertisingOptOut: false, sensitiveDataLimited: true,
                                     noticeVersion: 4, language: "es", decided: Date(timeIntervalSince1970: 1_795_000_000.25))
        let data = try JSONEncoder().encode(choice)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(Set(object.keys) == Set(USPrivacyChoice.CodingKeys.allCases.map(\.rawValue)))
        #expect(object["decided"] as? String == "2026-11-18T11:06:40.250Z")
        #expect(try JSONDecoder().decode(USPrivacyChoice.self, from: data) == choice)
    }

    @Test("a decision time that is not ISO 8601 is refused, naming the field")
    func badDate() {
        let json = #"{"saleOptOut":true,"sharingOptOut":true,"targetedAdvertisingOptOut":true,"sensitiveDataLimited":false,"noticeVersion":1,"language":"en","decided":"yesterday"}"#
        #expect {
            try JSONDecoder().decode(USPrivacyChoice.self, from: Data(json.utf8))
        } throws: { error in
            guard case DecodingError.dataCorrupted(let context) = error else { return false }
            return context.codingPath.last?.stringValue == "decided"
        }
    }
}
