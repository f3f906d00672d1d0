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
        // v224 has stacks 38...42, which the v29 translation predates: they keep the English text.
        #expect(german.stacks[42] == list.stacks[42])
        #expect(german.stacks.count == list.stacks.count)
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
