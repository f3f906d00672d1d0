import Foundation

/// What a response's `Cache-Control` header allows a private cache (the app) to do.
///
/// - `max-age=N`: the copy is fresh for N seconds; no request is made before then.
/// - `no-cache`, or no usable `max-age`: the copy may be kept but is revalidated on every refresh.
/// - `no-store`: the copy is used for this run only and never written to disk.
struct CacheControl: Equatable {
    /// Seconds the response is fresh for; 0 means revalidate on every refresh.
    var maxAge: TimeInterval = 0
    /// `no-store`: do not write the response to disk.
    var noStore = false

    /// Reads the header's directives; unknown ones (`public`, `s-maxage`, …) are ignored.
    init(header: String?) {
        var noCache = false
        for directive in (header ?? "").split(separator: ",") {
            let parts = directive.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = parts[0].trimmingCharacters(in: .whitespaces).lowercased()
            let value = parts.count > 1 ? parts[1].trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\"")) : ""
            switch name {
            case "max-age": maxAge = TimeInterval(max(0, Int(value) ?? 0))
            case "no-cache": noCache = true
            case "no-store": noStore = true
            default: continue
            }
        }
        if noCache || noStore { maxAge = 0 }
    }

    /// Whether a copy validated at `validatedAt` with `maxAge` is still fresh at `now`. A clock
    /// that went backwards makes it stale, so a wrong clock costs a request, not a stuck copy.
    static func isFresh(validatedAt: Date, maxAge: TimeInterval, now: Date) -> Bool {
        let age = now.timeIntervalSince(validatedAt)
        return age >= 0 && age < maxAge
    }
}
