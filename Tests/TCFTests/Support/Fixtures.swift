import Foundation

/// The repository's public test data in `Fixtures/` (IAB vectors, real-world strings, vendor
/// lists; see `Fixtures/README.md`).
enum Fixtures {
    /// `<repository>/Fixtures`.
    static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // Support
        .deletingLastPathComponent()  // TCFTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()  // repository
        .appendingPathComponent("Fixtures")

    /// The bytes of `Fixtures/<path>`.
    static func data(_ path: String) throws -> Data {
        try Data(contentsOf: root.appendingPathComponent(path))
    }

    /// The parsed JSON of `Fixtures/<path>`.
    static func json(_ path: String) throws -> Any {
        try JSONSerialization.jsonObject(with: data(path))
    }

    /// Every vector of every `vectors/*.json` file, with the file it came from.
    static func vectors() throws -> [Vector] {
        let folder = root.appendingPathComponent("vectors")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { $0.hasSuffix(".json") }.sorted()
        var result: [Vector] = []
        for file in files {
            let object = try json("vectors/\(file)") as! [String: Any]
            for case let vector as [String: Any] in object["vectors"] as! [Any] {
                result.append(Vector(file: file, string: vector["string"] as! String, decoded: vector["decoded"] as! [String: Any]))
            }
        }
        return result
    }

    /// The 512 real-world strings, in file order.
    static func realWorldStrings() throws -> [String] {
        String(decoding: try data("vectors/real-world-v2.txt"), as: UTF8.self)
            .split(separator: "\n").map(String.init)
    }

    #if os(macOS) || os(Linux)
    /// The golden decodes of the real-world strings (gunzipped with the system's `gzip`; `Process`
    /// exists on macOS and Linux only).
    static func realWorldGolden() throws -> [[String: Any]] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "gzip -dc '\(root.path)/vectors/real-world-v2.golden.jsonl.gz'"]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return try output.split(separator: UInt8(ascii: "\n")).map {
            try JSONSerialization.jsonObject(with: Data($0)) as! [String: Any]
        }
    }
    #endif
}

/// One test vector: a string and the independent decoder's full decode of it.
struct Vector {
    let file: String
    let string: String
    let decoded: [String: Any]

    /// The spec violations the independent decoder found; non-empty means decoding must throw.
    var errors: [String] { decoded["errors"] as? [String] ?? [] }

    /// Where the vector came from, for failure messages.
    var label: String { "\(file): \(string.prefix(60))" }
}
