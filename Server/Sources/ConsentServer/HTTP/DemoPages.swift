import Foundation

/// The demo's pages its routes fill in or serve by name (the site, the playground, the ad
/// frame's page and script), taken from the ``NoticeAssets`` at start: consentd refuses to start
/// without one of them, so no route looks up a file that could be missing while it runs.
struct DemoPages: Sendable {
    /// `site.html`, with `{{site-key}}`, `{{frame-url}}` and `{{cmp-options}}` to fill in.
    let site: ServedDocument
    /// `playground.html`, with `{{playground-key}}` to fill in.
    let playground: ServedDocument
    /// The ad frame's files by name (`frame.html`, `frame.js`), served on the demo's second origin.
    let frame: [(name: String, document: ServedDocument)]

    /// The pages of `assets`; throws, naming every file that is missing.
    init(_ assets: NoticeAssets) throws {
        let names = ["site.html", "playground.html", "frame.html", "frame.js"]
        let missing = names.filter { assets.demo[$0] == nil }
        guard missing.isEmpty, let site = assets.demo["site.html"], let playground = assets.demo["playground.html"],
              let frameHTML = assets.demo["frame.html"], let frameScript = assets.demo["frame.js"] else {
            throw CocoaError(.fileNoSuchFile, userInfo: [
                NSLocalizedDescriptionKey: "the demo's files \(missing.joined(separator: ", ")) are missing from consentd's resources",
            ])
        }
        self.site = site
        self.playground = playground
        frame = [("frame.html", frameHTML), ("frame.js", frameScript)]
    }
}
