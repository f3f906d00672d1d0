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
    let keyLimiter: RateLimiter
    let ipLimiter: RateLimiter
    let logger: Logger

    /// Checks the CMP identity, opens the database, runs migrations, loads the secret, the
    /// configuration and the vendor list. Any failure stops here with a message saying what to
    /// fix. With the development CMP identity it logs a warning that says how to set the
    /// registered one.
    public static func start(settings: ServerSettings, logger: Logger) async throws -> Consentd {
        try settings.checkCMP()
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
        return Consentd(settings: settings, database: database, secret: secret, catalog: catalog, publishers: publishers, assets: assets,
                        resolver: RegionResolver(countryHeader: settings.countryHeader, table: table), logger: logger)
    }

    init(settings: ServerSettings, database: Database, secret: ServerSecret, catalog: VendorListCatalog,
         publishers: PublisherConfiguration, assets: NoticeAssets, resolver: RegionResolver, logger: Logger) {
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
        router.add(middleware: ErrorMiddleware(logger: logger))
        router.add(middleware: IPRateLimitMiddleware(limiter: ipLimiter, clientIPHeader: settings.clientIPHeader))
        addOperationsRoutes(to: router)
        addConfigRoutes(to: router)
        addVendorListRoutes(to: router)
        addConsentRoutes(to: router)
        addSubjectRoutes(to: router)
        addNoticeRoutes(to: router)
        addWebCMPRoutes(to: router)
        return router
    }

    /// The HTTP application, with the vendor-list refresher when an upstream is configured:
    /// `HEAD` answered on every `GET` route, each connection under a ``ConnectionGuard``, at most
    /// ``ServerSettings/maxConnections`` at once.
    public func application(onServerRunning: @escaping @Sendable (String) async -> Void = { _ in }) -> some ApplicationProtocol {
        var services: [any Service] = []
        if let url = settings.vendorListURL {
            services.append(VendorListRefresher(url: url, interval: settings.vendorListRefresh, catalog: catalog, logger: logger))
        }
        let timeouts = ConnectionTimeouts(settings)
        if settings.demo {
            services.append(demoFrameApplication())
        }
        return Application(
            responder: HeadResponder(router().buildResponder()),
            server: HTTPServerBuilder { responder in ConsentdChannel(responder: responder, timeouts: timeouts) },
            configuration: .init(address: .hostname(settings.host, port: settings.port), serverName: "consentd",
                                 availableConnectionsDelegate: MaximumAvailableConnections(settings.maxConnections, logger: logger)),
            services: services,
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? 0
                await onServerRunning("http://\(Self.urlHost(self.settings.host)):\(port)")
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

    private static func urlHost(_ host: String) -> String {
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
