import Foundation
import GPP
import Testing

/// `GPPString.cmpAPIParsedSectionsJSON()`: `__gpp`'s `parsedSections`, each section an array of
/// its sub-sections, core first, with the JSON form's field names and values.
@Suite struct CMPAPIParsedSectionsTests {
    /// `text` read as a JSON object.
    static func object(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test("a US section's GPC sub-section follows the core as its own object, with its SubsectionType")
    func gpcIsItsOwnSubsection() throws {
        let gpp = try GPPString(decoding: "DBABBg~BVVqAAEABgA.QA")
        let usca = try #require(try Self.object(gpp.cmpAPIParsedSectionsJSON())["usca"] as? [[String: Any]])
        #expect(usca.count == 2)
        #expect(usca[0]["Gpc"] == nil && usca[0]["SubsectionType"] == nil && usca[0]["SaleOptOut"] as? Int == 1)
        #expect(usca[1] as NSDictionary == ["SubsectionType": 1, "Gpc": false] as NSDictionary)
    }

    @Test("the sub-sections hold exactly the fields and values of the section's JSON form")
    func sameFieldsAsTheJSONForm() throws {
        for text in ["DBABBg~BVoYYYAAEABgA.QA", "DBABBg~BVoYYYAAEABgA", "DBABL~BVQqAAAAAg"] {
            let gpp = try GPPString(decoding: text)
            let parsed = try Self.object(gpp.cmpAPIParsedSectionsJSON())
            let form = try Self.object(gpp.jsonText())
            #expect(Set(parsed.keys) == Set(form.keys), "\(text)")
            for (prefix, value) in parsed {
                var merged: [String: Any] = [:]
                for part in try #require(value as? [[String: Any]]) {
                    for (field, fieldValue) in part where field != "SubsectionType" { merged[field] = fieldValue }
                }
                #expect(merged as NSDictionary == (form[prefix] as? [String: Any] ?? [:]) as NSDictionary, "\(text) \(prefix)")
            }
        }
    }

    @Test("tcfeuv2 and uspv1 are one object each; a section the module does not decode is left out")
    func otherSections() throws {
        var gpp = try GPPString(decoding: "DBACNY~CPXxRfAPXxRfAAfKABENB-CgAAAAAAAAAAYgAAAAAAAA~1YNN")
        gpp.set(.unknown(id: 4, text: "AAAA"))
        let parsed = try Self.object(gpp.cmpAPIParsedSectionsJSON())
        #expect(Set(parsed.keys) == ["tcfeuv2", "uspv1"])
        let tcf = try #require(parsed["tcfeuv2"] as? [[String: Any]])
        #expect(tcf.count == 1 && tcf[0]["CmpId"] as? Int == 31 && tcf[0]["Created"] is String)
        #expect((parsed["uspv1"] as? [[String: Any]])?.first?["OptOutSale"] as? String == "N")
    }
}
