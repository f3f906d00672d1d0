import Foundation
import Synchronization

/// The publisher configuration in use. In consentd it follows the database
/// (``ConfigurationStore`` replaces it after every change and when another process's change is
/// polled: decision 0041), so a new provider or vendor reaches `GET /v1/config`, the trimmed
/// lists and the web CMP without a restart. Given a file alone (tools, tests), ``reload(force:)``
/// re-reads it; a file that no longer parses is thrown with its file, line and field, and the
/// configuration held stays.
public final class PublisherDirectory: Sendable {
    private struct Held: Sendable {
        var configuration: PublisherConfiguration
        var forWebsites: PublisherConfiguration
        /// The file's bytes when last read.
        var bytes: Data?
    }

    /// The file read, nil when the configuration was given in code.
    public let file: String?
    private let adjustForWebsites: @Sendable (PublisherConfiguration) -> PublisherConfiguration
    private let held: Mutex<Held>

    /// A directory holding `configuration`, read from `file` when given; the web CMP sees it
    /// through `adjustForWebsites` (which adds the demo's site when the demo is on).
    public init(_ configuration: PublisherConfiguration, file: String? = nil,
                adjustForWebsites: @escaping @Sendable (PublisherConfiguration) -> PublisherConfiguration = { $0 }) {
        self.file = file
        self.adjustForWebsites = adjustForWebsites
        self.held = Mutex(Held(configuration: configuration, forWebsites: adjustForWebsites(configuration),
                               bytes: file.flatMap { FileManager.default.contents(atPath: $0) }))
    }

    /// The configuration in use.
    public var current: PublisherConfiguration { held.withLock { $0.configuration } }

    /// The configuration the web CMP uses (``current``, with the demo's site when it is on).
    public var forWebsites: PublisherConfiguration { held.withLock { $0.forWebsites } }

    /// Replaces the configuration in use with `configuration` (a change made in the database:
    /// ``ConfigurationStore``); returns whether it differed from the one held.
    @discardableResult
    public func replace(_ configuration: PublisherConfiguration) -> Bool {
        let forWebsites = adjustForWebsites(configuration)
        return held.withLock { held in
            guard held.configuration != configuration else { return false }
            held.configuration = configuration
            held.forWebsites = forWebsites
            return true
        }
    }

    /// Reads the file again when its bytes changed since the last read (or always, with
    /// `force`). Returns whether the configuration was replaced; throws when the file cannot be
    /// read or does not parse, keeping the configuration held.
    @discardableResult
    public func reload(force: Bool = false) throws(ConfigurationError) -> Bool {
        guard let file else { return false }
        guard let bytes = FileManager.default.contents(atPath: file) else {
            throw ConfigurationError(file: file, line: nil, field: nil, message: "cannot be read")
        }
        if !force, bytes == held.withLock({ $0.bytes }) { return false }
        let configuration = try PublisherConfiguration.parse(String(decoding: bytes, as: UTF8.self), file: file)
        let forWebsites = adjustForWebsites(configuration)
        return held.withLock { held in
            held.bytes = bytes
            guard held.configuration != configuration else { return false }
            held.configuration = configuration
            held.forWebsites = forWebsites
            return true
        }
    }
}
