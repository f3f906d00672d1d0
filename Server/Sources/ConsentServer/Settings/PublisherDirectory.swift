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

/// The service that keeps a process's ``PublisherDirectory`` up to date (decision 0041): it
/// imports the publishers file into the database when its bytes changed (checked every
/// `interval`; at once, and whatever its bytes, on `SIGHUP`), and polls the database's
/// configuration version every ``ConfigurationStore/pollInterval`` (or `interval` when shorter),
/// loading the configuration another process changed.
struct PublisherReloader: Service {
    let store: ConfigurationStore
    /// The publishers file, nil when there is none.
    let file: String?
    let interval: Duration
    let logger: Logger

    func run() async throws {
        let hangups = AsyncStream<Void> { continuation in
            guard file != nil else { return continuation.finish() }
            let source = HangupSource()
            source.source.setEventHandler { continuation.yield() }
            continuation.onTermination = { _ in source.source.cancel() }
            source.source.resume()
        }
        let poll = min(interval, ConfigurationStore.pollInterval)
        await cancelWhenGracefulShutdown {
            await withTaskGroup(of: Void.self) { group in
                group.addTask {
                    for await _ in hangups { await importFile(force: true, reason: "SIGHUP") }
                    // No file: wait for the cancellation like the loop below.
                    while !Task.isCancelled { try? await Task.sleep(for: .seconds(3600)) }
                }
                group.addTask {
                    var sinceFileCheck = Duration.zero
                    while !Task.isCancelled {
                        try? await Task.sleep(for: poll)
                        sinceFileCheck += poll
                        if sinceFileCheck >= interval {
                            sinceFileCheck = .zero
                            await importFile(force: false, reason: "file changed")
                        }
                        do {
                            if try await store.refresh() { logger.info("publisher configuration reloaded from the database") }
                        } catch {
                            logger.error("publisher configuration not reloaded from the database; keeping the one held", metadata: ["error": "\(error)"])
                        }
                    }
                }
                await group.next()
                group.cancelAll()
            }
        }
    }

    private func importFile(force: Bool, reason: String) async {
        guard let file else { return }
        do {
            if try await store.importFile(file, force: force) {
                logger.info("publisher configuration imported", metadata: ["file": "\(file)", "reason": "\(reason)"])
            }
        } catch {
            logger.error("publisher configuration not imported; keeping the one held", metadata: ["error": "\(error)"])
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
