import ArgumentParser

/// `consent`: decode and encode consent strings, inspect vendor lists, measure the codecs.
@main
struct Consent: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Decode and encode TCF consent strings and inspect Global Vendor Lists.",
        subcommands: [DecodeCommand.self, EncodeCommand.self, VendorListCommand.self, BenchCommand.self]
    )
}
