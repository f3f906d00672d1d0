import ArgumentParser
import GPP

/// `consent gpp decode`: GPP strings to their JSON form or a readable summary.
struct GPPDecodeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decode",
        abstract: "Decode GPP strings.",
        discussion: """
            Strings come from the arguments or, when there are none, one per line on standard input \
            (blank lines are skipped), each decoded and printed before the next is read. The JSON form \
            has one key per section in string order, the section's API prefix (usnat, usca, tcfeuv2, ...) \
            or, for an id the decoder does not know, its number with the section's text; each section's \
            fields carry the names of the IAB section specs. A string that fails to decode is reported \
            (with --json as {"error": {"code", "message", "section", "field", "bitOffset"}}) and the rest \
            are still decoded; the exit status is 1 if any failed.
            """
    )

    @Flag(name: .long, help: "Print one JSON object per string, in input order.")
    var json = false

    @Argument(help: "GPP strings to decode. Reads standard input when none are given.")
    var strings: [String] = []

    func run() throws {
        let inputs = strings.isEmpty ? AnySequence(Output.inputLines()) : AnySequence(strings)
        var failures = 0
        for (index, input) in inputs.enumerated() {
            do throws(GPPDecodingError) {
                let decoded = try GPPString(decoding: input)
                Output.line(json ? decoded.jsonText() : (index > 0 ? "\n" : "") + Self.summary(of: decoded, input: input))
            } catch {
                failures += 1
                if json {
                    Output.line(try Output.json(ErrorReport(error)))
                } else {
                    Output.error("\(input): \(error)")
                }
            }
        }
        if failures > 0 { throw ExitCode.failure }
    }

    /// The string, then one line per section: its prefix and id, and its fields as in the JSON form.
    static func summary(of value: GPPString, input: String) -> String {
        var lines = ["GPP string \(input)", "  sections: \(value.sectionIds.map(String.init).joined(separator: ", "))"]
        for section in value.sections {
            let key = section.prefix ?? String(section.id)
            // The one-section string's JSON form is {"key":<the section>}.
            let object = GPPString(sections: [section]).jsonText().dropFirst(key.utf8.count + 4).dropLast()
            lines.append("  \(key) (\(section.id)): \(object)")
        }
        return lines.joined(separator: "\n")
    }

    /// `{"error": {...}}`: what went wrong and where, the keys present when known.
    struct ErrorReport: Encodable {
        struct Detail: Encodable {
            let code: String
            let message: String
            let section: String?
            let field: String?
            let bitOffset: Int?
        }

        let error: Detail

        init(_ error: GPPDecodingError) {
            // The empty string and a bare TC string are refused before any bit is read.
            let located = error.reason != .empty && error.reason != .bareTCString
            self.error = Detail(
                code: error.code,
                message: error.description,
                section: error.sectionPrefix ?? error.sectionId.map(String.init),
                field: error.field.isEmpty ? nil : error.field,
                bitOffset: located ? error.bitOffset : nil
            )
        }
    }
}
