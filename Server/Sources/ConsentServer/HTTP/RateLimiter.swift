import Foundation
import Synchronization

/// Token buckets per key (an API key id, an IP address). In memory and per node: behind a load
/// balancer with N nodes a client gets up to N times the rate.
public final class RateLimiter: Sendable {
    private struct Bucket {
        var tokens: Double
        var updated: Double
    }

    private let limit: RateLimit
    private let buckets = Mutex([String: Bucket]())
    private let clock: @Sendable () -> Double

    /// Creates a limiter; `clock` gives seconds (monotonic) and is replaceable in tests.
    public init(limit: RateLimit, clock: @escaping @Sendable () -> Double = { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }) {
        self.limit = limit
        self.clock = clock
    }

    /// Takes one token for `key`: nil when allowed, else the seconds until a token is free.
    public func take(_ key: String) -> Int? {
        if limit.perSecond == 0 { return nil }
        let now = clock()
        return buckets.withLock { buckets in
            var bucket = buckets[key] ?? Bucket(tokens: limit.burst, updated: now)
            bucket.tokens = min(limit.burst, bucket.tokens + (now - bucket.updated) * limit.perSecond)
            bucket.updated = now
            defer {
                buckets[key] = bucket
                // Forget idle clients now and then so the table stays small.
                if buckets.count > 100_000 {
                    buckets = buckets.filter { now - $0.value.updated < limit.burst / limit.perSecond }
                }
            }
            if bucket.tokens >= 1 {
                bucket.tokens -= 1
                return nil
            }
            return max(1, Int(((1 - bucket.tokens) / limit.perSecond).rounded(.up)))
        }
    }
}
