import ArgumentParser
import Foundation
import TCF

/// `consent encode`: turns the JSON form that `decode --json` prints back into strings.
struct EncodeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "encode",
        abstract: "Encode consent strings from JSON objects, one per line on standard input.",
        discussion: """
            Each line is an object in the form `consent decode --json` prints (its `validation` is \
            ignored); `version` selects v1.1 or v2.x. Each string is printed on its own line. A line \
            that cannot be encoded is reported on standard error as `line N: ...`, the rest are \
            still encoded, and the exit status is 1.
            """
    )

    func run() throws {
        let decoder = JSONDecoder()
        var failures = 0
        for (index, line) in Output.inputLines().enumerated() {
            do {
                let value = try decoder.decode(ConsentString.self, from: Data(line.utf8))
                Output.line(try value.encoded())
            } catch {
                failures += 1
                Output.error("line \(index + 1): \(Self.describe(error))")
            }
        }
        if failures > 0 { throw ExitCode.failure }
    }

    /// A one-line reason, naming the JSON path for decoding errors.
    static func describe(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "\(error)" }
        func path(_ context: DecodingError.Context) -> String {
            let keys = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            return keys.isEmpty ? "top level" : String(keys.drop { $0 == "." })
        }
        switch error {
        case .keyNotFound(let key, let context):
            let parent = context.codingPath.isEmpty ? "" : " in \(path(context))"
            return "missing field \"\(key.stringValue)\"\(parent)"
        case .typeMismatch(let type, let context):
            return "\(path(context)): expected \(type), \(context.debugDescription)"
        case .valueNotFound(let type, let context):
            return "\(path(context)): expected \(type), found null"
        case .dataCorrupted(let context):
            let underlying = context.underlyingError.map { " (\($0.localizedDescription))" } ?? ""
            return "\(path(context)): \(context.debugDescription)\(underlying)"
        @unknown default:
            return "\(error)"
        }
    }
}
