import ConsentKitUI
import Foundation

/// The files consentd serves for the web: the consent notice (`notice.html`, `notice.css`,
/// `notice.js`, from ConsentKitUI, the same files an app shows in its web view) under
/// `/notice/`, and the demo page under `/demo/`. Read once at start, each with its ETag and
/// gzip copy.
struct NoticeAssets: Sendable {
    /// The notice's files by name.
    let notice: [String: ServedDocument]
    /// The demo page's files by name (`demo.html`, `demo.css`, `demo.js`).
    let demo: [String: ServedDocument]

    /// Reads the files.
    static func load() throws -> NoticeAssets {
        guard let noticeDirectory = NoticeResources.directory else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSLocalizedDescriptionKey: "ConsentKitUI's notice files are missing"])
        }
        guard let demoDirectory = Bundle.module.url(forResource: "demo", withExtension: nil) else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSLocalizedDescriptionKey: "the bundled demo page is missing"])
        }
        return NoticeAssets(
            notice: try files(["notice.html", "notice.css", "notice.js"], in: noticeDirectory),
            demo: try files(["demo.html", "demo.css", "demo.js"], in: demoDirectory))
    }

    private static func files(_ names: [String], in directory: URL) throws -> [String: ServedDocument] {
        var served: [String: ServedDocument] = [:]
        for name in names {
            let type = switch (name as NSString).pathExtension {
            case "html": "text/html; charset=utf-8"
            case "css": "text/css; charset=utf-8"
            default: "text/javascript; charset=utf-8"
            }
            served[name] = ServedDocument(body: try Data(contentsOf: directory.appendingPathComponent(name)), contentType: type)
        }
        return served
    }
}
