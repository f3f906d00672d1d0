/// The mechanisms every request of every listener passes before and while a route answers it
/// (issue 24): the listeners' connection caps and the table of open connections (the cap per
/// address), the request rate per client address, the memory budget of request bodies, and the
/// gate of CPU-heavy work. One value, made once per server, shared by all listeners.
struct RequestGuards: Sendable {
    /// Per client address, every route.
    let ipLimiter: RateLimiter
    /// The request bodies all requests hold at once.
    let bodyBudget: BodyBudget
    /// The builds of page views, web choices and demo notices running at once.
    let cpuWork = CPUWorkGate()
    /// The console's password checks (scrypt, tens of milliseconds and 32 MiB each) running at
    /// once: a gate of their own, one at a time, one per address and eight waiting, so that a
    /// flood of sign-ins from several addresses waits behind itself and is refused `503`, never
    /// in front of a visitor's page view (the hostile-load test's brute force showed a page view
    /// waiting 2.7 s behind the password checks while the two shared ``cpuWork``).
    let passwordWork = CPUWorkGate(limit: 1, perAddress: 1, queueLimit: 8)
    /// Every open connection of every listener.
    let connections: ConnectionTable
    /// The listeners' connection caps, fitted to the descriptor limit.
    let caps: ListenerCaps

    /// The guards with the limits of `settings`, the caps fitted to `descriptorLimit`.
    init(_ settings: ServerSettings, descriptorLimit: Int) {
        ipLimiter = RateLimiter(limit: settings.rateLimitPerIP)
        bodyBudget = BodyBudget(limit: max(settings.bodyMemoryLimit, settings.batchBodyLimit))
        connections = ConnectionTable(perAddressCap: settings.maxConnectionsPerAddress)
        caps = ListenerCaps(settings, descriptorLimit: descriptorLimit)
    }
}
