import ConsentKit
import Foundation
import Hummingbird
import HummingbirdCore
import Logging
import Metrics
import NIOCore
import Prometheus
import ServiceLifecycle

/// consentd assembled: the database, the consent store, the keys, the vendor lists, the publisher
/// configuration and the region resolver, and the HTTP application over them.
public final class Consentd: Sendable {
    /// The settings it started with.
    public let settings: ServerSettings
    /// The database (migrated).
    public let database: Database
    /// The consent database.
    public let store: ConsentStore
    /// The API keys.
    public let keys: APIKeys
    /// The vendor lists.
    public let catalog: VendorListCatalog
    /// The publishers.
    public let publishers: PublisherConfiguration
    /// The region decision.
    public let resolver: RegionResolver
    /// The server secret.
    public let secret: ServerSecret
    /// The notice's and the demo's files.
    let assets: NoticeAssets
    /// The demo (`/demo`).
    let demo: NoticeDemo
    /// The demo site's key and its cross-origin frame's address, once known.
    let demoSite = DemoSite()
    /// The web CMP's server half (`/v1/web/`).
    let web: WebCMP
    /// Vendors' device storage disclosures, fetched and kept for the notice.
    let storageDisclosures: StorageDisclosures
    /// Per secret key, per (publishable key, address) and per subject token.
    let keyLimiter: RateLimiter
    /// Per publishable key over all addresses: the ceiling of a public key.
    let publicKeyLimiter: RateLimiter
    /// Per client address, every route.
    let ipLimiter: RateLimiter
    /// Subjects created with a publishable key, per client address.
    let subjectCreationLimiter: RateLimiter
    /// The request bodies all requests hold at once.
    let bodyBudget: BodyBudget
    /// The builds of page views, web choices and demo notices running at once.
    let cpuWork = CPUWorkGate()
    /// Every open connection of every listener.
    let connections: ConnectionTable
    /// The listeners' connection caps, fitted to the descriptor limit.
    let caps: ListenerCaps
    let logger: Logger

    /// Checks the CMP identity, opens the database, runs migrations, loads the secret, the
    /// configuration and the vendor list. Any failure stops here with a message saying what to
    /// fix. With the development CMP identity it logs a warning that says how to set the
    /// registered one.
    /// It raises the limit of open files to the system's hard limit first, and warns when the
    /// listeners' connection caps had to be lowered to fit it, and when the demo is served on an
    /// address other than loopback.
    public static func start(settings: ServerSettings, logger: Logger) async throws -> Consentd {
        try settings.checkCMP()
        let descriptorLimit = ListenerCaps.raiseDescriptorLimit()
        let publishers = try settings.publishersFile.map { try PublisherConfiguration.load(path: $0) } ?? .empty
        let table = try settings.cidrTableFile.map { try CIDRTable.load(path: $0) } ?? CIDRTable()
        let secret = try settings.secretHex.map { try ServerSecret(hex: $0) } ?? ServerSecret.loadOrCreate(at: settings.secretFile)
        let catalog = try VendorListCatalog.load(vendorListFile: settings.vendorListFile, translationsDirectory: settings.translationsDirectory)
        let assets = try NoticeAssets.load()
        let database = try await Database.open(url: settings.databaseURL, logger: logger)
        do {
            let applied = try await Migrations.run(on: database)
            if !applied.isEmpty {
                logger.info("schema migrated", metadata: ["versions": "\(applied)", "engine": "\(database.engine.rawValue)"])
            }
        } catch {
            await database.close()
            throw error
        }
        if settings.cmp.isDevelopment {
            logger.warning("\(ServerSettings.developmentCMPWarning)")
        }
        if let warning = settings.demoExposureWarning {
            logger.warning("\(warning)")
        }
        let consentd = Consentd(settings: settings, database: database, secret: secret, catalog: catalog, publishers: publishers, assets: assets,
                                resolver: RegionResolver(countryHeader: settings.countryHeader, table: table), logger: logger,
                                descriptorLimit: descriptorLimit)
        if let warning = consentd.caps.warning {
            logger.warning("\(warning)")
        }
        return consentd
    }

    init(settings: ServerSettings, database: Database, secret: ServerSecret, catalog: VendorListCatalog,
         publishers: PublisherConfiguration, assets: NoticeAssets, resolver: RegionResolver, logger: Logger,
         descriptorLimit: Int = ListenerCaps.descriptorLimit()) {
        self.settings = settings
        self.database = database
        self.store = ConsentStore(database: database, secret: secret)
        self.keys = APIKeys(database: database, cacheSeconds: settings.keyCacheSeconds)
        self.catalog = catalog
        self.publishers = publishers
        self.resolver = resolver
        self.secret = secret
        self.assets = assets
        self.storageDisclosures = StorageDisclosures(catalog: catalog)
        self.demo = NoticeDemo(
            catalog: catalog, cmp: CMPIdentity(cmpId: settings.cmp.id, cmpVersion: settings.cmp.version))
        self.web = WebCMP(
            catalog: catalog, cmp: CMPIdentity(cmpId: settings.cmp.id, cmpVersion: settings.cmp.version),
            configuration: settings.demo ? DemoSite.adding(to: publishers, catalog: catalog) : publishers)
        self.keyLimiter = RateLimiter(limit: settings.rateLimitPerKey)
        self.ipLimiter = RateLimiter(limit: settings.rateLimitPerIP)
        self.publicKeyLimiter = RateLimiter(limit: settings.rateLimitPerPublicKey)
        self.subjectCreationLimiter = RateLimiter(limit: settings.rateLimitSubjectCreation)
        self.bodyBudget = BodyBudget(limit: max(settings.bodyMemoryLimit, settings.batchBodyLimit))
        self.connections = ConnectionTable(perAddressCap: settings.maxConnectionsPerAddress)
        self.caps = ListenerCaps(settings, descriptorLimit: descriptorLimit)
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
        addOperationsRoutes(to: router)
        addConfigRoutes(to: router)
        addVendorListRoutes(to: router)
        addConsentRoutes(to: router)
        addSubjectRoutes(to: router)
        addNoticeRoutes(to: router)
        addWebCMPRoutes(to: router)
        return router
    }

    /// What every router of every listener has, before its routes: errors turned into API
    /// errors, the per-address rate limit (which also makes the client's address known to the
    /// routes), and the memory budget of request bodies.
    func addCommonMiddleware(to router: Router<ConsentdContext>) {
        router.add(middleware: ErrorMiddleware(logger: logger))
        router.add(middleware: IPRateLimitMiddleware(limiter: ipLimiter, clientIPHeader: settings.clientIPHeader))
        router.add(middleware: BodyBudgetMiddleware(budget: bodyBudget))
    }

    /// The HTTP application, with the vendor-list refresher when an upstream is configured and
    /// the demo's second port when the demo is on: `HEAD` answered on every `GET` route, each
    /// connection under a ``ConnectionGuard``, at most ``ListenerCaps/main`` at once (see
    /// ``listener(_:port:cap:responder:services:onServerRunning:)``).
    public func application(onServerRunning: @escaping @Sendable (String) async -> Void = { _ in }) -> some ApplicationProtocol {
        var services: [any Service] = []
        if let url = settings.vendorListURL {
            services.append(VendorListRefresher(url: url, interval: settings.vendorListRefresh, catalog: catalog, logger: logger))
        }
        if settings.demo {
            services.append(demoFrameApplication())
        }
        return listener("consentd", port: settings.port, cap: caps.main, responder: router().buildResponder(), services: services) { url in
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
        let connections = connections
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
