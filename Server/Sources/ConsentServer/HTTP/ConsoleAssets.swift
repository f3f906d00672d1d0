import Foundation

/// The console's web files (`Resources/console/`: `index.html`, `console.css`, the shell
/// `console.js` and one `page-<name>.js` per page), read once at start, each with its ETag and
/// gzip copy, served under `/console/` by ``ConsolePagesController``. A missing folder or
/// `index.html` stops consentd at start (``NoticeAssets/MissingFile``).
struct ConsoleAssets: Sendable {
    /// The files by name (no folders: the console's folder is flat).
    let files: [String: ServedDocument]

    /// The policy of every console file (docs/console.md): nothing from another origin, no inline
    /// script or style, never framed.
    static let contentSecurityPolicy = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
        + "frame-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

    /// Reads every regular file of ConsentServer's `console` resource folder whose name is one
    /// that can appear in a URL path segment unescaped (letters, digits, `.`, `-`, `_`).
    static func load() throws -> ConsoleAssets {
        guard let directory = Bundle.module.url(forResource: "console", withExtension: nil) else {
            throw NoticeAssets.MissingFile(name: "console/", folder: "ConsentServer's resources")
        }
        return try load(from: directory)
    }

    /// Reads the files of `directory`.
    static func load(from directory: URL) throws -> ConsoleAssets {
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        var files: [String: ServedDocument] = [:]
        for name in names where isServable(name) {
            var isDirectory: ObjCBool = false
            let url = directory.appendingPathComponent(name)
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue,
                  let type = contentType(of: name) else { continue }
            files[name] = ServedDocument(body: try Data(contentsOf: url), contentType: type)
        }
        guard files["index.html"] != nil else { throw NoticeAssets.MissingFile(name: "index.html", folder: directory.path) }
        return ConsoleAssets(files: files)
    }

    /// Whether `name` is a file name the console serves: not hidden, only URL-safe characters.
    static func isServable(_ name: String) -> Bool {
        !name.isEmpty && !name.hasPrefix(".") && name.utf8.count <= 100
            && name.unicodeScalars.allSatisfy { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "._-".unicodeScalars.contains($0)) }
    }

    /// The media type consentd serves a file of the console with; nil for a kind it does not serve.
    static func contentType(of name: String) -> String? {
        switch (name as NSString).pathExtension.lowercased() {
        case "html": "text/html; charset=utf-8"
        case "css": "text/css; charset=utf-8"
        case "js": "text/javascript; charset=utf-8"
        case "svg": "image/svg+xml"
        case "png": "image/png"
        case "json": "application/json; charset=utf-8"
        default: nil
        }
    }
}

extension ServerSettings {
    /// Where the console is, as the start log prints it: `http://HOST:PORT/console/` on the
    /// listening address (loopback for an address of every interface), or `/console/` when the
    /// port is picked at start. Behind a TLS proxy the console is at the proxy's address instead.
    var consoleURL: String {
        guard port != 0 else { return "/console/" }
        let shown = ["0.0.0.0", "::", ""].contains(host) ? "127.0.0.1" : host
        let hostPart = shown.contains(":") ? "[\(shown)]" : shown
        return "http://\(hostPart):\(port)/console/"
    }
}
