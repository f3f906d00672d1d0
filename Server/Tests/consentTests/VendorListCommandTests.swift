import Foundation
import Testing

/// `consent gvl` summarises a real vendor list and shows one vendor.
@Suite struct VendorListCommandTests {
    /// The repository's `Fixtures/gvl` folder (see `Fixtures/README.md`).
    static let gvl = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
        .appendingPathComponent("Fixtures/gvl").path

    @Test func theSummaryGivesVersionsCountsAndDeclarations() throws {
        let result = try Consent.run(["gvl", "\(Self.gvl)/gvl-v3_vendor-list-v45_2024-03-21.json"])
        #expect(result.status == 0)
        #expect(result.output.contains("Global Vendor List version 45"))
        #expect(result.output.contains("GVL specification 3"))
        #expect(result.output.contains("vendors         833 (20 deleted), ids 1-4202"))
        #expect(result.output.contains("purposes (11):"))
        #expect(result.output.contains("data categories (11):"))
        #expect(result.output.contains("   1  Store and/or access information on a device"))
    }

    @Test func oneVendorShowsItsDeclarationsByName() throws {
        let result = try Consent.run(["gvl", "\(Self.gvl)/gvl-v3_vendor-list-v45_2024-03-21.json", "--vendor", "165"])
        #expect(result.status == 0)
        #expect(result.output.contains("Vendor 165: SpotX, Inc"))
        #expect(result.output.contains("retention (days)"))
        #expect(result.output.contains("standard 28, purpose 10: 90"))
        #expect(result.output.contains("deleted"))
        #expect(result.output.contains("2023-10-20T00:00:00.000Z"))
    }

    @Test func aTranslationReplacesTheTextsInItsLanguage() throws {
        let result = try Consent.run([
            "gvl", "\(Self.gvl)/gvl-v2_vendor-list-v224_2023-11-16.json", "--translation", "\(Self.gvl)/gvl-v2_purposes-de.json",
        ])
        #expect(result.status == 0)
        #expect(result.output.contains("language        DE"))
        #expect(result.output.contains("Informationen auf einem Gerät speichern und/oder abrufen"))
    }

    @Test func anUnknownVendorFailsWithAMessage() throws {
        let result = try Consent.run(["gvl", "\(Self.gvl)/gvl-v1_vendorlist-v66_2018-07-03.json", "--vendor", "9999"])
        #expect(result.status != 0)
        #expect(result.error.contains("vendor 9999 is not in vendor list 66"))
    }

    @Test func aMalformedListFailsNamingFileAndPlace() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("bad-gvl-\(UUID()).json")
        try Data(#"{"vendorListVersion": 1, "purposes": {}, "vendors": {"7": {"id": "7"}}}"#.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try Consent.run(["gvl", file.path])
        #expect(result.status != 0)
        #expect(result.error.contains("expected an integer at vendors.7.id (line 1, column 66, byte 65)"))
    }

    @Test func aMalformedTranslationFailsNamingTheTranslationFile() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("bad-purposes-\(UUID())-de.json")
        try Data(#"{"purposes": {"1": {"name": 5}}}"#.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try Consent.run([
            "gvl", "\(Self.gvl)/gvl-v2_vendor-list-v224_2023-11-16.json", "--translation", file.path,
        ])
        #expect(result.status != 0)
        #expect(result.error.contains("consent gvl: \(file.path): "))
        #expect(result.error.contains("purposes.1.name"))
    }
}
