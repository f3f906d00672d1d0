import AsyncHTTPClient
import Foundation
import NIOCore
import Synchronization

/// Vendors' device storage disclosures (the JSON a GVL vendor names in
/// `deviceStorageDisclosureUrl`: cookies and other storage it uses, with their lifetimes),
/// fetched for the notice so that a page or an app never calls a vendor's server itself.
///
/// The fetch sends no cookie or credential. A disclosure is kept for its `Cache-Control: max-age`,
/// else a day (the IAB's "Vendor Device Storage & Operational Disclosures" asks CMPs to refresh
/// at least daily), and the last good copy is served while the vendor's server fails. Only
/// `https` URLs are fetched (`http` to a loopback address too, for local setups and tests), and
/// only a JSON object with a `disclosures` array, up to 256 KB.
final class StorageDisclosures: Sendable {
    private struct Held: Sendable {
        var document: ServedDocument
        var expires: Date
    }

    private let catalog: VendorListCatalog
    private let held = Mutex<[String: Held]>([:])
    private let timeout: TimeAmount
    static let maxBytes = 256 << 10
    static let defaultLifetime: TimeInterval = 86_400

    init(catalog: VendorListCatalog, timeout: TimeAmount = .seconds(5)) {
        self.catalog = catalog
        self.timeout = timeout
    }

    /// Why a disclosure cannot be served.
    enum Failure: Error, Equatable {
        /// The list has no such vendor, or it declares no disclosure.
        case missing(String)
        /// The vendor's server did not give a usable disclosure and none is held.
        case unavailable(String)
    }

    /// The disclosure of vendor `id` of the list held now.
    func disclosure(vendorId id: Int, now: Date = Date()) async throws(Failure) -> ServedDocument {
        guard let vendor = catalog.vendorList.vendors[id], !vendor.isDeleted(at: now) else {
            throw .missing("the vendor list has no vendor \(id)")
        }
        guard let address = vendor.deviceStorageDisclosureUrl else { throw .missing("vendor \(id) declares no device storage disclosure") }
        guard let url = URL(string: address), Self.fetchable(url) else {
            throw .missing("vendor \(id)'s disclosure URL is not https: \(address)")
        }
        let cached = held.withLock { $0[address] }
        if let cached, cached.expires > now { return cached.document }
        do {
            let (document, lifetime) = try await fetch(address)
            held.withLock { $0[address] = Held(document: document, expires: now.addingTimeInterval(lifetime)) }
            return document
        } catch {
            if let cached { return cached.document }
            throw .unavailable("vendor \(id)'s disclosure could not be fetched from \(address): \(error)")
        }
    }

    static func fetchable(_ url: URL) -> Bool {
        switch url.scheme?.lowercased() {
        case "https": return url.host != nil
        case "http": return ["127.0.0.1", "localhost", "::1", "[::1]"].contains(url.host ?? "")
        default: return false
        }
    }

    private struct FetchError: Error, CustomStringConvertible {
        let description: String
    }

    private func fetch(_ address: String) async throws -> (ServedDocument, TimeInterval) {
        var request = HTTPClientRequest(url: address)
        request.headers.add(name: "Accept", value: "application/json")
        let response = try await HTTPClient.shared.execute(request, timeout: timeout)
        guard response.status == .ok else { throw FetchError(description: "the server answered \(response.status.code)") }
        let body = Data(try await response.body.collect(upTo: Self.maxBytes).readableBytesView)
        guard let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any], object["disclosures"] is [Any] else {
            throw FetchError(description: "not a JSON object with a disclosures array")
        }
        var lifetime = Self.defaultLifetime
        if let control = response.headers.first(name: "Cache-Control")?.lowercased(),
           let range = control.range(of: #"max-age=\d+"#, options: .regularExpression),
           let seconds = TimeInterval(control[range].dropFirst("max-age=".count)) {
            lifetime = min(seconds, Self.defaultLifetime)
        }
        return (ServedDocument(body: body), lifetime)
    }
}
