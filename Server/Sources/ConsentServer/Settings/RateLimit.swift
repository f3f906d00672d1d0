import Foundation

/// A rate as a number of requests per second with a burst allowance.
public struct RateLimit: Sendable, Equatable, CustomStringConvertible {
    /// Requests per second sustained.
    public var perSecond: Double
    /// Requests allowed at once after a quiet period.
    public var burst: Double

    /// Creates a rate; `burst` defaults to twice the rate.
    public init(perSecond: Double, burst: Double? = nil) {
        self.perSecond = perSecond
        self.burst = burst ?? perSecond * 2
    }

    /// Parses `RATE` or `RATE/BURST` (`100`, `100/300`); nil for anything else. `0` means no limit.
    public init?(parsing text: String) {
        let parts = text.split(separator: "/")
        guard (1...2).contains(parts.count), let rate = Double(parts[0]), rate >= 0 else { return nil }
        var burst = rate * 2
        if parts.count == 2 {
            guard let value = Double(parts[1]), value >= 1 else { return nil }
            burst = value
        }
        self.init(perSecond: rate, burst: burst)
    }

    /// `RATE/BURST`.
    public var description: String { "\(perSecond)/\(burst)" }
}
