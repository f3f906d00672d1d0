import ArgumentParser
import ConsentServer
import Foundation
import Logging

/// `consentd`: the consent platform server.
@main
struct ConsentdCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "consentd",
        abstract: "Serve region decisions, vendor lists and the consent database.",
        discussion: """
            With no options it listens on 127.0.0.1:8080 with an SQLite file in .consentd/ and the bundled \
            vendor list. Every option can also be set by the environment variable named in its help.
            """
    )

    @Option(help: "Address to listen on. [CONSENTD_HOST]")
    var host: String?

    @Option(help: "Port to listen on; 0 picks a free one. [CONSENTD_PORT]")
    var port: Int?

    @Option(help: "sqlite:PATH or postgres://user:password@host:port/database. [DATABASE_URL]")
    var database: String?

    @Option(help: "File holding the server secret (created when missing). [CONSENTD_SECRET_FILE; CONSENTD_SECRET gives the hex itself]")
    var secretFile: String?

    @Option(help: "Publisher configuration (YAML). [CONSENTD_PUBLISHERS]")
    var publishers: String?

    @Option(help: "Trusted edge header with the client's country (DE) or ISO 3166-2 subdivision (US-CA), e.g. CF-IPCountry. [CONSENTD_COUNTRY_HEADER]")
    var countryHeader: String?

    @Option(help: "Trusted edge header with the client's subdivision alone, e.g. CF-Region-Code (read with the country header's country). [CONSENTD_SUBDIVISION_HEADER]")
    var subdivisionHeader: String?

    @Option(help: "CIDR-to-country table (lines network/prefix,CC). [CONSENTD_CIDR_TABLE]")
    var cidrTable: String?

    @Option(help: "Header a trusted proxy sets to the client's address, e.g. X-Forwarded-For (first entry used). [CONSENTD_CLIENT_IP_HEADER]")
    var clientIpHeader: String?

    @Option(help: "Vendor list file to serve instead of the bundled GVL v3. [CONSENTD_VENDOR_LIST_FILE]")
    var vendorListFile: String?

    @Option(help: "Folder of official translations (purposes-xx.json) instead of the bundled ones. [CONSENTD_TRANSLATIONS]")
    var translations: String?

    @Option(help: "Serve /demo, the notice on a sample publisher (true or false; default true while --host is a loopback address, else false). [CONSENTD_DEMO]")
    var demo: String?

    @Option(help: "Port of the demo's second origin, its cross-origin ad frame (default 0: any free port). [CONSENTD_DEMO_FRAME_PORT]")
    var demoFramePort: Int?

    @Option(help: "Honour debugRegion / debug_geo from callers, for test setups only (true or false; default false). [CONSENTD_ALLOW_DEBUG_REGION]")
    var allowDebugRegion: String?

    @Option(help: "Days a website visitor's subject token works; renewed by page views (default 30). [CONSENTD_WEB_TOKEN_DAYS]")
    var webTokenDays: Int?

    @Option(help: "What an anonymous subject may store per 24 h, EVENTS/BYTES; 0 turns a bound off (default 200/2097152). [CONSENTD_ANONYMOUS_QUOTA]")
    var anonymousQuota: String?

    @Option(help: "Upstream vendor list to refresh from; its translations (purposes-xx.json) are fetched from its folder (default https://vendor-list.consensu.org/v3/vendor-list.json, the IAB's). [CONSENTD_VENDOR_LIST_URL]")
    var vendorListUrl: String?

    @Option(help: "Fetch the vendor list and its translations from --vendor-list-url (true or false; default true). Set false on a host without network: the bundled list is served. [CONSENTD_VENDOR_LIST_UPDATES]")
    var vendorListUpdates: String?

    @Option(help: "Seconds between vendor list refreshes when the upstream sends no Cache-Control max-age (default 21600). [CONSENTD_VENDOR_LIST_REFRESH]")
    var vendorListRefresh: Int?

    @Option(help: "Seconds between checks of the publisher configuration file for changes; SIGHUP re-reads it at once (default 60). [CONSENTD_PUBLISHERS_RELOAD]")
    var publishersReload: Int?

    @Option(help: "Cache-Control max-age of vendor lists in seconds (default 3600). [CONSENTD_VENDOR_LIST_MAX_AGE]")
    var vendorListMaxAge: Int?

    @Option(help: "Largest request body in bytes (default 65536). [CONSENTD_BODY_LIMIT]")
    var bodyLimit: Int?

    @Option(help: "Seconds a connection with no request under way stays open (default 60). [CONSENTD_IDLE_TIMEOUT]")
    var idleTimeout: String?

    @Option(help: "Seconds a request's head may take to arrive, from its first byte (default 10). [CONSENTD_HEADER_TIMEOUT]")
    var headerTimeout: String?

    @Option(help: "Seconds a request's body may take to arrive, from the end of its head (default 30). [CONSENTD_BODY_TIMEOUT]")
    var bodyTimeout: String?

    @Option(help: "Most connections open at once; more wait in the listen backlog (default 1024). [CONSENTD_MAX_CONNECTIONS]")
    var maxConnections: Int?

    @Option(help: "Seconds a response may make no progress (the client reads nothing) before the connection is closed (default 30). [CONSENTD_WRITE_TIMEOUT]")
    var writeTimeout: String?

    @Option(help: "Most connections one client address may hold over all ports; 0 turns the cap off (default 64, or 0 with --client-ip-header). [CONSENTD_MAX_CONNECTIONS_PER_ADDRESS]")
    var maxConnectionsPerAddress: Int?

    @Option(help: "Rate limit of one publishable key over all client addresses, RATE or RATE/BURST per second; 0 turns it off (default 5000/10000). [CONSENTD_RATE_LIMIT_PUBLIC_KEY]")
    var rateLimitPublicKey: String?

    @Option(help: "New subjects per client address with a publishable key, RATE or RATE/BURST per second; 0 turns it off (default 10/20). [CONSENTD_RATE_LIMIT_SUBJECT_CREATION]")
    var rateLimitSubjectCreation: String?

    @Option(help: "Bytes of request bodies all requests may hold at once; more is answered 503 (default 67108864). [CONSENTD_BODY_MEMORY_LIMIT]")
    var bodyMemoryLimit: Int?

    @Option(help: "Seconds a checked API key is trusted before the database is asked again; bounds how long a revoked key works (default 5). [CONSENTD_KEY_CACHE_SECONDS]")
    var keyCacheSeconds: Double?

    @Option(help: "Rate limit per secret key, per publishable key and client address, and per subject token, RATE or RATE/BURST per second; 0 turns it off (default 200/400). [CONSENTD_RATE_LIMIT_KEY]")
    var rateLimitKey: String?

    @Option(help: "Rate limit per client IP on every route, RATE or RATE/BURST per second; 0 turns it off (default 100/200). [CONSENTD_RATE_LIMIT_IP]")
    var rateLimitIp: String?

    @Option(help: "The CMP id the IAB registered for you, 2-4095; TC strings carry it (default: 4095, the development identity, with a warning at start). [CONSENTD_CMP_ID]")
    var cmpId: String?

    @Option(help: "Your CMP's version, 0-4095, used with --cmp-id (default 1). [CONSENTD_CMP_VERSION]")
    var cmpVersion: String?

    @Option(help: "Log level: trace, debug, info, notice, warning, error, critical (default info). [CONSENTD_LOG_LEVEL]")
    var logLevel: String?

    func run() async throws {
        let environment = ProcessInfo.processInfo.environment
        func setting(_ option: String?, _ variable: String) -> String? { option ?? environment[variable] }

        var settings = ServerSettings()
        if let value = setting(host, "CONSENTD_HOST") { settings.host = value }
        if let value = setting(port.map(String.init), "CONSENTD_PORT") {
            guard let port = Int(value), (0...65535).contains(port) else { throw ValidationError("port must be 0 to 65535, not \(value)") }
            settings.port = port
        }
        if let value = setting(database, "DATABASE_URL") { settings.databaseURL = value }
        if let value = setting(secretFile, "CONSENTD_SECRET_FILE") { settings.secretFile = value }
        settings.secretHex = environment["CONSENTD_SECRET"]
        settings.publishersFile = setting(publishers, "CONSENTD_PUBLISHERS")
        settings.countryHeader = setting(countryHeader, "CONSENTD_COUNTRY_HEADER")
        settings.subdivisionHeader = setting(subdivisionHeader, "CONSENTD_SUBDIVISION_HEADER")
        settings.cidrTableFile = setting(cidrTable, "CONSENTD_CIDR_TABLE")
        settings.clientIPHeader = setting(clientIpHeader, "CONSENTD_CLIENT_IP_HEADER")
        if let value = setting(vendorListMaxAge.map(String.init), "CONSENTD_VENDOR_LIST_MAX_AGE") {
            guard let seconds = Int(value), seconds >= 0 else { throw ValidationError("the vendor list max-age must be 0 or more seconds") }
            settings.vendorListMaxAge = seconds
        }
        if let value = setting(bodyLimit.map(String.init), "CONSENTD_BODY_LIMIT") {
            guard let bytes = Int(value), bytes >= 1024 else { throw ValidationError("the body limit must be at least 1024 bytes") }
            settings.bodyLimit = bytes
        }
        for (option, variable, apply) in [
            (idleTimeout, "CONSENTD_IDLE_TIMEOUT", { (limit: Duration) in settings.idleTimeout = limit }),
            (headerTimeout, "CONSENTD_HEADER_TIMEOUT", { (limit: Duration) in settings.headerTimeout = limit }),
            (bodyTimeout, "CONSENTD_BODY_TIMEOUT", { (limit: Duration) in settings.bodyTimeout = limit }),
            (writeTimeout, "CONSENTD_WRITE_TIMEOUT", { (limit: Duration) in settings.writeTimeout = limit }),
        ] as [(String?, String, (Duration) -> Void)] {
            if let value = setting(option, variable) {
                guard let seconds = Double(value), seconds > 0, seconds <= 86_400 else {
                    throw ValidationError("\(variable): \(value) is not a number of seconds above 0 and at most 86400")
                }
                apply(.milliseconds(Int64((seconds * 1000).rounded(.up))))
            }
        }
        if let value = setting(maxConnections.map(String.init), "CONSENTD_MAX_CONNECTIONS") {
            guard let count = Int(value), count >= 1 else { throw ValidationError("CONSENTD_MAX_CONNECTIONS: \(value) is not a whole number of 1 or more") }
            settings.maxConnections = count
        }
        if let value = setting(maxConnectionsPerAddress.map(String.init), "CONSENTD_MAX_CONNECTIONS_PER_ADDRESS") {
            guard let count = Int(value), count >= 0 else {
                throw ValidationError("CONSENTD_MAX_CONNECTIONS_PER_ADDRESS: \(value) is not a whole number of 0 or more")
            }
            settings.maxConnectionsPerAddress = count
        }
        if let value = setting(bodyMemoryLimit.map(String.init), "CONSENTD_BODY_MEMORY_LIMIT") {
            guard let bytes = Int(value), bytes >= 1024 * 1024 else {
                throw ValidationError("CONSENTD_BODY_MEMORY_LIMIT: \(value) is not a number of bytes of at least 1048576")
            }
            settings.bodyMemoryLimit = bytes
        }
        if let value = setting(keyCacheSeconds.map { String($0) }, "CONSENTD_KEY_CACHE_SECONDS") {
            guard let seconds = Double(value), seconds >= 0 else { throw ValidationError("the key cache must be 0 or more seconds") }
            settings.keyCacheSeconds = seconds
        }
        if let value = setting(vendorListUrl, "CONSENTD_VENDOR_LIST_URL") {
            guard let url = URL(string: value), ["http", "https"].contains(url.scheme ?? ""), url.host != nil else {
                throw ValidationError("CONSENTD_VENDOR_LIST_URL: \(value) is not an http(s) URL")
            }
            settings.vendorListURL = value
        }
        if let value = setting(vendorListUpdates, "CONSENTD_VENDOR_LIST_UPDATES") {
            guard let flag = Bool(value) else { throw ValidationError("CONSENTD_VENDOR_LIST_UPDATES: \(value) is not true or false") }
            settings.vendorListUpdates = flag
        }
        if let value = setting(publishersReload.map(String.init), "CONSENTD_PUBLISHERS_RELOAD") {
            guard let seconds = Int(value), seconds >= 1 else { throw ValidationError("CONSENTD_PUBLISHERS_RELOAD: \(value) is not 1 or more seconds") }
            settings.publishersReload = .seconds(seconds)
        }
        settings.vendorListFile = setting(vendorListFile, "CONSENTD_VENDOR_LIST_FILE")
        settings.translationsDirectory = setting(translations, "CONSENTD_TRANSLATIONS")
        if let value = setting(demo, "CONSENTD_DEMO") {
            guard let flag = Bool(value) else { throw ValidationError("CONSENTD_DEMO: \(value) is not true or false") }
            settings.demo = flag
        }
        if let value = setting(demoFramePort.map(String.init), "CONSENTD_DEMO_FRAME_PORT") {
            guard let port = Int(value), (0...65535).contains(port) else { throw ValidationError("CONSENTD_DEMO_FRAME_PORT: \(value) is not a port") }
            settings.demoFramePort = port
        }
        if let value = setting(allowDebugRegion, "CONSENTD_ALLOW_DEBUG_REGION") {
            guard let flag = Bool(value) else { throw ValidationError("CONSENTD_ALLOW_DEBUG_REGION: \(value) is not true or false") }
            settings.allowDebugRegion = flag
        }
        if let value = setting(webTokenDays.map(String.init), "CONSENTD_WEB_TOKEN_DAYS") {
            guard let days = Int(value), (1...3650).contains(days) else { throw ValidationError("CONSENTD_WEB_TOKEN_DAYS: \(value) is not 1 to 3650 days") }
            settings.webTokenLifetime = .seconds(days * 86_400)
        }
        if let value = setting(anonymousQuota, "CONSENTD_ANONYMOUS_QUOTA") {
            let parts = value.split(separator: "/", omittingEmptySubsequences: false).map { Int($0) }
            guard parts.count == 2, let events = parts[0], let bytes = parts[1], events >= 0, bytes >= 0 else {
                throw ValidationError("CONSENTD_ANONYMOUS_QUOTA: \(value) is not EVENTS/BYTES")
            }
            settings.anonymousSubjectEventsPerDay = events
            settings.anonymousSubjectBytesPerDay = bytes
        }
        if let value = setting(vendorListRefresh.map(String.init), "CONSENTD_VENDOR_LIST_REFRESH") {
            guard let seconds = Int(value), seconds >= 60 else { throw ValidationError("the vendor list refresh must be at least 60 seconds") }
            settings.vendorListRefresh = .seconds(seconds)
        }
        for (option, variable, apply) in [
            (rateLimitKey, "CONSENTD_RATE_LIMIT_KEY", { (limit: RateLimit) in settings.rateLimitPerKey = limit }),
            (rateLimitIp, "CONSENTD_RATE_LIMIT_IP", { (limit: RateLimit) in settings.rateLimitPerIP = limit }),
            (rateLimitPublicKey, "CONSENTD_RATE_LIMIT_PUBLIC_KEY", { (limit: RateLimit) in settings.rateLimitPerPublicKey = limit }),
            (rateLimitSubjectCreation, "CONSENTD_RATE_LIMIT_SUBJECT_CREATION", { (limit: RateLimit) in settings.rateLimitSubjectCreation = limit }),
        ] as [(String?, String, (RateLimit) -> Void)] {
            if let value = setting(option, variable) {
                guard let limit = RateLimit(parsing: value) else { throw ValidationError("\(variable): \(value) is not RATE or RATE/BURST") }
                apply(limit)
            }
        }
        do {
            try settings.setCMP(id: setting(cmpId, "CONSENTD_CMP_ID"), version: setting(cmpVersion, "CONSENTD_CMP_VERSION"))
        } catch {
            var standardError = FileHandle.standardError
            print("consentd: \(error)", to: &standardError)
            throw ExitCode(78)  // EX_CONFIG
        }
        let level = setting(logLevel, "CONSENTD_LOG_LEVEL") ?? "info"
        guard let logLevel = Logger.Level(rawValue: level) else { throw ValidationError("unknown log level \(level)") }
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = logLevel
            return handler
        }
        let logger = Logger(label: "consentd")

        let server: Consentd
        do {
            server = try await Consentd.start(settings: settings, logger: logger)
        } catch {
            var standardError = FileHandle.standardError
            print("consentd: \(error)", to: &standardError)
            throw ExitCode(78)  // EX_CONFIG
        }
        let app = server.application { url in
            // Written in one call, unbuffered, so a script reading the pipe sees it at once.
            FileHandle.standardOutput.write("consentd listening on \(url) (database: \(server.database.engine.rawValue))\n")
        }
        do {
            try await app.runService()
        } catch {
            await server.close()
            if let message = server.listenFailure(error) {
                var standardError = FileHandle.standardError
                print("consentd: \(message)", to: &standardError)
                throw ExitCode(78)  // EX_CONFIG
            }
            throw error
        }
        await server.close()
    }
}

extension FileHandle: @retroactive TextOutputStream {
    public func write(_ string: String) {
        write(Data(string.utf8))
    }
}
