import ConsentdAPI
import Foundation

/// Everything consentd can be told at start. Each setting has a command-line option and an
/// environment variable (see `consentd --help` and docs/operations.md); the defaults run one node
/// on an SQLite file with the bundled vendor list and no other setup.
public struct ServerSettings: Sendable {
    /// The address to listen on.
    public var host = "127.0.0.1"
    /// The port to listen on; 0 picks a free one.
    public var port = 8080
    /// `sqlite:PATH` or a `postgres://` URL.
    public var databaseURL = "sqlite:.consentd/consentd.sqlite"
    /// The server secret as hex; when nil it is read from (or created in) `secretFile`.
    public var secretHex: String?
    /// Where the server secret is kept when `secretHex` is not given.
    public var secretFile = ".consentd/secret"
    /// The publisher configuration file (YAML); nil means no publishers.
    public var publishersFile: String?
    /// The trusted edge header carrying the client's country (for example `CF-IPCountry`), or
    /// its ISO 3166-2 subdivision (`US-CA`).
    public var countryHeader: String?
    /// The trusted edge header carrying the client's subdivision alone (for example Cloudflare's
    /// `CF-Region-Code`: `CA`), read only with a country from ``countryHeader``; US states and DC
    /// are kept, anything else is ignored.
    public var subdivisionHeader: String?
    /// The header a trusted proxy puts the client's address in (for example `X-Forwarded-For`;
    /// the first address is used), for per-IP limits and the CIDR table. Nil uses the peer address.
    public var clientIPHeader: String?
    /// A CIDR-to-country table file.
    public var cidrTableFile: String?
    /// A vendor list file to serve instead of the bundled one (GVL v2 or v3).
    public var vendorListFile: String?
    /// A folder of official translations (`purposes-xx.json`) to load instead of the bundled ones.
    public var translationsDirectory: String?
    /// The IAB's published Global Vendor List (GVL v3); its official translations lie next to it
    /// (`purposes-xx.json`).
    public static let iabVendorListURL = "https://vendor-list.consensu.org/v3/vendor-list.json"
    /// The upstream vendor list consentd refreshes from (and whose folder holds the translations
    /// it fetches): the IAB's by default, or a mirror.
    public var vendorListURL = Self.iabVendorListURL
    /// Whether consentd fetches the vendor list and its translations from ``vendorListURL`` at all:
    /// on by default; turn it off on a host without network, which then serves the bundled list
    /// (or ``vendorListFile``) forever.
    public var vendorListUpdates = true
    /// How long a fetched list is kept before the next fetch when the upstream sends no
    /// `Cache-Control: max-age` (with one, its `max-age` decides, as the TCF requires).
    public var vendorListRefresh: Duration = .seconds(6 * 3600)
    /// The publisher configuration's re-read: every this often when ``publishersFile`` changed on
    /// disk, and at once on `SIGHUP`.
    public var publishersReload: Duration = .seconds(60)
    /// `Cache-Control: max-age` of vendor lists, in seconds.
    public var vendorListMaxAge = 3600
    /// The largest request body accepted, in bytes.
    public var bodyLimit = 64 * 1024
    /// The largest `POST /v1/consents/batch` body accepted, in bytes: room for
    /// `ConsentBatchRequest.maximumCount` events of up to `bodyLimit` bytes each and the envelope
    /// around them (`bodyLimit` × 101, 6.3 MiB with the default limit), but never more than
    /// ``maxBatchBodyLimit``. Each event in a batch is still held to `bodyLimit`.
    public var batchBodyLimit: Int {
        min(bodyLimit * (ConsentBatchRequest.maximumCount + 1), Self.maxBatchBodyLimit)
    }
    /// The most ``batchBodyLimit`` grows to however large `bodyLimit` is set (8 MiB): a node holds
    /// a request's body in memory until it is checked, so a batch must not hold 100 times a raised
    /// limit. With a `bodyLimit` over 83,055 bytes, 100 events of that size no longer fit in one
    /// batch.
    public static let maxBatchBodyLimit = 8 * 1024 * 1024
    /// How long a connection with no request under way stays open: from its opening, or from the
    /// end of its last response, to the first byte of a request.
    public var idleTimeout: Duration = .seconds(60)
    /// How long a request's head (request line and headers) may take to arrive in full, from its
    /// first byte.
    public var headerTimeout: Duration = .seconds(10)
    /// How long a request's body may take to arrive in full, from the end of its head.
    public var bodyTimeout: Duration = .seconds(30)
    /// The most connections open at once; further ones wait in the kernel's listen backlog until
    /// one closes.
    public var maxConnections = 1024
    /// Requests per second per API key (0 turns the limit off).
    public var rateLimitPerKey = RateLimit(perSecond: 200, burst: 400)
    /// Requests per second per client IP address (0 turns the limit off).
    public var rateLimitPerIP = RateLimit(perSecond: 100, burst: 200)
    /// How long a checked API key is trusted before the database is asked again.
    public var keyCacheSeconds = 5.0
    /// The CMP identity TC strings carry, sent to apps in `GET /v1/config`: the id the IAB
    /// registered for whoever runs this server, and its version. The default is the development
    /// identity (`AppConfig.CMP.development`, id 4095), which consentd warns about at start.
    public var cmp: AppConfig.CMP = .development

    /// Whether `/demo` (the notice on a sample publisher, its choices saved as consent events of
    /// the app `demo`) is served: ``demoOption`` when set, else on only while consentd listens on
    /// a loopback address (so a newcomer sees the notice after the first command, and a server
    /// bound to a public address does not serve it unless told to). Setting it sets
    /// ``demoOption``.
    public var demo: Bool {
        get { demoOption ?? Self.isLoopback(host) }
        set { demoOption = newValue }
    }

    /// `--demo` as given; nil: the default that ``demo`` describes.
    public var demoOption: Bool?

    /// The port of the demo's second origin, which serves the cross-origin ad frame that reads
    /// consent through `__tcfapiLocator` (on ``host``; 0: any free port).
    public var demoFramePort = 0

    // MARK: Credential and data rules (issue 24)

    /// Whether a caller may pretend a region: `debugRegion` in `POST /v1/web/session` and
    /// `debug_geo` in `GET /v1/config`. Off by default, so that a debug attribute left on a page
    /// or an app cannot turn GDPR off for real visitors; turn it on for test setups only.
    public var allowDebugRegion = false

    /// How long a subject token minted for a website's visitor (`POST /v1/web/choices` with a
    /// page key) works: 30 days. `POST /v1/web/session` hands the page a renewed one in the last
    /// third of its life; an expired one is refused, and the page starts again with its key.
    public var webTokenLifetime: Duration = .seconds(30 * 86_400)

    /// What an anonymous subject (created with a publishable key, written with the token it
    /// got) may store in 24 hours: events (past it `429 subject_quota_exceeded`) and bytes of
    /// stored records (past it `413 subject_quota_exceeded`). 0 turns a bound off.
    public var anonymousSubjectEventsPerDay = 200
    /// See ``anonymousSubjectEventsPerDay``: 2 MiB.
    public var anonymousSubjectBytesPerDay = 2 * 1024 * 1024

    // MARK: Connection and abuse limits (issue 24: H3, H4, M1, M6)

    /// How long a response may make no progress: the connection's output stays blocked (the client
    /// reads nothing, or less than NIO's low-water mark of 32 KiB) this long and it is closed.
    public var writeTimeout: Duration = .seconds(30)
    /// The most connections one client address may hold at once, over every listener: ``maxConnectionsPerAddressOption``
    /// when set, else 64, or no cap (0) behind a trusted proxy (``clientIPHeader`` set), whose own
    /// address every connection comes from.
    public var maxConnectionsPerAddress: Int {
        get { maxConnectionsPerAddressOption ?? (clientIPHeader == nil ? 64 : 0) }
        set { maxConnectionsPerAddressOption = newValue }
    }

    /// `--max-connections-per-address` as given; nil: the default ``maxConnectionsPerAddress``
    /// describes. 0 turns the cap off.
    public var maxConnectionsPerAddressOption: Int?
    /// The most connections the demo's second port (its ad frame's origin) holds at once; never
    /// more than ``maxConnections``.
    public var demoFrameMaxConnections: Int { min(64, maxConnections) }
    /// The ceiling of one publishable key over all addresses (each address has its own
    /// ``rateLimitPerKey`` bucket for it): requests per second (0 turns it off).
    public var rateLimitPerPublicKey = RateLimit(perSecond: 5000, burst: 10000)
    /// Subjects a client address may create per second with a publishable key (`POST /v1/consents`
    /// without `subjectId`, a first `POST /v1/web/choices`); 0 turns the limit off.
    public var rateLimitSubjectCreation = RateLimit(perSecond: 10, burst: 20)
    /// The request bodies all requests together may hold in memory at once, in bytes (a body
    /// counts with its `Content-Length`, or its route's limit when it has none). Never less than
    /// ``batchBodyLimit``. A request over it is answered 503 with `Retry-After`.
    public var bodyMemoryLimit = 64 * 1024 * 1024

    /// Whether `host` is a loopback address (`127.0.0.0/8`, `::1`, `localhost`).
    public static func isLoopback(_ host: String) -> Bool {
        host == "localhost" || host == "::1" || host == "[::1]" || host.hasPrefix("127.")
    }

    /// The warning consentd logs at start when the demo is on while it listens on an address other
    /// than loopback; nil otherwise.
    public var demoExposureWarning: String? {
        guard demo, !Self.isLoopback(host) else { return nil }
        return "the demo (/demo, its ad-frame port, and POST /demo/result writing consent events of app demo) is served on \(host), "
            + "which is not a loopback address; turn it off with --demo false (CONSENTD_DEMO=false) on a public server"
    }

    /// The defaults.
    public init() {}
}
