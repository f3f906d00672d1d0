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
