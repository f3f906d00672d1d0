import ConsentKitFormats
import Crypto
import Dispatch
import Foundation
import Logging
import ServiceLifecycle
import SQLKit
import Synchronization

/// The publisher configuration in the database (`config_entries`, `config_state`; decision 0041):
/// the source of truth once consentd has started. The publishers file is an import: read at start
/// and while consentd runs only when its bytes changed since the last import (its SHA-256 is
/// recorded), then the database holds what it said. Every change raises the configuration's
/// version; each consentd process polls it and reloads its ``PublisherDirectory`` when it moved, so
/// a change made on one node reaches every node within ``pollInterval``.
public final class ConfigurationStore: Sendable {
    /// How often a process asks whether another changed the configuration.
    public static let pollInterval: Duration = .seconds(5)

    let database: Database
    let audit: AuditLog
    /// The directory this process serves from: replaced after every change and reload.
    public let directory: PublisherDirectory
    /// The version the directory holds (-1 before the first load).
    private let heldVersion = Atomic<Int64>(-1)

    /// The store of `database`, publishing to `directory`.
    public init(database: Database, directory: PublisherDirectory) {
        self.database = database
        self.audit = AuditLog(database: database)
        self.directory = directory
    }

    /// The kinds of entry the database keeps.
    enum Kind: String, CaseIterable {
        case publisher, app, website
    }

    // MARK: Reading

    /// The configuration stored and its version.
    public func load() async throws -> (document: ConfigurationDocument, version: Int64) {
        try await database.read { db in try await Self.read(db) }
    }

    /// The version stored now.
    public func version() async throws -> Int64 {
        try await database.read { db in try await Self.version(db) }
    }

    static func version(_ db: any SQLDatabase) async throws -> Int64 {
        try await db.raw("SELECT version FROM config_state WHERE id = 1").first()?.decode(column: "version", as: Int64.self) ?? 0
    }

    static func read(_ db: any SQLDatabase) async throws -> (document: ConfigurationDocument, version: Int64) {
        let version = try await version(db)
        var document = ConfigurationDocument.empty
        let decoder = JSONDecoder()
        for row in try await db.raw("SELECT kind, document FROM config_entries ORDER BY kind, entry_id").all() {
            let text = Data(try row.decode(column: "document", as: String.self).utf8)
            switch Kind(rawValue: try row.decode(column: "kind", as: String.self)) {
            case .publisher: document.publishers.append(try decoder.decode(ConfigurationDocument.Publisher.self, from: text))
            case .app: document.apps.append(try decoder.decode(ConfigurationDocument.App.self, from: text))
            case .website: document.websites.append(try decoder.decode(ConfigurationDocument.Website.self, from: text))
            case nil: continue
            }
        }
        return (document, version)
    }

    /// Loads the stored configuration into the directory when its version moved since the last
    /// load (or always, with `force`); returns whether it was read (the version moved: the
    /// directory's configuration, or only a published notice, changed). A
    /// stored configuration the reader refuses (written by a newer consentd) is thrown, and the
    /// configuration held stays. Without `force`, a directory never loaded from the database (a
    /// configuration given in code) is left alone.
    /// (Never inlined: inlined into `Consentd.start`, this atomic's load after a `try await` made
    /// Swift 6.3.1's optimizer crash splitting the caller's coroutine, so no release build linked.)
    @discardableResult
    @inline(never)
    public func refresh(force: Bool = false) async throws -> Bool {
        if !force {
            let held = heldVersion.load(ordering: .relaxed)
            if held < 0 { return false }
            if try await version() == held { return false }
        }
        let (document, version) = try await load()
        let configuration = try document.configuration(source: "the database's configuration")
        heldVersion.store(version, ordering: .relaxed)
        directory.replace(configuration)
        return true
    }

    // MARK: Importing

    /// Imports the publishers file `path` when its bytes changed since the last import (or always,
    /// with `force`), then loads the database's configuration into the directory. Returns whether
    /// the file was imported. A file that cannot be read or parsed is thrown with its line and
    /// field; nothing is imported then.
    @discardableResult
    public func importFile(_ path: String, force: Bool = false, now: Date = Date()) async throws -> Bool {
        guard let bytes = FileManager.default.contents(atPath: path) else {
            throw ConfigurationError(file: path, line: nil, field: nil, message: "cannot be read")
        }
        let hash = SHA256.hash(data: bytes).hexString
        let imported = try await database.read { db in
            try await db.raw("SELECT imported_sha256 FROM config_state WHERE id = 1").first()?.decode(column: "imported_sha256", as: String?.self) ?? nil
        }
        if !force, imported == hash { return false }
        let configuration = try PublisherConfiguration.parse(String(decoding: bytes, as: UTF8.self), file: path)
        try await replaceAll(with: ConfigurationDocument(configuration), importedSHA256: hash, source: path, now: now)
        return true
    }

    /// Replaces the whole stored configuration with `document` (an import), in the audit log as
    /// `configuration_imported` from `source`, then loads it into the directory.
    public func replaceAll(with document: ConfigurationDocument, importedSHA256: String? = nil, source: String,
                           operatorId: String? = nil, now: Date = Date()) async throws {
        _ = try document.configuration(source: source)
        let at = ISO8601.milliseconds(of: now)
        try await database.transaction { db in
            try await Self.raiseVersion(db, at: at)
            try await db.raw("DELETE FROM config_entries").run()
            for (kind, id, text) in Self.entries(document) {
                try await Self.insert(db, kind: kind, id: id, document: text, at: at)
            }
            if let importedSHA256 {
                try await db.raw("""
                    UPDATE config_state SET imported_sha256 = \(bind: importedSHA256), imported_at_ms = \(bind: at) WHERE id = 1
                    """).run()
            }
            try await audit.record(.configurationImported, operatorId: operatorId, target: source, address: "file", at: now, in: db)
        }
        try await refresh(force: true)
    }

    // MARK: Changing

    /// A change refused because the configuration after it would not hold together (a website
    /// would name a publisher deleted, an app would read none): 409 naming the field at fault.
    static func conflict(_ error: ConfigurationError) -> APIError {
        APIError(.conflict, "configuration_conflict", "the configuration after this change would not hold: \(error.field.map { "\($0) " } ?? "")\(error.message)",
                 field: error.field)
    }

    /// Changes the stored configuration with `change` (given the configuration as stored now, in
    /// the transaction that writes it, so changes from several nodes never overwrite each other),
    /// checks the result with the YAML reader (409 ``conflict(_:)`` when it does not hold), writes
    /// the entries that changed, raises the version, records `action` on `target` by `operatorId`
    /// in the audit log, and publishes the new configuration to the directory at once.
    ///
    /// This is the one way to publish a new configuration: the console's routes use it, and so can
    /// any other editor of the configuration (the notice's settings of a website, for one).
    @discardableResult
    public func change<R: Sendable>(
        _ action: AuditAction, target: String, operatorId: String?, address: String?, now: Date = Date(),
        _ change: @escaping @Sendable (inout ConfigurationDocument) throws -> R
    ) async throws -> R {
        let at = ISO8601.milliseconds(of: now)
        let (result, configuration, version) = try await database.transaction { db in
            // First: on PostgreSQL the row's lock orders the changes of every node.
            let version = try await Self.raiseVersion(db, at: at)
            let before = try await Self.read(db).document
            var after = before
            let result = try change(&after)
            let configuration: PublisherConfiguration
            do {
                configuration = try after.configuration(source: "the configuration")
            } catch let error as ConfigurationError {
                throw Self.conflict(error)
            }
            let old = Dictionary(Self.entries(before).map { ("\($0.0.rawValue) \($0.1)", $0.2) }, uniquingKeysWith: { $1 })
            let new = Self.entries(after)
            for (kind, id, text) in new where old["\(kind.rawValue) \(id)"] != text {
                try await db.raw("DELETE FROM config_entries WHERE kind = \(bind: kind.rawValue) AND entry_id = \(bind: id)").run()
                try await Self.insert(db, kind: kind, id: id, document: text, at: at)
            }
            let kept = Set(new.map { "\($0.0.rawValue) \($0.1)" })
            for (kind, id, _) in Self.entries(before) where !kept.contains("\(kind.rawValue) \(id)") {
                try await db.raw("DELETE FROM config_entries WHERE kind = \(bind: kind.rawValue) AND entry_id = \(bind: id)").run()
            }
            try await audit.record(action, operatorId: operatorId, target: target, address: address, at: now, in: db)
            return (result, configuration, version)
        }
        heldVersion.store(version, ordering: .relaxed)
        directory.replace(configuration)
        return result
    }

    /// Raises the version; returns the new one.
    @discardableResult
    static func raiseVersion(_ db: any SQLDatabase, at: Int64) async throws -> Int64 {
        try await db.raw("UPDATE config_state SET version = version + 1, updated_at_ms = \(bind: at) WHERE id = 1").run()
        return try await version(db)
    }

    static func insert(_ db: any SQLDatabase, kind: Kind, id: String, document: String, at: Int64) async throws {
        try await db.raw("""
            INSERT INTO config_entries (kind, entry_id, document, updated_at_ms)
            VALUES (\(bind: kind.rawValue), \(bind: id), \(bind: document), \(bind: at))
            """).run()
    }

    /// Every entry of `document` as stored: kind, id, JSON text.
    static func entries(_ document: ConfigurationDocument) -> [(Kind, String, String)] {
        document.publishers.map { (Kind.publisher, $0.id, ConfigurationDocument.json($0)) }
            + document.apps.map { (Kind.app, $0.appId, ConfigurationDocument.json($0)) }
            + document.websites.map { (Kind.website, $0.appId, ConfigurationDocument.json($0)) }
    }
}

/// The service that keeps a process's ``PublisherDirectory`` and published notices up to date
/// (decisions 0041, 0043): it imports the publishers file into the database when its bytes
/// changed (checked every `interval`; at once, and whatever its bytes, on `SIGHUP`), and polls the
/// database's configuration version every ``ConfigurationStore/pollInterval`` (or `interval` when
/// shorter), loading the configuration and the notices another process changed (publishing a
/// notice raises the version too).
struct PublisherReloader: Service {
    let store: ConfigurationStore
    /// Reads the published notices again (``NoticeVersions/load()``), whenever the version moved.
    let reloadNotices: @Sendable () async throws -> Void
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
                        await reloadIfChanged()
                    }
                }
                await group.next()
                group.cancelAll()
            }
        }
    }

    /// Loads the configuration and the published notices when the database's version moved since
    /// this process last read it; on failure keeps what it holds and logs why.
    func reloadIfChanged() async {
        do {
            guard try await store.refresh() else { return }
            try await reloadNotices()
            logger.info("publisher configuration and published notices read again: the database's configuration version moved")
        } catch {
            logger.error("publisher configuration not reloaded from the database; keeping the one held", metadata: ["error": "\(error)"])
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
