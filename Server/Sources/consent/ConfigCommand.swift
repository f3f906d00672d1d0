import ArgumentParser
import ConsentServer
import Foundation

/// `consent config`: the publisher configuration consentd keeps in its database (decision 0041),
/// written out as publishers.yaml, or imported from one.
struct ConfigCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config",
        abstract: "Export consentd's publisher configuration from its database as publishers.yaml, or import one.",
        subcommands: [Export.self, Import.self]
    )

    struct Export: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write the configuration in the database as publishers.yaml (importing it gives the same configuration).")

        @Option(help: "Write to this file instead of standard output.")
        var output: String?

        @OptionGroup var options: DatabaseOptions

        func run() async throws {
            let yaml = try await options.withDatabase { database in
                try await ConfigurationStore(database: database, directory: PublisherDirectory(.empty)).load().document.yaml()
            }
            if let output {
                try yaml.write(toFile: output, atomically: true, encoding: .utf8)
            } else {
                Output.line(yaml.hasSuffix("\n") ? String(yaml.dropLast()) : yaml)
            }
        }
    }

    struct Import: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Replace the configuration in the database with a publishers.yaml file (running consentds load it within seconds).")

        @Argument(help: "The publishers.yaml file.")
        var file: String

        @OptionGroup var options: DatabaseOptions

        func run() async throws {
            _ = try await options.withDatabase { database in
                try await ConfigurationStore(database: database, directory: PublisherDirectory(.empty)).importFile(file, force: true)
            }
            Output.error("imported \(file)")
        }
    }
}
