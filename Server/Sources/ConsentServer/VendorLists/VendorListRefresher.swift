import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import NIOHTTP1
import ServiceLifecycle

/// Fetches the vendor list and its official translations from an upstream (the IAB's
/// `vendor-list.json` by default, or a mirror) and hands them to the catalog, which keeps the
/// last good copy when the upstream fails or serves something that is not a newer list.
///
/// The schedule is the one the TCF sets for server-side copies: the list is fetched at start,
/// then again when the `Cache-Control: max-age` of the upstream's answer has passed (at least a
/// minute; ``interval`` when it sends none); after a failure it is tried again
/// within ``retry``, so a node that starts offline serves the bundled copy only until the
/// upstream answers. With each list it fetches the translation (`purposes-xx.json`, next to the
/// list) of every language the catalog wants: the languages loaded and those clients asked for.
/// A language asked for the first time is fetched within ``tick``. While the upstream cannot be
/// reached no translation is asked for.
public struct VendorListRefresher: Service {
    /// Where the list comes from; the translations are its siblings.
    public var url: String
    /// The time between fetches when the upstream sends no `max-age`.
    public var interval: Duration
    /// The longest wait before trying again after a failed fetch.
    public var retry: Duration = .seconds(300)
    /// How often the refresher looks for languages asked for since the last fetch.
    public var tick: Duration = .seconds(30)
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

    /// Fetches at start, then on the schedule described above, until shutdown.
    public func run() async throws {
        await cancelWhenGracefulShutdown {
            var due = ContinuousClock.now
            while !Task.isCancelled {
                if ContinuousClock.now >= due {
                    let (outcome, maxAge) = await fetchList()
                    if outcome.reached { await fetchTranslations(catalog.wantedLanguages) }
                    due = .now + nextFetch(after: outcome, maxAge: maxAge)
                } else {
                    await fetchTranslations(catalog.newlyRequestedLanguages)
                }
                try? await Task.sleep(for: min(tick, max(.zero, due - .now)))
            }
        }
    }

    /// How long to wait for the next fetch of the list: the upstream's `max-age` (at least a
    /// minute), ``interval`` without one, at most ``retry`` after a failure.
    func nextFetch(after outcome: Outcome, maxAge: Duration?) -> Duration {
        if case .kept = outcome { return min(retry, interval) }
        return maxAge.map { max($0, .seconds(60)) } ?? interval
    }

    /// What one fetch did.
    public enum Outcome: Sendable, Equatable {
        /// A newer list (or another translation) is now served.
        case updated(version: Int)
        /// The upstream served what is already held.
        case unchanged
        /// The fetch or the file failed; what was held stays.
        case kept(reason: String)

        /// Whether the upstream answered with a list (so its translations are worth asking for).
        var reached: Bool {
            if case .kept = self { return false }
            return true
        }
    }

    /// Fetches the list, then (when the upstream answered with one) the translations of
    /// ``VendorListCatalog/wantedLanguages``, once; returns what happened to the list.
    public func refresh() async -> Outcome {
        let (outcome, _) = await fetchList()
        if outcome.reached { await fetchTranslations(catalog.wantedLanguages) }
        return outcome
    }

    /// The address of a language's translation: `purposes-de.json` in the list's folder.
    public func translationURL(_ language: String) -> String {
        guard let slash = url.lastIndex(of: "/") else { return "purposes-\(language).json" }
        return String(url[...slash]) + "purposes-\(language).json"
    }

    /// The IAB's file for a two-letter language it translates only per region or script (GVL
    /// v3: `pt-pt` and `pt-br`, `sr-latn` and `sr-cyrl`): the variant that language stands for
    /// here, tried when `purposes-xx.json` is not found. Portuguese is Portugal's (the EEA's, and
    /// the notice's own `pt` texts); Serbian is Latin script, as the IAB's reference library
    /// resolves a bare `sr` (decision 0021).
    static let regionalTranslations: [String: String] = ["pt": "pt-pt", "sr": "sr-latn"]

    /// The addresses tried for a language's translation, in order.
    public func translationURLs(_ language: String) -> [String] {
        [translationURL(language)] + (Self.regionalTranslations[language].map { [translationURL($0)] } ?? [])
    }

    /// Fetches the translation of each of `languages` (lowercase codes) and loads those that decode.
    func fetchTranslations(_ languages: [String]) async {
        for language in languages where !Task.isCancelled {
            var failure: (error: any Error, address: String)?
            for address in translationURLs(language) where !Task.isCancelled {
                do {
                    let (body, _) = try await fetch(address)
                    if try catalog.replaceTranslation(language, with: body) {
                        logger.info("vendor list translation updated", metadata: ["language": "\(language)", "url": "\(address)"])
                    }
                    failure = nil
                    break
                } catch {
                    failure = (error, address)
                }
            }
            if let failure {
                // Asked once and not found: not asked again until the next fetch of the list.
                catalog.noteFetchFailed(language)
                _ = kept("\(failure.error)", failure.address)
            }
        }
    }

    /// Fetches the list once: what happened, and the upstream's `max-age` when it sent one.
    func fetchList() async -> (Outcome, maxAge: Duration?) {
        do {
            let (body, maxAge) = try await fetch(url)
            if try catalog.replace(with: body) {
                let version = catalog.vendorList.vendorListVersion
                logger.info("vendor list updated", metadata: ["version": "\(version)", "url": "\(url)"])
                return (.updated(version: version), maxAge)
            }
            return (.unchanged, maxAge)
        } catch {
            return (kept("\(error)", url), nil)
        }
    }

    /// One GET: the body of a 200 answer and its `max-age`; throws on anything else.
    private func fetch(_ address: String) async throws -> (Data, maxAge: Duration?) {
        var request = HTTPClientRequest(url: address)
        request.headers.add(name: "Accept", value: "application/json")
        let nanoseconds = Int64(timeout.components.seconds) * 1_000_000_000 + timeout.components.attoseconds / 1_000_000_000
        let response = try await HTTPClient.shared.execute(request, timeout: .nanoseconds(nanoseconds))
        guard response.status == .ok else {
            throw VendorListUpdateError.invalid("the upstream answered \(response.status.code)")
        }
        let body = try await response.body.collect(upTo: maxBytes)
        return (Data(body.readableBytesView), Self.maxAge(response.headers[canonicalForm: "Cache-Control"].map(String.init)))
    }

    /// The `max-age` of `Cache-Control` values, when one is given.
    static func maxAge(_ values: [String]) -> Duration? {
        for directive in values.flatMap({ $0.split(separator: ",") }) {
            let parts = directive.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if parts.count == 2, parts[0].lowercased() == "max-age", let seconds = Int(parts[1]), seconds >= 0 {
                return .seconds(seconds)
            }
        }
        return nil
    }

    private func kept(_ reason: String, _ address: String) -> Outcome {
        logger.warning("vendor list refresh failed; keeping the list held", metadata: ["url": "\(address)", "reason": "\(reason)"])
        return .kept(reason: reason)
    }
}
