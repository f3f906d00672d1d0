import ArgumentParser
import TCF

/// `consent decode`: decodes v1.1 and v2.x strings to JSON or a readable summary.
struct DecodeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decode",
        abstract: "Decode consent strings (TCF v1.1 or v2.x).",
        discussion: """
            Strings come from the arguments or, when there are none, one per line on standard input \
            (blank lines are skipped). Each string is decoded and printed before the next is read. A \
            string that fails to decode is reported and the rest are still decoded; the exit status is \
            1 if any failed. In the JSON form, a publisher restriction's vendors are ranges \
            [[first, last], ...].
            """
    )

    @Flag(name: .long, help: "Print one JSON object per string, in input order; errors as {\"input\", \"error\"}.")
    var json = false

    @Argument(help: "Consent strings to decode. Reads standard input when none are given.")
    var strings: [String] = []

    func run() throws {
        let inputs = strings.isEmpty ? AnySequence(Output.inputLines()) : AnySequence(strings)
        var failures = 0
        for (index, input) in inputs.enumerated() {
            do {
                let decoded = try ConsentString(decoding: input)
                Output.line(json ? try Output.json(decoded) : (index > 0 ? "\n" : "") + Summary.text(for: decoded))
            } catch let error as TCFDecodingError {
                failures += 1
                if json {
                    Output.line(try Output.json(["input": input, "error": error.description]))
                } else {
                    Output.error("\(input): \(error)")
                }
            }
        }
        if failures > 0 { throw ExitCode.failure }
    }
}
