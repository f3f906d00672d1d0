import Foundation

/// Real Global Vendor Lists from `Fixtures/gvl`, and lists derived from them.
enum GVLFixtures {
    /// The published GVL v3 #45 (2024-03-21), as a file.
    static let v3v45File = Fixtures.url("gvl/gvl-v3_vendor-list-v45_2024-03-21.json")

    /// The published GVL v3 #45, byte for byte.
    static func v3v45() throws -> Data {
        try Data(contentsOf: v3v45File)
    }

    /// The published GVL v2 #224 (2023-11-16): a higher number, but of the older format.
    static func v2v224() throws -> Data {
        try Fixtures.data("gvl/gvl-v2_vendor-list-v224_2023-11-16.json")
    }

    /// GVL v3 #45 with its `vendorListVersion` changed to `version`; everything else as published.
    static func v3(renumberedTo version: Int) throws -> Data {
        let text = String(decoding: try v3v45(), as: UTF8.self)
        guard let range = text.range(of: "\"vendorListVersion\": 45") else {
            throw FixtureError("GVL v3 #45 no longer contains \"vendorListVersion\": 45")
        }
        return Data(text.replacingCharacters(in: range, with: "\"vendorListVersion\": \(version)").utf8)
    }

    /// GVL v3 #45 cut to `vendorIds`, as consentd's trimmed route does (same version, fewer vendors).
    static func v3v45(trimmedTo vendorIds: Set<Int>) throws -> Data {
        guard var object = try JSONSerialization.jsonObject(with: try v3v45()) as? [String: Any],
              let vendors = object["vendors"] as? [String: Any] else {
            throw FixtureError("GVL v3 #45 is not an object with vendors")
        }
        object["vendors"] = vendors.filter { vendorIds.contains(Int($0.key) ?? 0) }
        return try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
    }
}

/// A fixture that could not be made.
struct FixtureError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
