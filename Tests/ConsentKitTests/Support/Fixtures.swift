import Foundation
import TCF
@testable import ConsentKit

/// The repository's public test data in `Fixtures/` (see `Fixtures/README.md`), found the way
/// `TCFTests` finds it.
enum Fixtures {
    /// `<repository>/Fixtures`.
    static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // Support
        .deletingLastPathComponent()  // ConsentKitTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()  // repository
        .appendingPathComponent("Fixtures")

    /// The file URL of `Fixtures/<path>`.
    static func url(_ path: String) -> URL {
        root.appendingPathComponent(path)
    }

    /// The bytes of `Fixtures/<path>`.
    static func data(_ path: String) throws -> Data {
        try Data(contentsOf: url(path))
    }

    /// Line `number` (from 1) of `vectors/real-world-v2.txt`.
    static func realWorldString(line number: Int) throws -> String {
        let text = try String(contentsOf: url("vectors/real-world-v2.txt"), encoding: .utf8)
        return String(text.split(separator: "\n")[number - 1])
    }

    /// The real GVL v3 (#45, 2024-03-21), decoded once.
    static let vendorList: VendorList = {
        let data = try! Data(contentsOf: root.appendingPathComponent("gvl/gvl-v3_vendor-list-v45_2024-03-21.json"))
        return try! VendorList(jsonData: data)
    }()
}

/// The CMP identity tests write with.
let testCMP = CMPIdentity(cmpId: 300, cmpVersion: 7)

/// A fixed instant: 2026-03-04T05:06:07.890Z.
let testDate = Date(timeIntervalSince1970: 1_772_600_767.89)

/// A scope over the real GVL with the given vendors (default: the first `count` vendor ids).
func testScope(vendorIds: IDSet? = nil, count: Int = 850, publisherPurposes: IDSet = [], customPurposes: Int = 0,
               restrictions: [PublisherRestriction] = [], purposeOneTreatment: Bool = false) -> ConsentScope {
    let ids = vendorIds ?? IDSet(Fixtures.vendorList.vendors.keys.sorted().prefix(count))
    return ConsentScope(
        vendorList: Fixtures.vendorList, vendorIds: ids, publisherPurposes: publisherPurposes, numCustomPurposes: customPurposes,
        publisherCC: "de", purposeOneTreatment: purposeOneTreatment, publisherRestrictions: restrictions,
        consentScreen: 2, consentLanguage: "fr", noticeVersion: 3)
}
