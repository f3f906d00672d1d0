import Foundation
import Testing
import TCF
import GPP

/// encode(decode(s)) gives s back, up to padding; the JSON form goes JSON → value → string →
/// value unchanged.
@Suite struct RoundTripTests {
    static let strings = [
        "DBABM~CPXxRfAPXxRfAAfKABENB-CgAAAAAAAAAAYgAAAAAAAA",
        "DBACNY~CPXxRfAPXxRfAAfKABENB-CgAAAAAAAAAAYgAAAAAAAA~1YNN",
        "DBABL~BVQqAAAAAg",
        "DBABLA~BVQqAAAAAgA",
        "DBABL~" + USSectionTests.usnatVersion2Core + "." + USSectionTests.gpcTrue,
        "DBAA",
    ]

    @Test(arguments: strings)
    func encoding_a_decoded_string_reproduces_it_up_to_padding(_ text: String) throws {
        let decoded = try GPPString(decoding: text)
        let encoded = try decoded.encoded()
        #expect(withoutPadding(encoded) == withoutPadding(text))
        #expect(try GPPString(decoding: encoded) == decoded)
    }

    @Test(arguments: strings)
    func the_JSON_form_round_trips_through_the_string(_ text: String) throws {
        let decoded = try GPPString(decoding: text)
        let json = try JSONEncoder().encode(decoded)
        let fromJSON = try JSONDecoder().decode(GPPString.self, from: json)
        #expect(try GPPString(decoding: try fromJSON.encoded()) == fromJSON)
        #expect(fromJSON.sectionIds == decoded.sectionIds)
        let fromText = try JSONDecoder().decode(GPPString.self, from: Data(decoded.jsonText().utf8))
        #expect(fromText == fromJSON)
    }

    @Test func the_JSON_form_names_fields_as_the_specs_do_in_string_order() throws {
        let gpp = try GPPString(decoding: "DBACNY~CPXxRfAPXxRfAAfKABENB-CgAAAAAAAAAAYgAAAAAAAA~1YNN")
        let json = gpp.jsonText()
        #expect(json.hasPrefix(#"{"tcfeuv2":{"Version":2,"Created":"2022-04-20T22:00:00.000Z","#))
        #expect(json.contains(#""CmpId":31,"CmpVersion":640,"ConsentScreen":1,"ConsentLanguage":"EN","VendorListVersion":126,"TcfPolicyVersion":2"#))
        #expect(json.hasSuffix(#""uspv1":{"Version":1,"Notice":"Y","OptOutSale":"N","LspaCovered":"N"}}"#))
        let usnat = try GPPString(decoding: "DBABL~BVQqAAAAAg").jsonText()
        #expect(usnat == #"{"usnat":{"Version":1,"SharingNotice":1,"SaleOptOutNotice":1,"SharingOptOutNotice":1,"#
            + #""TargetedAdvertisingOptOutNotice":1,"SensitiveDataProcessingOptOutNotice":0,"SensitiveDataLimitUseNotice":0,"#
            + #""SaleOptOut":2,"SharingOptOut":2,"TargetedAdvertisingOptOut":2,"SensitiveDataProcessing":[0,0,0,0,0,0,0,0,0,0,0,0],"#
            + #""KnownChildSensitiveDataConsents":[0,0],"PersonalDataConsents":0,"MspaCoveredTransaction":2,"#
            + #""MspaOptOutOptionMode":0,"MspaServiceProviderMode":0}}"#)
    }

    @Test func the_JSON_form_prints_GPC_as_a_boolean_and_unknown_sections_as_text() throws {
        var gpp = try GPPString(decoding: "DBABL~" + USSectionTests.usnatVersion2Core + "." + USSectionTests.gpcTrue)
        gpp.set(.unknown(id: 40, text: "abc"))
        let json = gpp.jsonText()
        #expect(json.contains(#""MspaServiceProviderMode":2,"Gpc":true}"#))
        #expect(json.hasSuffix(#","40":"abc"}"#))
    }

    @Test func every_section_of_every_layout_survives_the_JSON_form() throws {
        var gpp = GPPString()
        for id in GPPSectionID.allCases where id.isUS {
            var section = try #require(USSection(id))
            section.saleOptOut = .optedOut
            if section.layout.subsections.first?.startsWithType == true { section.gpc = true }
            gpp.set(.us(section))
        }
        let json = try JSONEncoder().encode(gpp)
        let back = try JSONDecoder().decode(GPPString.self, from: json)
        #expect(back == gpp)
        #expect(try GPPString(decoding: back.encoded()) == gpp)
    }
}
