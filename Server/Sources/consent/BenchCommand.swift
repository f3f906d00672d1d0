import ArgumentParser

/// `consent bench`: decode and encode throughput over a corpus of strings.
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "bench", abstract: "Measure decode and encode throughput.")

    @Argument(help: "A file with one consent string per line.")
    var corpus: String

    func run() throws { throw ValidationError("not yet available") }
}
