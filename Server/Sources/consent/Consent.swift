import ArgumentParser

/// `consent`: decode and encode consent strings and GPP strings, inspect vendor lists, measure the codecs, check
/// an app's Info.plist, print what an app's web views get.
@main
struct Consent: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Decode and encode TCF consent strings and GPP strings, inspect Global Vendor Lists, check an app's Info.plist, manage consentd's keys, publisher configuration and console operators and check its hash chains, and print the script an app's web views get.",
        subcommands: [DecodeCommand.self, EncodeCommand.self, GPPCommand.self, VendorListCommand.self, BenchCommand.self, KeysCommand.self, ConfigCommand.self, OperatorsCommand.self, ChainCommand.self, DoctorCommand.self, WebViewScriptCommand.self]
    )
}
