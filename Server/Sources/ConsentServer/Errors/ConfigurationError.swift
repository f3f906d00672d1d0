import Foundation

/// A configuration file or setting that cannot be used, with the file, line and field at fault
/// (for a command-line or environment setting: `settings` and the setting's name).
public struct ConfigurationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file.
    public var file: String
    /// The line (1-based), when known.
    public var line: Int?
    /// The field's path (`publishers[2].vendorIds[0]`), when one field is at fault.
    public var field: String?
    /// What is wrong.
    public var message: String

    /// `file:line: field: message`.
    public var description: String {
        var text = file
        if let line { text += ":\(line)" }
        text += ": "
        if let field { text += "\(field) " }
        return text + message
    }
}
