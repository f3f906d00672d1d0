import Foundation

/// Line-oriented input and output shared by the subcommands.
enum Output {
    /// Writes `text` and a newline to standard output.
    static func line(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    /// Writes `text` and a newline to standard error.
    static func error(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    /// Compact, key-sorted JSON for one object per line.
    static func json<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    /// The non-empty lines of standard input, trimmed of surrounding whitespace, read one at a
    /// time as the sequence is iterated: a line is handled before the next is read, so a long
    /// input never sits in memory whole.
    static func inputLines() -> UnfoldSequence<String, Void> {
        sequence(state: ()) { _ in
            while let line = readLine(strippingNewline: true) {
                let trimmed = line.trimmingCharacters(in: .whitespacesAndNewlines)
                if !trimmed.isEmpty { return trimmed }
            }
            return nil
        }
    }
}
