#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The connection caps of consentd's listeners, fitted to the file descriptors the process may
/// open: the caps of every listener plus a reserve (``reserve``: the database's connections and
/// files, the log, the vendor-list and storage-disclosure fetches) must fit in the limit, so the
/// main port and `/health` still answer while another listener is full. When they do not fit,
/// every cap is lowered in proportion, with a warning.
struct ListenerCaps: Sendable, Equatable {
    /// Descriptors kept for everything but client connections.
    static let reserve = 128

    /// The main port's cap.
    var main: Int
    /// The demo's second port's cap (0 when the demo is off).
    var demoFrame: Int
    /// What consentd logs at start when the caps were lowered; nil when they fit.
    var warning: String?
}

extension ListenerCaps {
    /// The caps of `settings` within `descriptorLimit` open files.
    init(_ settings: ServerSettings, descriptorLimit: Int) {
        main = settings.maxConnections
        demoFrame = settings.demo ? settings.demoFrameMaxConnections : 0
        let wanted = main + demoFrame
        guard wanted + Self.reserve > descriptorLimit else { return }
        let available = max(descriptorLimit - Self.reserve, 2)
        let (oldMain, oldDemo) = (main, demoFrame)
        main = max(1, main * available / wanted)
        demoFrame = demoFrame == 0 ? 0 : max(1, demoFrame * available / wanted)
        warning = "the process may open \(descriptorLimit) files (RLIMIT_NOFILE), fewer than its connection caps (\(oldMain) on the main port"
            + (oldDemo > 0 ? ", \(oldDemo) on the demo's" : "") + ") and \(Self.reserve) kept for the database and files; "
            + "it holds at most \(main) connections on the main port" + (oldDemo > 0 ? " and \(demoFrame) on the demo's" : "")
            + ". Raise the limit (ulimit -n, LimitNOFILE=) or lower --max-connections (CONSENTD_MAX_CONNECTIONS)"
    }

    /// Raises the process's soft limit of open files to its hard limit where the system allows
    /// it, and returns the soft limit then in force.
    static func raiseDescriptorLimit() -> Int {
        var limit = rlimit()
        guard getrlimit(resourceNoFile, &limit) == 0 else { return Int.max }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            // An unlimited hard limit: a large finite soft one.
            raised.rlim_cur = limit.rlim_max == unlimited ? max(limit.rlim_cur, 1 << 20) : limit.rlim_max
            if setrlimit(resourceNoFile, &raised) == 0 { limit = raised }
        }
        return limit.rlim_cur == unlimited ? Int.max : Int(clamping: limit.rlim_cur)
    }

    /// The process's soft limit of open files.
    static func descriptorLimit() -> Int {
        var limit = rlimit()
        guard getrlimit(resourceNoFile, &limit) == 0, limit.rlim_cur != unlimited else { return Int.max }
        return Int(clamping: limit.rlim_cur)
    }

    #if os(Linux)
    private static let resourceNoFile = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
    /// `RLIM_INFINITY` (all ones on Linux; the C macro does not import as a value).
    private static let unlimited = rlim_t.max
    #else
    private static let resourceNoFile = RLIMIT_NOFILE
    private static let unlimited = RLIM_INFINITY
    #endif
}
