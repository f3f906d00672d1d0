import Foundation

/// Files in the project's shared reference folder (`../shared/reference` beside the repository),
/// found the way `TCFTests` finds them.
enum SharedReference {
    /// `<repository>/../shared/reference`.
    static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // Support
        .deletingLastPathComponent()  // VendorList
        .deletingLastPathComponent()  // ConsentKitTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()  // repository
        .deletingLastPathComponent()
        .appendingPathComponent("shared/reference")

    /// The file URL of `reference/<path>`.
    static func url(_ path: String) -> URL {
        root.appendingPathComponent(path)
    }

    /// The bytes of `reference/<path>`.
    static func data(_ path: String) throws -> Data {
        try Data(contentsOf: url(path))
    }
}
