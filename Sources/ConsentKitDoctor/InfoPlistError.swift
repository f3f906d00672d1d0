import Foundation

/// Why an Info.plist could not be checked at all, and where.
public enum InfoPlistError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file could not be read (no such file, no permission, a folder). Check the path; the
    /// Info.plist of a built app is `MyApp.app/Info.plist`.
    case unreadableFile(URL, reason: String)
    /// The bytes are not a property list in any format `PropertyListSerialization` reads (XML,
    /// binary, OpenStep); `reason` is the parser's message, with a line number for text formats.
    /// `source` is the file, or nil for bytes passed directly.
    case notAPropertyList(source: URL?, reason: String)
    /// The property list parses but its root is not a dictionary (`found` names what it is), so
    /// it cannot be an Info.plist. An Info.plist is `<plist><dict>…</dict></plist>`.
    case rootNotDictionary(source: URL?, found: String)

    /// One line for a person: what failed and where.
    public var description: String {
        switch self {
        case .unreadableFile(let url, let reason):
            "cannot read \(url.path): \(reason)"
        case .notAPropertyList(let source, let reason):
            "\(Self.name(source)) is not a property list: \(reason)"
        case .rootNotDictionary(let source, let found):
            "\(Self.name(source)) is not an Info.plist: its root is \(found), not a dictionary"
        }
    }

    private static func name(_ source: URL?) -> String {
        source?.path ?? "the data"
    }
}
