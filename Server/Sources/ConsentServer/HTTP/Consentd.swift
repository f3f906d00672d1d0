import ConsentKit
import Foundation
import Hummingbird
import HummingbirdCore
import Logging
import Metrics
import NIOCore
import Prometheus
import ServiceLifecycle

/// consentd assembled: the database, the credentials (keys, secret, consent store), the vendor
/// lists, the publisher configuration, the region resolver, the notice's files and the web CMP,
/// and the HTTP application over them: one controller per resource (``router()``), every
/// listener behind the same ``RequestGuards``.
public final class Consentd: Sendable {
    /// The settings it started with.
    public let settings: ServerSettings
    /// The database (migrated).
    public let database: Database
    /// The vendor lists.
    public let catalog: VendorListCatalog
    /// The publishers, re-read from ``ServerSettings/publishersFile`` while consentd runs.
    public let publisherDirectory: PublisherDirectory
    /// The publishers in use now.
    public var publishers: PublisherConfiguration { publisherDirectory.current }
    /// The publisher configuration in the database, the source of truth (decision 0041): the
    /// console changes it, the publishers file is imported into it, and ``publisherDirectory``
    /// follows it.
    public let configurationStore: ConfigurationStore
    /// The region decision.
    public let resolver: RegionResolver
    /// The credentials: keys, subject tokens, their rate limits (and the store and secret they use).
    let authenticator: Authenticator
    /// What every request of every listener passes: the connection caps and table, the rate
    /// limit per address, the body budget and the CPU-work gate.
    let guards: RequestGuards
    /// The notice's and the demo's files.
    let assets: NoticeAssets
    /// The demo's pages, checked at start.
    let demoPages: DemoPages
    /// The demo (`/demo`).
    let demo: NoticeDemo
    /// The demo site's key and its cross-origin frame's address, once known.
    let demoSite = DemoSite()
    /// The web CMP's server half (`/v1/web/`).
    let web: WebCMP
    /// Vendors' device storage disclosures, fetched and kept for the notice.
    let storageDisclosures: StorageDisclosures
    /// The console's operators, sessions and audit log (`/v1/console/`).
    let console: Console
    /// The console's web files (`/console/`).
    let consoleAssets: ConsoleAssets
    /// The notice's versions edited in the console, and those published (decision record 0043).
    let noticeVersions: NoticeVersions
    let logger: Logger

    /// The consent database.
    public var store: ConsentStore { authenticator.store }
    /// The API keys.
    public var keys: APIKeys { authenticator.keys }
    /// The server secret.
    public var secret: ServerSecret { authenticator.secret }

    /// Checks the CMP identity, opens the database, runs migrations, loads the secret, the
    /// configuration, the vendor list and the notice's and demo's files (``DemoPages``). Any
    /// failure stops here with a message saying what to fix. With the development CMP identity it logs a warning that says how to set the
    /// registered one.
    /// It raises the limit of open files to the system's hard limit first, and warns when the
    /// listeners' connection caps had to be lowered to fit it, and when the demo is served on an
    /// address other than loopback.
    public static func start(settings: ServerSettings, logger: Logger) async throws -> Consentd {
        try settings.checkCMP()
        let descriptorLimit = ListenerCaps.raiseDescriptorLimit()
        let publishers = try settings.publishersFile.map { try PublisherConfiguration.load(path: $0) } ?? .empty
        // SIGHUP re-reads that file (PublisherReloader); one that comes before the reloader runs is ignored, not fatal.
        if settings.publishersFile != nil { signal(SIGHUP, SIG_IGN) }
        let table = try settings.cidrTableFile.map { try CIDRTable.load(path: $0) } ?? CIDRTable()
        let secret = try settings.secretHex.map { try ServerSecret(hex: $0) } ?? ServerSecret.loadOrCreate(at: settings.secretFile)
        let catalog = try VendorListCatalog.load(vendorListFile: settings.vendorListFile, translationsDirectory: settings.translationsDirectory)
        let assets = try NoticeAssets.load()
        let database = try await Database.open(url: settings.databaseURL, logger: logger)
        do {
            return try await ready(settings: settings, database: database, secret: secret, catalog: catalog, publishers: publishers,
                                   assets: assets, table: table, logger: logger, descriptorLimit: descriptorLimit)
        } catch {
            await database.close()
            throw error
        }
    }

    /// The rest of ``start(settings:logger:)`` on the open database, which the caller closes when
    /// this throws: migrations, the warnings, the consentd, the configuration (the file imported
    /// when it changed), the console's first-operator link, the published notices.
    private static func ready(settings: ServerSettings, database: Database, secret: ServerSecret, catalog: VendorListCatalog,
                              publishers: PublisherConfiguration, assets: NoticeAssets, table: CIDRTable, logger: Logger,
                              descriptorLimit: Int) async throws -> Consentd {
        let applied = try await Migrations.run(on: database)
        if !applied.isEmpty {
            logger.info("schema migrated", metadata: ["versions": "\(applied)", "engine": "\(database.engine.rawValue)"])
        }
        if settings.cmp.isDevelopment {
            logger.warning("\(ServerSettings.developmentCMPWarning)")
        }
        if let warning = settings.demoExposureWarning {
            logger.warning("\(warning)")
        }
        let consentd = try Consentd(settings: settings, database: database, secret: secret, catalog: catalog, publishers: publishers,
                                    assets: assets, resolver: RegionResolver(settings: settings, table: table),
                                    logger: logger, descriptorLimit: descriptorLimit)
        // The file is an import: only when its bytes changed since the last one (decision 0041).
        if let file = settings.publishersFile, try await consentd.configurationStore.importFile(file) {
            logger.info("publisher configuration imported into the database", metadata: ["file": "\(file)"])
        }
        try await consentd.configurationStore.refresh(force: true)
        if let warning = consentd.guards.caps.warning {
            logger.warning("\(warning)")
        }
        if let token = try await consentd.console.operators.firstOperatorLink() {
            logger.notice("""
                no console operator yet: the first owner opens \(settings.consoleURL)#/token=\(token) within 1 hour, once, \
                and chooses an e-mail and password there (the one-time token is \(token); see docs/console.md), or create one \
                with `consent operators create`
                """)
        }
        // The notices published in the console are served from memory (decision record 0043).
        try await consentd.noticeVersions.load()
        return consentd
    }

    init(settings: ServerSettings, database: Database, secret: ServerSecret, catalog: VendorListCatalog,
         publishers: PublisherConfiguration, assets: NoticeAssets, resolver: RegionResolver, logger: Logger,
         descriptorLimit: Int = ListenerCaps.descriptorLimit(), passwordParameters: ScryptParameters = .standard,
         clock: @escaping @Sendable () -> Date = { Date() }) throws {
        self.settings = settings
        self.database = database
        self.catalog = catalog
        let demo = settings.demo
        self.publisherDirectory = PublisherDirectory(publishers, file: settings.publishersFile) { configuration in
            demo ? DemoSite.adding(to: configuration, catalog: catalog) : configuration
        }
        self.configurationStore = ConfigurationStore(database: database, directory: publisherDirectory)
        self.resolver = resolver
        self.authenticator = Authenticator(keys: APIKeys(database: database, cacheSeconds: settings.keyCacheSeconds), secret: secret,
                                           store: ConsentStore(database: database, secret: secret), settings: settings)
        let guards = RequestGuards(settings, descriptorLimit: descriptorLimit)
        self.guards = guards
        self.console = Console(database: database, cpuWork: guards.passwordWork, passwordParameters: passwordParameters, clock: clock)
        self.assets = assets
        self.consoleAssets = try ConsoleAssets.load()
        self.demoPages = try DemoPages(assets)
        self.storageDisclosures = StorageDisclosures(catalog: catalog)
        self.demo = NoticeDemo(
            catalog: catalog, cmp: CMPIdentity(cmpId: settings.cmp.id, cmpVersion: settings.cmp.version))
        let published = PublishedNotices()
        self.web = WebCMP(
            catalog: catalog, cmp: CMPIdentity(cmpId: settings.cmp.id, cmpVersion: settings.cmp.version),
            publishers: publisherDirectory, published: published)
        self.noticeVersions = NoticeVersions(database: database, published: published)
        self.logger = logger
    }

    /// Closes the database.
    public func close() async {
        await database.close()
    }

    /// Every route, behind the metrics, error and rate-limit middleware. Metrics come first, so
    /// they count the status the client gets.
    public func router() -> Router<ConsentdContext> {
        _ = Self.metrics
        let router = Router(context: ConsentdContext.self)
        router.add(middleware: MetricsMiddleware())
        router.add(middleware: WebCORSMiddleware())
        addCommonMiddleware(to: router)
        router.addRoutes(OperationsController(database: database).endpoints)
        router.addRoutes(ConfigController(authenticator: authenticator, publishers: publisherDirectory, resolver: resolver, catalog: catalog,
                                          cmp: settings.cmp, clientIPHeader: settings.clientIPHeader, published: web.published).endpoints,
                         atPath: "/v1/config")
        router.addRoutes(VendorListsController(authenticator: authenticator, catalog: catalog, publishers: publisherDirectory,
                                               storageDisclosures: storageDisclosures, maxAge: settings.vendorListMaxAge).endpoints,
                         atPath: "/v1")
        router.addRoutes(ConsentsController(authenticator: authenticator, appender: appender, bodyLimit: settings.bodyLimit,
                                            batchBodyLimit: settings.batchBodyLimit).endpoints, atPath: "/v1/consents")
        router.addRoutes(SubjectsController(authenticator: authenticator, store: store, logger: logger).endpoints, atPath: "/v1")
        router.addRoutes(AnalyticsController(authenticator: authenticator, analytics: ConsentAnalytics(database: database)).endpoints,
                         atPath: "/v1")
        router.addRoutes(NoticeClosesController(authenticator: authenticator, appender: appender, bodyLimit: settings.bodyLimit).endpoints,
                         atPath: "/v1")
        router.addRoutes(NoticeController(settings: settings, authenticator: authenticator, appender: appender, assets: assets, demo: demo,
                                          demoSite: demoSite, pages: demoPages, cpuWork: guards.cpuWork).endpoints)
        router.addRoutes(ConsoleController(console: console).endpoints, atPath: "/v1/console")
        router.addRoutes(ConsolePagesController(assets: consoleAssets).endpoints)
        router.addRoutes(ConsoleAnalyticsController(console: console, analytics: ConsentAnalytics(database: database)).endpoints,
                         atPath: "/v1/console")
        router.addRoutes(ConsoleConfigController(console: console, store: configurationStore).endpoints, atPath: "/v1/console")
        router.addRoutes(ConsoleKeysController(console: console, keys: keys).endpoints, atPath: "/v1/console")
        router.addRoutes(NoticeVersionsController(console: console, versions: noticeVersions, web: web, publishers: publisherDirectory,
                                                  cpuWork: guards.cpuWork).endpoints, atPath: "/v1/console")
        router.addRoutes(ConsoleSubjectsController(console: console, store: store, logger: logger).endpoints, atPath: "/v1/console")
        router.addRoutes(WebCMPController(settings: settings, authenticator: authenticator, appender: appender, resolver: resolver,
                                          assets: assets, web: web, cpuWork: guards.cpuWork).endpoints)
        return router
    }

    /// The one way events are written, for every route that writes them.
    var appender: ConsentAppender {
        ConsentAppender(store: store, keys: keys, secret: secret, authenticator: authenticator,
                        quota: (settings.anonymousSubjectEventsPerDay, settings.anonymousSubjectBytesPerDay),
                        resolver: resolver, clientIPHeader: settings.clientIPHeader)
    }

    /// What every router of every listener has, before its routes: gzip for the clients that
    /// take it (``CompressionMiddleware``), errors turned into API
    /// errors, the per-address rate limit (which also makes the client's address known to the
    /// routes), and the memory budget of request bodies.
    func addCommonMiddleware(to router: Router<ConsentdContext>) {
        router.add(middleware: CompressionMiddleware())
        router.add(middleware: ErrorMiddleware(logger: logger))
        router.add(middleware: IPRateLimitMiddleware(limiter: guards.ipLimiter, clientIPHeader: settings.clientIPHeader))
        router.add(middleware: BodyBudgetMiddleware(budget: guards.bodyBudget))
    }

    /// The vendor-list refresher the application runs: one for ``ServerSettings/vendorListURL``
    /// (the IAB's list by default), nil only when ``ServerSettings/vendorListUpdates`` is off.
    public var vendorListRefresher: VendorListRefresher? {
        guard settings.vendorListUpdates else { return nil }
        return VendorListRefresher(url: settings.vendorListURL, interval: settings.vendorListRefresh, catalog: catalog, logger: logger)
    }

    /// The service that keeps the publisher configuration and the published notices up to date:
    /// the file imported when it changed, the database's version polled.
    var publisherReloader: PublisherReloader {
        PublisherReloader(store: configurationStore, reloadNotices: { [noticeVersions] in try await noticeVersions.load() },
                          file: settings.publishersFile, interval: settings.publishersReload, logger: logger)
    }

    /// The HTTP application, with the vendor-list refresher (unless vendor-list updates are
    /// off), the publisher configuration's re-reader (when it comes from a file), and the
    /// demo's second port when the demo is on: `HEAD` answered on every `GET` route, each
    /// connection under a ``ConnectionGuard``, at most ``ListenerCaps/main`` at once (see
    /// ``listener(_:port:cap:responder:services:onServerRunning:)``).
    public func application(onServerRunning: @escaping @Sendable (String) async -> Void = { _ in }) -> some ApplicationProtocol {
        var services: [any Service] = []
        if let refresher = vendorListRefresher {
            services.append(refresher)
        }
        services.append(publisherReloader)
        services.append(KeyUsageFlusher(keys: keys, interval: APIKeys.usageFlushInterval, logger: logger))
        if settings.demo {
            services.append(demoFrameApplication())
        }
        return listener("consentd", port: settings.port, cap: guards.caps.main, responder: router().buildResponder(), services: services) { url in
            await onServerRunning(url)
        }
    }

    /// A listener on ``ServerSettings/host`` at `port`: the one way consentd opens a port, so every
    /// port has the same guard. `HEAD` is answered on every `GET` route; each connection runs under
    /// a ``ConnectionGuard`` (idle, header, body and write deadlines) and is entered in the
    /// ``ConnectionTable`` (the per-address cap over all listeners, the longest-idle connection
    /// closed when the listener is full); at most `cap` connections at once. `onServerRunning`
    /// gets the listener's URL.
    func listener<Responder: HTTPResponder>(
        _ name: String, port: Int, cap: Int, responder: Responder, services: [any Service] = [],
        onServerRunning: @escaping @Sendable (String) async -> Void
    ) -> some ApplicationProtocol where Responder.Context == ConsentdContext {
        let timeouts = ConnectionTimeouts(settings)
        let connections = guards.connections
        return Application(
            responder: HeadResponder(responder),
            server: HTTPServerBuilder { responder in
                ConsentdChannel(responder: responder, timeouts: timeouts, listener: name, cap: cap, connections: connections)
            },
            configuration: .init(address: .hostname(settings.host, port: port), serverName: name,
                                 availableConnectionsDelegate: MaximumAvailableConnections(cap, logger: logger)),
            services: services,
            onServerRunning: { channel in
                await onServerRunning("http://\(Self.urlHost(self.settings.host)):\(channel.localAddress?.port ?? 0)")
            },
            logger: logger
        )
    }

    /// The message for an error that stopped the server before it listened: the address could
    /// not be bound (in use, not on this machine, or a privileged port). Nil for any other error.
    public func listenFailure(_ error: any Error) -> String? {
        guard let error = error as? IOError, [EADDRINUSE, EADDRNOTAVAIL, EACCES].contains(error.errnoCode) else { return nil }
        let reason = String(cString: strerror(error.errnoCode)).lowercased()
        return "cannot listen on \(Self.urlHost(settings.host)):\(settings.port): \(reason); choose another port with --port "
            + "(CONSENTD_PORT) or another address with --host (CONSENTD_HOST)"
    }

    static func urlHost(_ host: String) -> String {
        host.contains(":") ? "[\(host)]" : host
    }

    /// The metrics registry `/metrics` shows. The process-wide metrics system is bootstrapped with
    /// it the first time it is needed (swift-metrics allows one bootstrap per process).
    static let metrics: PrometheusCollectorRegistry = {
        let registry = PrometheusCollectorRegistry()
        MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: registry))
        return registry
    }()
}

extension RegionResolver {
    /// A resolver with the settings' headers and debug switch over `table`.
    public init(settings: ServerSettings, table: CIDRTable) {
        self.init(countryHeader: settings.countryHeader, subdivisionHeader: settings.subdivisionHeader, table: table,
                  allowsDebug: settings.allowDebugRegion)
    }
}
