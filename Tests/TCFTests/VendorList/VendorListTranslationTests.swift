import Foundation
import Testing
@testable import TCF

/// A translation file replaces the texts of a vendor list and nothing else.
@Suite struct VendorListTranslationTests {
    static func german() throws -> VendorListTranslation {
        try VendorListTranslation(jsonData: Fixtures.data("gvl/gvl-v2_purposes-de.json"))
    }

    @Test func aTranslationFileDecodesItsSections() throws {
        let translation = try Self.german()
        #expect(translation.vendorListVersion == 29)
        #expect(translation.purposes.count == 10)
        #expect(translation.specialPurposes.count == 2)
        #expect(translation.features.count == 3)
        #expect(translation.specialFeatures.count == 2)
        #expect(translation.stacks.count == 37)
        #expect(translation.purposes[1]?.name == "Informationen auf einem Gerät speichern und/oder abrufen")
    }

    @Test func mergingReplacesTextsAndKeepsIdsStacksAndVendors() throws {
        let list = try VendorListDecodingTests.load(VendorListDecodingTests.v2)
        let translation = try Self.german()
        let german = list.translated(by: translation, language: "de")
        #expect(german.language == "DE")
        #expect(german.purposes[1]?.name == translation.purposes[1]?.name)
        #expect(german.purposes[1]?.description == translation.purposes[1]?.description)
        #expect(german.purposes[1]?.descriptionLegal == translation.purposes[1]?.descriptionLegal)
        #expect(german.specialFeatures[1]?.name == "Genaue Standortdaten verwenden")
        #expect(german.stacks[1]?.name == translation.stacks[1]?.name)
        #expect(german.stacks[1]?.purposes == list.stacks[1]?.purposes)
        #expect(german.stacks[1]?.specialFeatures == list.stacks[1]?.specialFeatures)
        #expect(german.vendors == list.vendors)
        #expect(german.vendorListVersion == list.vendorListVersion)
        // v224 has stacks 38...42, which the v29 translation predates: they are left out rather
        // than shown in English.
        #expect(german.stacks[42] == nil)
        #expect(Set(german.stacks.keys) == Set(1...37))
        #expect(list.stacks.count == 42)
    }

    @Test func aV2TranslationCoversTheV2ListsDeclarations() throws {
        let list = try VendorListDecodingTests.load(VendorListDecodingTests.v2)
        #expect(list.untranslated(by: try Self.german()).isEmpty)
    }

    @Test func aV2TranslationDoesNotCoverAV3List() throws {
        let list = try VendorList(jsonData: Fixtures.data("gvl/gvl-v3_vendor-list-v45_2024-03-21.json"))
        let gaps = list.untranslated(by: try Self.german())
        #expect(gaps.first == "purpose 11")
        #expect(gaps.filter { $0.hasPrefix("data category") }.count == 11)
        #expect(gaps.count == 12)
    }

    @Test func aTranslatedListSaysItsLanguageWhenDecodedAgain() throws {
        var object = try #require(try JSONSerialization.jsonObject(
            with: Fixtures.data("gvl/gvl-v3_vendor-list-v45_2024-03-21.json")) as? [String: Any])
        object["language"] = "de"
        #expect(try VendorList(jsonData: JSONSerialization.data(withJSONObject: object)).language == "DE")
        object["language"] = "1<"
        #expect(throws: VendorListError.self) { try VendorList(jsonData: JSONSerialization.data(withJSONObject: object)) }
        object["language"] = nil
        #expect(try VendorList(jsonData: JSONSerialization.data(withJSONObject: object)).language == "EN")
    }

    @Test func theFrenchTranslationAppliesToo() throws {
        let list = try VendorListDecodingTests.load(VendorListDecodingTests.v2)
        let french = try VendorListTranslation(jsonData: Fixtures.data("gvl/gvl-v2_purposes-fr.json"))
        let translated = list.translated(by: french, language: "fr")
        #expect(translated.language == "FR")
        #expect(translated.features[1]?.name == french.features[1]?.name)
        #expect(translated.features[1]?.name != list.features[1]?.name)
    }
}
