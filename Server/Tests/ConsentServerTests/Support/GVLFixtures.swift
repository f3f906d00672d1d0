import Foundation

/// A file of the repository's `Fixtures/gvl/`, such as `gvl-v2_vendor-list-v224_2023-11-16.json`.
func gvlFixture(_ name: String) throws -> Data {
    try Data(contentsOf: URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/gvl").appendingPathComponent(name))
}

/// GVL v2 #224 (2023-11-16), the last v2 list: a higher number than v3 #45, in the older format.
let gvlV2Name = "gvl-v2_vendor-list-v224_2023-11-16.json"
/// GVL v3 #45 (2024-03-21), the list consentd bundles.
let gvlV3Name = "gvl-v3_vendor-list-v45_2024-03-21.json"
