import Dispatch
import Foundation
import Logging
import ServiceLifecycle
import Synchronization

/// The publisher configuration in use, re-read from its file while consentd runs: at once on
/// `SIGHUP`, and every ``ServerSettings/publishersReload`` when the file's bytes changed. A new
/// provider or vendor therefore reaches `GET /v1/config`, the trimmed lists and the web CMP
/// without a restart. A file that no longer parses is logged with its file, line and field, and
/// the configuration held stays.
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

/// The service that re-reads a ``PublisherDirectory``'s file on `SIGHUP` and every `interval`.
struct PublisherReloader: Service {
    let directory: PublisherDirectory
    let interval: Duration
    let logger: Logger

    func run() async throws {
        let hangups = AsyncStream<Void> { continuation in
            let source = HangupSource()
            source.source.setEventHandler { continuation.yield() }
            continuation.onTermination = { _ in source.source.cancel() }
            source.source.resume()
        }
        await cancelWhenGracefulShutdown {
            await withTaskGroup(of: Void.self) { group in
                group.addTask {
                    for await _ in hangups { reload(force: true, reason: "SIGHUP") }
                }
                group.addTask {
                    while !Task.isCancelled {
                        try? await Task.sleep(for: interval)
                        reload(force: false, reason: "file changed")
                    }
                }
                await group.next()
                group.cancelAll()
            }
        }
    }

    private func reload(force: Bool, reason: String) {
        do {
            if try directory.reload(force: force) {
                logger.info("publisher configuration reloaded", metadata: ["file": "\(directory.file ?? "")", "reason": "\(reason)"])
            }
        } catch {
            logger.error("publisher configuration not reloaded; keeping the one held", metadata: ["error": "\(error)"])
        }
    }
}

/// A `SIGHUP` source: the signal's default action (ending the process) is turned off while it
/// exists. Dispatch sources are thread-safe; the type only says so to the compiler.
private final class HangupSource: @unchecked Sendable {
    let source: any DispatchSourceSignal

    init() {
        signal(SIGHUP, SIG_IGN)
        source = DispatchSource.makeSignalSource(signal: SIGHUP, queue: .global())
    }
}
