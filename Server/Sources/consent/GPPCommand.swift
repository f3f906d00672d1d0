import ArgumentParser

/// `consent gpp`: the IAB Global Privacy Platform string's subcommands.
struct GPPCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gpp",
        abstract: "Decode and encode GPP strings (IAB Global Privacy Platform: tcfeuv2, tcfcav1, uspv1, usnat and the US states).",
        subcommands: [GPPDecodeCommand.self, GPPEncodeCommand.self]
    )
}
