import ConsentKitUI
import Foundation

/// The files consentd serves for the web: the consent notice (`notice.html`, `notice.css`,
/// `notice.js`, from ConsentKitUI, the same files an app shows in its web view) under
/// `/notice/`, the web CMP under `/cmp/` (`stub.js`: ConsentKitUI's `tcfapi-stub.js`, then this
/// package's `web/cmp-start.js`, which opens the page view's session early; `cmp.js`:
/// ConsentKitUI's `tcfapi.js`, `cmp-start.js` again and `web/cmp-web.js`, the page's client of
/// consentd), and the demo under `/demo/`. Read once at start, each with its ETag and gzip copy.
struct NoticeAssets: Sendable {
    /// The notice's files by name.
    let notice: [String: ServedDocument]
    /// The web CMP's scripts by name (`stub.js`, `cmp.js`).
    let cmp: [String: ServedDocument]
    /// The demo's files by name: the site (`site.html`, `site.css`, `site.js`), its ad frame
    /// (`frame.html`, `frame.js`) and the notice playground (`playground.html`, `.css`, `.js`).
    let demo: [String: ServedDocument]

    /// Reads the files.
    static func load() throws -> NoticeAssets {
        guard let noticeDirectory = NoticeResources.directory, let cmpDirectory = NoticeResources.cmpDirectory else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSLocalizedDescriptionKey: "ConsentKitUI's notice files are missing"])
        }
        guard let demoDirectory = Bundle.module.url(forResource: "demo", withExtension: nil),
              let webDirectory = Bundle.module.url(forResource: "web", withExtension: nil) else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSLocalizedDescriptionKey: "the bundled demo or web CMP files are missing"])
        }
        func script(_ name: String, in directory: URL) throws -> Data {
            try Data(contentsOf: directory.appendingPathComponent(name)) + Data("\n".utf8)
        }
        let start = try script("cmp-start.js", in: webDirectory)
        return NoticeAssets(
            notice: try files(["notice.html", "notice.css", "notice.js"], in: noticeDirectory),
            cmp: [
                "stub.js": ServedDocument(body: try script("tcfapi-stub.js", in: cmpDirectory) + start, contentType: javaScript),
                "cmp.js": ServedDocument(
                    body: try script("tcfapi.js", in: cmpDirectory) + start + script("cmp-web.js", in: webDirectory), contentType: javaScript),
            ],
            demo: try files(["site.html", "site.css", "site.js", "frame.html", "frame.js", "playground.html", "playground.css", "playground.js"],
                            in: demoDirectory))
    }

    private static let javaScript = "text/javascript; charset=utf-8"

    private static func files(_ names: [String], in directory: URL) throws -> [String: ServedDocument] {
        var served: [String: ServedDocument] = [:]
        for name in names {
            let type = switch (name as NSString).pathExtension {
            case "html": "text/html; charset=utf-8"
            case "css": "text/css; charset=utf-8"
            default: javaScript
            }
            served[name] = ServedDocument(body: try Data(contentsOf: directory.appendingPathComponent(name)), contentType: type)
        }
        return served
    }
}
