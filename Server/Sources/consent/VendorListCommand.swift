import ArgumentParser
import Foundation
import TCF

/// `consent gvl`: summarises a Global Vendor List file, or shows one vendor.
struct VendorListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gvl",
        abstract: "Summarise a Global Vendor List (v1, v2 or v3 JSON), or show one vendor."
    )

    @Argument(help: "A vendor-list.json file.")
    var file: String

    @Option(name: .long, help: "Show this vendor's declarations instead of the list summary.")
    var vendor: Int?

    func run() throws {
        throw ValidationError("not yet available")
    }
}
