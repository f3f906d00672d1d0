import Foundation

/// Where a ``VendorListLoader`` fetches the vendor list, where it keeps the last good copy, and
/// the snapshot it falls back to.
///
/// Build one for consentd with ``consentd(baseURL:publishableKey:publisherIds:language:)`` or
/// ``globalVendorList(baseURL:)``, or give any URL that serves a vendor list JSON.
public struct VendorListSource: Sendable, Equatable {
    /// The URL the list is fetched from.
    public var url: URL
    /// Headers sent with every request (`Authorization` for consentd's trimmed list). They are
    /// never written to disk.
    public var headers: [String: String]
    /// Seconds before a request is given up.
    public var timeout: TimeInterval
    /// The folder the last good copy is kept in; created when first written.
    public var cacheDirectory: URL
    /// A vendor list file shipped with the app (usually from its bundle), used when nothing
    /// usable is on disk, or when it is newer than what is.
    public var bundledSnapshot: URL?

    /// A source for any URL serving a vendor list.
    public init(
        url: URL, headers: [String: String] = [:], timeout: TimeInterval = 10,
        cacheDirectory: URL = VendorListSource.defaultCacheDirectory, bundledSnapshot: URL? = nil
    ) {
        self.url = url
        self.headers = headers
        self.timeout = timeout
        self.cacheDirectory = cacheDirectory
        self.bundledSnapshot = bundledSnapshot
    }

    /// consentd's list trimmed to the publishers' vendors:
    /// `GET {baseURL}/v1/vendor-list/trimmed?publisherIds=a,b[&language=de]` with the app's
    /// publishable key as bearer credential.
    ///
    /// - Throws: ``VendorListLoadingError/invalidSource(_:)`` when there is no publisher id, one is
    ///   empty or contains a comma, or the key or language is empty.
    public static func consentd(
        baseURL: URL, publishableKey: String, publisherIds: [String], language: String? = nil,
        timeout: TimeInterval = 10, cacheDirectory: URL = defaultCacheDirectory, bundledSnapshot: URL? = nil
    ) throws(VendorListLoadingError) -> VendorListSource {
        guard !publisherIds.isEmpty else { throw .invalidSource("publisherIds is empty; consentd needs at least one") }
        for (index, id) in publisherIds.enumerated() where id.isEmpty || id.contains(",") {
            throw .invalidSource("publisherIds[\(index)] \"\(id)\" is empty or contains a comma")
        }
        guard !publishableKey.isEmpty else { throw .invalidSource("the publishable key is empty") }
        if let language, language.isEmpty { throw .invalidSource("the language is empty; pass nil for the published texts") }
        var query = [URLQueryItem(name: "publisherIds", value: publisherIds.joined(separator: ","))]
        if let language { query.append(URLQueryItem(name: "language", value: language)) }
        let url = try endpoint(baseURL, path: "v1/vendor-list/trimmed", query: query)
        return VendorListSource(
            url: url, headers: ["Authorization": "Bearer \(publishableKey)", "Accept": "application/json"],
            timeout: timeout, cacheDirectory: cacheDirectory, bundledSnapshot: bundledSnapshot)
    }

    /// consentd's full Global Vendor List, `GET {baseURL}/v1/vendor-list.json` (no credential).
    ///
    /// - Throws: ``VendorListLoadingError/invalidSource(_:)`` when `baseURL` cannot take a path.
    public static func globalVendorList(
        baseURL: URL, timeout: TimeInterval = 10, cacheDirectory: URL = defaultCacheDirectory, bundledSnapshot: URL? = nil
    ) throws(VendorListLoadingError) -> VendorListSource {
        VendorListSource(
            url: try endpoint(baseURL, path: "v1/vendor-list.json", query: []), headers: ["Accept": "application/json"],
            timeout: timeout, cacheDirectory: cacheDirectory, bundledSnapshot: bundledSnapshot)
    }

    /// `ConsentKit/VendorList` in the platform's caches folder (`Library/Caches` on Apple
    /// platforms, `~/.cache` on Linux): not backed up, and if the system purges it the bundled
    /// snapshot covers until the next download.
    public static var defaultCacheDirectory: URL {
        let caches = FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask).first
            ?? FileManager.default.temporaryDirectory
        return caches.appendingPathComponent("ConsentKit", isDirectory: true)
            .appendingPathComponent("VendorList", isDirectory: true)
    }

    private static func endpoint(_ base: URL, path: String, query: [URLQueryItem]) throws(VendorListLoadingError) -> URL {
        guard var components = URLComponents(url: base, resolvingAgainstBaseURL: true), components.host != nil else {
            throw .invalidSource("the base URL \(base.absoluteString) has no host")
        }
        components.path = (components.path.hasSuffix("/") ? components.path : components.path + "/") + path
        components.queryItems = query.isEmpty ? nil : query
        guard let url = components.url else {
            throw .invalidSource("no URL can be made from \(base.absoluteString) and \(path)")
        }
        return url
    }
}

extension ConsentdEndpoint {
    /// consentd's vendor list trimmed to these publishers' vendors, in `language` (nil or `EN`:
    /// as published).
    ///
    /// - Throws: ``VendorListLoadingError/invalidSource(_:)`` when the endpoint cannot name
    ///   such a list (no publisher id, an empty key).
    public func vendorListSource(
        language: String? = nil, bundledSnapshot: URL? = nil, cacheDirectory: URL = VendorListSource.defaultCacheDirectory
    ) throws(VendorListLoadingError) -> VendorListSource {
        let translated = language.flatMap { $0.uppercased() == "EN" || $0.isEmpty ? nil : $0.lowercased() }
        return try .consentd(
            baseURL: baseURL, publishableKey: publishableKey, publisherIds: publisherIds, language: translated,
            cacheDirectory: cacheDirectory, bundledSnapshot: bundledSnapshot)
    }
}
