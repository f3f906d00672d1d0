import AsyncKit
import Foundation
import Logging
import NIOCore
import NIOPosix
import PostgresKit
import SQLiteKit
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The database engines consentd stores its data in.
public enum DatabaseEngine: String, Sendable {
    /// An SQLite file: the embedded default, one node.
    case sqlite
    /// A PostgreSQL server: several stateless nodes share it.
    case postgresql
}

/// A database consentd reads from through a pool and writes to through one connection.
///
/// Every write runs in a transaction on the single writer connection, one after the other. For
/// SQLite that is the only way to write without lock contention; for PostgreSQL it lets one
/// node batch concurrent appends into one commit (see `GroupCommitter`). Reads use the pool.
public final class Database: Sendable {
    /// The engine behind this database.
    public let engine: DatabaseEngine
    private let pool: any ConnectionPool
    private let writer: WriterConnection
    private let logger: Logger

    /// Opens the database a URL names: `sqlite:PATH` (or a path ending in `.sqlite`), or
    /// `postgres://user:password@host:port/database` / `postgres+uds://user@localhost/socket#database`.
    ///
    /// For SQLite this turns on WAL mode with `synchronous=FULL`, so a committed write survives a
    /// crash of the process or the machine.
    public static func open(url: String, logger: Logger) async throws -> Database {
        let location = try DatabaseLocation(url: url)
        switch location {
        case .sqlite(let path):
            let pool = try await SQLitePool.open(path: path, logger: logger)
            return try await Database(engine: .sqlite, pool: pool, logger: logger)
        case .postgres(let configuration):
            let pool = try PostgresPool(url: configuration, logger: logger)
            return try await Database(engine: .postgresql, pool: pool, logger: logger)
        }
    }

    private init(engine: DatabaseEngine, pool: any ConnectionPool, logger: Logger) async throws {
        self.engine = engine
        self.pool = pool
        self.logger = logger
        let writer = WriterConnection(open: { try await pool.dedicatedConnection() })
        do {
            // Open it now, so a database that cannot be reached stops the start.
            try await writer.exclusively { db in try await db.raw("SELECT 1 AS one").run() }
        } catch {
            await pool.shutdown()
            throw error
        }
        self.writer = writer
    }

    /// The PostgreSQL pool, for reads that run as prepared statements (parsed and planned once
    /// per connection instead of once per query); nil on SQLite.
    var postgres: PostgresClient? { (pool as? PostgresPool)?.client }

    /// Runs `body` on a pooled connection, for reads.
    public func read<R: Sendable>(_ body: @Sendable (any SQLDatabase) async throws -> R) async throws -> R {
        try await pool.withConnection(body)
    }

    /// Runs `body` in a transaction on the writer connection, after every write queued before it.
    /// A thrown error rolls the transaction back.
    public func transaction<R: Sendable>(_ body: @Sendable (any SQLDatabase) async throws -> R) async throws -> R {
        let begin: SQLQueryString = engine == .sqlite ? "BEGIN IMMEDIATE" : "BEGIN"
        return try await writer.exclusively { db in
            try await db.raw(begin).run()
            do {
                let result = try await body(db)
                try await db.raw("COMMIT").run()
                return result
            } catch {
                try? await db.raw("ROLLBACK").run()
                throw error
            }
        }
    }

    /// Closes every connection.
    public func close() async {
        await writer.close()
        await pool.shutdown()
    }
}

/// Where a database URL points.
enum DatabaseLocation: Equatable {
    case sqlite(path: String)
    case postgres(url: String)

    init(url: String) throws {
        if url.hasPrefix("sqlite:") {
            var path = String(url.dropFirst("sqlite:".count))
            if path.hasPrefix("//") { path.removeFirst(2) }
            guard !path.isEmpty else { throw DatabaseError.badURL(url, "the SQLite path is empty") }
            self = .sqlite(path: path)
        } else if url.hasPrefix("postgres") {
            self = .postgres(url: url)
        } else if url.hasSuffix(".sqlite") || url.hasSuffix(".db") {
            self = .sqlite(path: url)
        } else {
            throw DatabaseError.badURL(url, "use sqlite:PATH or postgres://user@host/database")
        }
    }
}

/// A database that could not be opened or used.
public enum DatabaseError: Error, CustomStringConvertible, Sendable {
    /// The URL names no database consentd can use.
    case badURL(String, String)
    /// The schema in the database is newer than this build knows.
    case schemaTooNew(found: Int, known: Int)

    /// A sentence saying what went wrong.
    public var description: String {
        switch self {
        case .badURL(let url, let hint): "database URL \(Self.redacted(url)) is not usable: \(hint)"
        case .schemaTooNew(let found, let known):
            "the database schema is at version \(found), this consentd knows up to \(known): run a newer consentd"
        }
    }

    static func redacted(_ url: String) -> String {
        guard var components = URLComponents(string: url), components.password != nil else { return url }
        components.password = "***"
        return components.string ?? url
    }
}

// MARK: - Pools

/// A source of connections for one engine.
protocol ConnectionPool: Sendable {
    func withConnection<R: Sendable>(_ body: @Sendable (any SQLDatabase) async throws -> R) async throws -> R
    /// A connection taken out of the pool for good, for the writer.
    func dedicatedConnection() async throws -> any DedicatedConnection
    func shutdown() async
}

/// A connection owned by one user until closed.
protocol DedicatedConnection: Sendable {
    var sql: any SQLDatabase { get }
    var isClosed: Bool { get }
    func close() async
}

/// Serializes the writer connection's transactions: one runs at a time, in arrival order.
///
/// The connection is opened on first use and opened again when it was found closed (the
/// database restarted, a failover dropped it): the transaction that found it closed fails, the
/// next one gets a new connection.
final class WriterConnection: Sendable {
    private let open: @Sendable () async throws -> any DedicatedConnection
    private let connection = Mutex<(any DedicatedConnection)?>(nil)
    private let lock = AsyncLock()

    init(open: @escaping @Sendable () async throws -> any DedicatedConnection) {
        self.open = open
    }

    func exclusively<R: Sendable>(_ body: @Sendable (any SQLDatabase) async throws -> R) async throws -> R {
        await lock.lock()
        defer { lock.unlock() }
        let current: any DedicatedConnection
        if let held = connection.withLock({ $0 }), !held.isClosed {
            current = held
        } else {
            current = try await open()
            connection.withLock { $0 = current }
        }
        do {
            return try await body(current.sql)
        } catch {
            if current.isClosed { connection.withLock { $0 = nil } }
            throw error
        }
    }

    func close() async {
        await lock.lock()
        if let held = connection.withLock({ $0 }) { await held.close() }
        connection.withLock { $0 = nil }
        lock.unlock()
    }
}

// async-kit's pool locks internally but predates Sendable; the wrappers only forward to it.
struct SQLitePool: ConnectionPool, @unchecked Sendable {
    let pool: EventLoopGroupConnectionPool<SQLiteSource>
    let path: String
    let logger: Logger

    static func open(path: String, logger: Logger) async throws -> SQLitePool {
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        createPrivately(path: path)
        // WAL is a property of the file: set it once, before the pool opens its connections.
        let setup = try await SQLiteConnection.open(storage: .file(path: path), threadPool: SQLiteSource.threads, logger: logger, on: MultiThreadedEventLoopGroup.singleton.any()).get()
        do {
            _ = try await setup.query("PRAGMA journal_mode = WAL").get()
            try await setup.close().get()
        } catch {
            try? await setup.close().get()
            throw error
        }
        let pool = EventLoopGroupConnectionPool(
            source: SQLiteSource(path: path),
            maxConnectionsPerEventLoop: 2,
            logger: logger,
            on: MultiThreadedEventLoopGroup.singleton
        )
        return SQLitePool(pool: pool, path: path, logger: logger)
    }

    func withConnection<R: Sendable>(_ body: @Sendable (any SQLDatabase) async throws -> R) async throws -> R {
        let connection = try await pool.requestConnection(logger: logger).get()
        defer { pool.releaseConnection(connection, logger: logger) }
        return try await body(connection.sql())
    }

    func dedicatedConnection() async throws -> any DedicatedConnection {
        try await SQLiteSource(path: path).open(logger: logger)
    }

    func shutdown() async {
        try? await pool.shutdownAsync()
    }
}

extension SQLiteConnection: DedicatedConnection {
    var sql: any SQLDatabase { self.sql() }
    func close() async { try? await self.close().get() }
}

/// Creates an SQLite database file with mode 0600 when it does not exist, so only consentd's user
/// reads the consent records; SQLite gives the `-wal` and `-shm` files the database file's mode.
/// An existing file keeps the mode its operator gave it.
private func createPrivately(path: String) {
    let descriptor = open(path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
    if descriptor >= 0 { close(descriptor) }
}

/// Opens SQLite connections with the settings every consentd connection needs.
struct SQLiteSource: ConnectionPoolSource {
    let path: String

    /// The threads SQLite's blocking calls run on: every query, the fsync of each commit, and a
    /// writer's wait for the lock (up to `busy_timeout`). Not NIO's process-wide pool, which has one
    /// thread per core: two slow commits or lock waits there stalled every database of the
    /// process, and other requests gave up waiting for a connection (`connectionRequestTimeout`,
    /// answered 503), as the server tests showed on two cores.
    static let threads: NIOThreadPool = {
        let pool = NIOThreadPool(numberOfThreads: max(8, 2 * System.coreCount))
        pool.start()
        return pool
    }()

    func makeConnection(logger: Logger, on eventLoop: any EventLoop) -> EventLoopFuture<SQLiteConnection> {
        // The connection must live on the loop asked for: the pool hands it back by its loop.
        eventLoop.makeFutureWithTask { try await open(logger: logger, on: eventLoop) }
    }

    func open(logger: Logger, on eventLoop: any EventLoop = MultiThreadedEventLoopGroup.singleton.any()) async throws -> SQLiteConnection {
        let connection = try await SQLiteConnection.open(
            storage: .file(path: path), threadPool: Self.threads, logger: logger, on: eventLoop).get()
        do {
            // FULL: the WAL is synced at every commit, so an acknowledged write survives power loss.
            for pragma in ["PRAGMA synchronous = FULL", "PRAGMA busy_timeout = 10000", "PRAGMA foreign_keys = ON"] {
                _ = try await connection.query(pragma).get()
            }
            return connection
        } catch {
            try? await connection.close().get()
            throw error
        }
    }
}

/// PostgreSQL through PostgresNIO's `PostgresClient`: its pool leases connections without an
/// event-loop hop, which the legacy AsyncKit pool took twice per read.
final class PostgresPool: ConnectionPool {
    let client: PostgresClient
    private let running: Task<Void, Never>
    private let configuration: PostgresConnection.Configuration
    private let logger: Logger

    init(url: String, logger: Logger) throws {
        do {
            configuration = try SQLPostgresConfiguration(url: url).coreConfiguration
        } catch {
            throw DatabaseError.badURL(url, "expected postgres://user:password@host:port/database or postgres+uds://user@localhost/socket-path#database")
        }
        var options = PostgresClient.Configuration.Options()
        options.maximumConnections = 8
        let client = PostgresClient(configuration: try Self.clientConfiguration(configuration, options: options, url: url),
                                    backgroundLogger: logger)
        self.client = client
        self.logger = logger
        // The client leases connections only while `run()` is running.
        running = Task { await client.run() }
    }

    /// The pool's configuration for the server the URL names.
    private static func clientConfiguration(
        _ core: PostgresConnection.Configuration, options: PostgresClient.Configuration.Options, url: String
    ) throws -> PostgresClient.Configuration {
        let tls: PostgresClient.Configuration.TLS
        switch (core.tls.isEnforced, core.tls.isAllowed, core.tls.sslContext?.configuration) {
        case (true, _, let context?): tls = .require(context)
        case (false, true, let context?): tls = .prefer(context)
        default: tls = .disable
        }
        var configuration: PostgresClient.Configuration
        if let host = core.host, let port = core.port {
            configuration = .init(host: host, port: port, username: core.username, password: core.password,
                                  database: core.database, tls: tls)
        } else if let socket = core.unixSocketPath {
            configuration = .init(unixSocketPath: socket, username: core.username, password: core.password, database: core.database)
        } else {
            throw DatabaseError.badURL(url, "name a host or a unix socket")
        }
        configuration.options = options
        return configuration
    }

    func withConnection<R: Sendable>(_ body: @Sendable (any SQLDatabase) async throws -> R) async throws -> R {
        try await client.withConnection { connection in try await body(connection.sql()) }
    }

    private static let connectionIds = Atomic<Int>(0)

    func dedicatedConnection() async throws -> any DedicatedConnection {
        try await PostgresConnection.connect(
            configuration: configuration, id: Self.connectionIds.add(1, ordering: .relaxed).newValue, logger: logger)
    }

    func shutdown() async {
        running.cancel()
        await running.value
    }
}

extension PostgresConnection: DedicatedConnection {
    var sql: any SQLDatabase { self.sql() }
    func close() async { try? await self.close().get() }
}
