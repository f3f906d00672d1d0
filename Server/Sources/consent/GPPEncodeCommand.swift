import ArgumentParser
import Foundation
import GPP

/// `consent gpp encode`: the JSON form that `consent gpp decode --json` prints, back into GPP strings.
struct GPPEncodeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "encode",
        abstract: "Encode GPP strings from their JSON form.",
        discussion: """
            Each argument, or when there are none each line of standard input, is one object in the \
            form `consent gpp decode --json` prints; each string is printed on its own line. Sections \
            are written in id order. An object that cannot be encoded is reported on standard error as \
            `line N: ...` (`argument N: ...`), the rest are still encoded, and the exit status is 1.
            """
    )

    @Argument(help: "JSON objects to encode. Reads standard input, one object per line, when none are given.")
    var objects: [String] = []

    func run() throws {
        let inputs = objects.isEmpty ? AnySequence(Output.inputLines()) : AnySequence(objects)
        let place = objects.isEmpty ? "line" : "argument"
        var failures = 0
        for (index, text) in inputs.enumerated() {
            do {
                let value = try JSONDecoder().decode(GPPString.self, from: Data(text.utf8))
                Output.line(try value.encoded())
            } catch {
                failures += 1
                Output.error("\(place) \(index + 1): \(EncodeCommand.describe(error))")
            }
        }
        if failures > 0 { throw ExitCode.failure }
    }
}
