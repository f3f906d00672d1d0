import ConsentKitUI
import Foundation

/// The files consentd serves for the web, read once at start, each with its ETag and gzip copy:
/// - under `/notice/`, the consent notice from ConsentKitUI (the same files an app shows in its
///   web view): every file `notice.html` links (its style and scripts), the images its scripts
///   show (``noticeImages``), and `notice.html` itself with its style and scripts written into it
///   (``InlinedPage``: a website's notice frame fetches one file);
/// - under `/cmp/`, the web CMP, all of it ConsentKitUI's `cmp/` folder: `stub.js` is
///   `cmp-frames.js` (the locator frame and postMessage mechanism the CMP APIs share), the two
///   stubs `tcfapi-stub.js` and `gppapi-stub.js`, then `web/cmp-start.js` (which opens the page
///   view's session early); `cmp.js` is `cmp-frames.js` again, the two APIs `tcfapi.js` and
///   `gppapi.js`, `web/cmp-start.js` again and `web/cmp-web.js` (the page's client of consentd,
///   which drives both APIs from the same answer);
/// - under `/demo/`, this package's demo site and notice playground.
///
/// A file missing from a bundle stops consentd at start (``MissingFile``), never a request later.
struct NoticeAssets: Sendable {
    /// The notice's files by name.
    let notice: [String: ServedDocument]
    /// The inline blocks of the served `notice.html`, which its header policy names.
    let noticeInline: InlinedPage
    /// The web CMP's scripts by name (`stub.js`, `cmp.js`).
    let cmp: [String: ServedDocument]
    /// The demo's files by name: the site (`site.html`, `site.css`, `site.js`), its ad frame
    /// (`frame.html`, `frame.js`) and the notice playground (`playground.html`, `.css`, `.js`).
    let demo: [String: ServedDocument]

    /// A file consentd serves is not where it is read from.
    struct MissingFile: Error, CustomStringConvertible {
        /// The file's name, or the folder's when the whole folder is missing.
        let name: String
        /// Where it was looked for.
        let folder: String

        var description: String { "consentd cannot start: \(name) is missing from \(folder)" }
    }

    /// The images the notice's scripts show that `notice.html` does not link: the US notice's
    /// "Your Privacy Choices" icon (`notice-us.js`).
    static let noticeImages = ["privacy-choices.svg"]

    /// The demo's files.
    static let demoFiles = ["site.html", "site.css", "site.js", "frame.html", "frame.js", "playground.html", "playground.css", "playground.js"]

    /// Reads the files; throws ``MissingFile`` for the first one missing.
    static func load() throws -> NoticeAssets {
        guard let noticeDirectory = NoticeResources.directory else {
            throw MissingFile(name: "notice/", folder: "ConsentKitUI's resources")
        }
        guard let cmpDirectory = NoticeResources.cmpDirectory else {
            throw MissingFile(name: "cmp/", folder: "ConsentKitUI's resources")
        }
        guard let demoDirectory = Bundle.module.url(forResource: "demo", withExtension: nil) else {
            throw MissingFile(name: "demo/", folder: "ConsentServer's resources")
        }
        let frames = try script("cmp-frames.js", in: cmpDirectory)
        let start = try script("web/cmp-start.js", in: cmpDirectory)
        let page = try read("notice.html", in: noticeDirectory)
        var notice = try files(linkedFiles(of: page) + noticeImages, in: noticeDirectory)
        let inlined = try InlinedPage(page: page, files: notice.mapValues(\.body))
        notice["notice.html"] = ServedDocument(body: inlined.html, contentType: "text/html; charset=utf-8")
        return NoticeAssets(
            notice: notice,
            noticeInline: inlined,
            cmp: [
                "stub.js": ServedDocument(
                    body: try frames + script("tcfapi-stub.js", in: cmpDirectory) + script("gppapi-stub.js", in: cmpDirectory) + start,
                    contentType: javaScript),
                "cmp.js": ServedDocument(
                    body: try frames + script("tcfapi.js", in: cmpDirectory) + script("gppapi.js", in: cmpDirectory) + start
                        + script("web/cmp-web.js", in: cmpDirectory),
                    contentType: javaScript),
            ],
            demo: try files(demoFiles, in: demoDirectory))
    }

    /// The files of its own folder a page links (`src="…"` and `href="…"` that are neither URLs
    /// with a scheme nor absolute paths), in order.
    static func linkedFiles(of html: Data) -> [String] {
        let text = String(decoding: html, as: UTF8.self)
        var found: [(position: String.Index, name: String)] = []
        for attribute in ["src=\"", "href=\""] {
            var rest = text[...]
            while let match = rest.range(of: attribute) {
                rest = rest[match.upperBound...]
                guard let end = rest.firstIndex(of: "\"") else { break }
                let value = String(rest[..<end])
                if !value.isEmpty, !value.contains(":"), !value.hasPrefix("/"), !value.hasPrefix("#") {
                    found.append((match.lowerBound, value))
                }
            }
        }
        var names: [String] = []
        for (_, name) in found.sorted(by: { $0.position < $1.position }) where !names.contains(name) {
            names.append(name)
        }
        return names
    }

    private static let javaScript = "text/javascript; charset=utf-8"

    private static func read(_ name: String, in directory: URL) throws -> Data {
        let url = directory.appendingPathComponent(name)
        guard FileManager.default.fileExists(atPath: url.path) else { throw MissingFile(name: name, folder: directory.path) }
        return try Data(contentsOf: url)
    }

    /// A script to concatenate with others: its text and a line break.
    private static func script(_ name: String, in directory: URL) throws -> Data {
        try read(name, in: directory) + Data("\n".utf8)
    }

    private static func files(_ names: [String], in directory: URL) throws -> [String: ServedDocument] {
        var served: [String: ServedDocument] = [:]
        for name in names {
            let type = switch (name as NSString).pathExtension {
            case "html": "text/html; charset=utf-8"
            case "css": "text/css; charset=utf-8"
            case "svg": "image/svg+xml"
            default: javaScript
            }
            served[name] = ServedDocument(body: try read(name, in: directory), contentType: type)
        }
        return served
    }
}
