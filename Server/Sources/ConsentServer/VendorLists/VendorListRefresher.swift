import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import ServiceLifecycle

/// Fetches the vendor list from an upstream URL on a schedule and hands it to the catalog, which
/// keeps the last good copy when the upstream fails or serves something that is not a newer list.
public struct VendorListRefresher: Service {
    /// Where the list comes from (for example the IAB's `vendor-list.json`, or a mirror).
    public var url: String
    /// The time between fetches.
    public var interval: Duration
    /// The longest list accepted, in bytes.
    public var maxBytes: Int
    /// How long one fetch may take, connecting included.
    public var timeout: Duration
    let catalog: VendorListCatalog
    let logger: Logger

    /// Creates a refresher.
    public init(
        url: String, interval: Duration, catalog: VendorListCatalog, logger: Logger, maxBytes: Int = 16 << 20,
        timeout: Duration = .seconds(30)
    ) {
        self.timeout = timeout
        self.url = url
        self.interval = interval
        self.catalog = catalog
        self.logger = logger
        self.maxBytes = maxBytes
    }

    /// Fetches once at start, then every `interval`, until shutdown.
    public func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                _ = await refresh()
                try? await Task.sleep(for: interval)
            }
        }
    }

    /// What one fetch did.
    public enum Outcome: Sendable, Equatable {
        /// A newer list is now served.
        case updated(version: Int)
        /// The upstream served the list already held.
        case unchanged
        /// The fetch or the list failed; the old list stays.
        case kept(reason: String)
    }

    /// Fetches the list once.
    public func refresh() async -> Outcome {
        do {
            var request = HTTPClientRequest(url: url)
            request.headers.add(name: "Accept", value: "application/json")
            let response = try await HTTPClient.shared.execute(request, timeout: .nanoseconds(Int64(timeout.components.seconds) * 1_000_000_000 + timeout.components.attoseconds / 1_000_000_000))
            guard response.status == .ok else {
                return kept("the upstream answered \(response.status.code)")
            }
            let body = try await response.body.collect(upTo: maxBytes)
            if try catalog.replace(with: Data(body.readableBytesView)) {
                let version = catalog.vendorList.vendorListVersion
                logger.info("vendor list updated", metadata: ["version": "\(version)", "url": "\(url)"])
                return .updated(version: version)
            }
            return .unchanged
        } catch {
            return kept("\(error)")
        }
    }

    private func kept(_ reason: String) -> Outcome {
        logger.warning("vendor list refresh failed; keeping the list held", metadata: ["url": "\(url)", "reason": "\(reason)"])
        return .kept(reason: reason)
    }
}
