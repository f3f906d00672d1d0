// The golden file is gunzipped by a subprocess (`SharedReference.realWorldGolden`): macOS and Linux only.
#if os(macOS) || os(Linux)
import Foundation
import Testing
@testable import TCF

/// The 512 real-world TC strings against their golden decodes (`tests.to_json` and
/// `tests.sampling` of `real-world-v2.golden.jsonl.gz`).
@Suite struct RealWorldGoldenTests {
    let golden: [[String: Any]]

    init() throws { golden = try Fixtures.realWorldGolden() }

    @Test func theGoldenFileCoversEveryCorpusString() throws {
        let strings = try Fixtures.realWorldStrings()
        #expect(golden.count == 512)
        #expect(golden.map { $0["tc_string"] as? String } == strings)
    }

    @Test func everyRealWorldStringDecodesToItsGoldenOutput() throws {
        for record in golden {
            let string = record["tc_string"] as! String
            let label = String(string.prefix(40))
            let tests = record["tests"] as! [String: Any]
            let expected = tests["to_json"] as! [String: Any]
            let tc: TCString
            do { tc = try TCString(decoding: string) } catch {
                Issue.record("\(label) failed: \(error)")
                continue
            }
            #expect(tc.version == expected["version"] as? Int, "\(label)")
            #expect(tc.cmpId == expected["cmp_id"] as? Int, "\(label)")
            #expect(tc.cmpVersion == expected["cmp_version"] as? Int, "\(label)")
            #expect(tc.consentScreen == expected["consent_screen"] as? Int, "\(label)")
            #expect(tc.consentLanguage == expected["consent_language"] as? String, "\(label)")
            #expect(tc.vendorListVersion == expected["vendor_list_version"] as? Int, "\(label)")
            #expect(tc.tcfPolicyVersion == expected["policy_version"] as? Int, "\(label)")
            #expect(tc.isServiceSpecific == expected["is_service_specific"] as? Bool, "\(label)")
            #expect(tc.useNonStandardTexts == expected["use_non_standard_stacks"] as? Bool, "\(label)")
            #expect(tc.purposeOneTreatment == expected["purpose_one_treatment"] as? Bool, "\(label)")
            #expect(tc.publisherCC == expected["publisher_country_code"] as? String, "\(label)")
            #expect(seconds(tc.created) == expected["created"] as? String, "\(label)")
            #expect(seconds(tc.lastUpdated) == expected["last_updated"] as? String, "\(label)")
            #expect(tc.specialFeatureOptIns.sorted == ids(expected["special_features_opt_in"]), "\(label)")
            let purpose = expected["purpose"] as! [String: Any]
            #expect(tc.purposesConsent.sorted == ids(purpose["consents"]), "\(label)")
            #expect(tc.purposesLITransparency.sorted == ids(purpose["legitimate_interests"]), "\(label)")
            let vendor = expected["vendor"] as! [String: Any]
            #expect(tc.vendorConsents.sorted == ids(vendor["consents"]), "\(label)")
            #expect(tc.vendorLegitimateInterests.sorted == ids(vendor["legitimate_interests"]), "\(label)")
            #expect(tc.disclosedVendors?.sorted == vendor["disclosed"].map(ids), "\(label)")
            let publisher = expected["publisher"] as! [String: Any]
            #expect(restrictionMap(tc) == publisher["restrictions"] as! [String: [String: Int]], "\(label)")
            if let consents = publisher["consents"] {
                let custom = publisher["custom_purposes"] as! [String: Any]
                let publisherTC = try #require(tc.publisherTC, "\(label)")
                #expect(publisherTC.pubPurposesConsent.sorted == ids(consents), "\(label)")
                #expect(publisherTC.pubPurposesLITransparency.sorted == ids(publisher["legitimate_interests"]), "\(label)")
                #expect(publisherTC.customPurposesConsent.sorted == ids(custom["consents"]), "\(label)")
                #expect(publisherTC.customPurposesLITransparency.sorted == ids(custom["legitimate_interests"]), "\(label)")
            } else {
                #expect(tc.publisherTC == nil, "\(label)")
            }

            let sampling = tests["sampling"] as! [String: Bool]
            #expect(tc.purposesConsent.contains(1) == sampling["purpose_1_consent"], "\(label)")
            #expect(tc.vendorConsents.contains(284) == sampling["vendor_284_consent"], "\(label)")
            let allowed = tc.purposesConsent.contains(1) && tc.vendorConsents.contains(284)
                && tc.restrictionType(vendorId: 284, purposeId: 1) != .notAllowed
            #expect(allowed == sampling["vendor_284_purpose_1_allowed"], "\(label)")
        }
    }

    @Test func everyRealWorldStringSurvivesAnEncodeDecodeRoundTrip() throws {
        for string in try Fixtures.realWorldStrings() {
            let decoded = try TCString(decoding: string)
            #expect(try TCString(decoding: decoded.encoded()) == decoded, "\(string.prefix(40))")
        }
    }

    /// Golden timestamps are whole seconds without a fraction: `2023-11-20T00:00:00Z`.
    private func seconds(_ timestamp: TCFTimestamp) -> String {
        timestamp.iso8601.replacingOccurrences(of: #"\.\d{3}Z$"#, with: "Z", options: .regularExpression)
    }

    /// `{"1": true, "7": true}` as sorted ids (the golden maps list only true entries).
    private func ids(_ any: Any?) -> [Int] {
        ((any as? [String: Bool]) ?? [:]).filter(\.value).keys.compactMap { Int($0) }.sorted()
    }

    /// Restrictions as the golden file has them: purpose -> vendor -> type, the last entry winning.
    private func restrictionMap(_ tc: TCString) -> [String: [String: Int]] {
        var map: [String: [String: Int]] = [:]
        for restriction in tc.publisherRestrictions {
            for vendor in restriction.vendorIds {
                map["\(restriction.purposeId)", default: [:]]["\(vendor)"] = restriction.restrictionType.rawValue
            }
        }
        return map
    }
}
#endif
