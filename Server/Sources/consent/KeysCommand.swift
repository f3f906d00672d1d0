import ArgumentParser
import ConsentServer
import Foundation
import Logging

/// Where the `consent` commands that touch consentd's database find it.
struct DatabaseOptions: ParsableArguments {
    @Option(help: "sqlite:PATH or postgres://… (default: $DATABASE_URL, else consentd's default sqlite:.consentd/consentd.sqlite).")
    var database: String?

    /// Opens and migrates the database, runs `body`, closes it.
    func withDatabase<R: Sendable>(_ body: (Database) async throws -> R) async throws -> R {
        let url = database ?? ProcessInfo.processInfo.environment["DATABASE_URL"] ?? ServerSettings().databaseURL
        var logger = Logger(label: "consent")
        logger.logLevel = .warning
        let database = try await Database.open(url: url, logger: logger)
        do {
            try await Migrations.run(on: database)
            let result = try await body(database)
            await database.close()
            return result
        } catch {
            await database.close()
            throw error
        }
    }
}

/// `consent keys`: create, list and revoke consentd's API keys.
struct KeysCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keys",
        abstract: "Manage consentd's API keys (publishable keys ship in apps; secret keys stay on backends).",
        subcommands: [Create.self, List.self, Revoke.self]
    )

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Create a key and print it (it is shown only once).")

        @Option(help: "The app the key belongs to, e.g. com.example.news.")
        var app: String

        @Option(help: "publishable or secret.")
        var kind: String

        @Option(help: "A note for people.")
        var label = ""

        @OptionGroup var options: DatabaseOptions

        func run() async throws {
            guard let kind = APIKey.Kind(rawValue: kind) else { throw ValidationError("--kind must be publishable or secret") }
            let created = try await options.withDatabase { database in
                try await APIKeys(database: database).create(appId: app, kind: kind, label: label)
            }
            Output.line(created.token)
            Output.error("created \(kind.rawValue) key \(created.key.keyId) for \(app); store it now, it is not shown again")
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List keys (never their secrets).")

        @Option(help: "Only this app's keys.")
        var app: String?

        @Flag(help: "One JSON object per line.")
        var json = false

        @OptionGroup var options: DatabaseOptions

        func run() async throws {
            let keys = try await options.withDatabase { database in try await APIKeys(database: database).list(appId: app) }
            for key in keys {
                if json {
                    Output.line(try Output.json(key))
                } else {
                    let state = key.revokedAt.map { "revoked \($0)" } ?? "active"
                    Output.line("\(key.keyId)  \(key.appId)  \(key.kind.rawValue)  \(state)  created \(key.createdAt)  \(key.label)")
                }
            }
        }
    }

    struct Revoke: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Revoke a key by its id (or its full text).")

        @Argument(help: "The key id shown by `consent keys list`.")
        var key: String

        @OptionGroup var options: DatabaseOptions

        func run() async throws {
            let found = try await options.withDatabase { database in try await APIKeys(database: database).revoke(key) }
            guard found else {
                Output.error("no key \(key)")
                throw ExitCode.failure
            }
            Output.line("revoked \(key)")
        }
    }
}

/// `consent chain verify`: check an app's hash chain in the database.
struct ChainCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "chain",
        abstract: "Check the tamper-evident hash chain of consent events.",
        subcommands: [Verify.self]
    )

    struct Verify: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Verify an app's chain and report the first broken link; exits 1 when broken, 64 for an app the database does not know.")

        @Option(help: "The app whose chain to check.")
        var app: String

        @OptionGroup var options: DatabaseOptions

        func run() async throws {
            let (result, knownApps) = try await options.withDatabase { database in
                let result = try await HashChain.verify(appId: app, in: database)
                // An app with no event may be a typo: it must at least have a key to be one.
                let apps = result.eventsChecked == 0 ? Set(try await APIKeys(database: database).list().map(\.appId)) : [app]
                return (result, apps)
            }
            guard knownApps.contains(app) else {
                let known = knownApps.isEmpty ? "the database has no app yet" : "apps with keys: \(knownApps.sorted().joined(separator: ", "))"
                Output.error("no app \(app) in this database: it has no consent event and no key (\(known))")
                throw ExitCode.validationFailure
            }
            if let link = result.firstBrokenLink {
                Output.line("broken at event \(link.sequence)\(link.eventId.map { " (\($0))" } ?? ""): \(link.reason); \(Self.events(result.eventsChecked)) before it hold")
                throw ExitCode.failure
            }
            Output.line("chain of \(app) holds: \(Self.events(result.eventsChecked))")
        }

        /// "1 event", "3 events".
        static func events(_ count: Int64) -> String {
            count == 1 ? "1 event" : "\(count) events"
        }
    }
}
