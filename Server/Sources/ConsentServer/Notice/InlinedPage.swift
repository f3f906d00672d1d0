import Crypto
import Foundation

/// A page with the style sheets and scripts of its own folder written into it, as consentd serves
/// the notice to websites: one response, so that the notice's frame (a renderer of its own, on
/// consentd's origin) has nothing left to fetch before it can show the session's document.
/// (Loaded one after the other, its two style sheets and seven scripts cost a first visit about
/// 100 ms on this project's machine: `Benchmarks/bench_notice_web.py`, record 0028.)
///
/// Inline blocks need a policy that names them: each block's SHA-256 (`'sha256-…'`) goes into the
/// page's own `<meta>` policy (as `script-src` and `style-src`, which it must not set already) and
/// into the header policy consentd sends with it (``scriptSources``, ``styleSources``). Nothing
/// else is allowed inline: no `'unsafe-inline'`, and a script a page script adds is still refused.
/// Apps show the page from their bundle, files and all; only consentd inlines.
struct InlinedPage: Sendable {
    /// The page with each `<link rel="stylesheet" href="F">` and `<script src="F"></script>` of its
    /// folder replaced by `<style>` and `<script>` blocks holding the file.
    let html: Data
    /// The CSP sources of the inline scripts, in page order: `'sha256-…'` each.
    let scriptSources: [String]
    /// The CSP sources of the inline style blocks.
    let styleSources: [String]

    /// What keeps a page from being inlined; consentd does not start with it.
    struct Failure: Error, CustomStringConvertible {
        /// What is wrong, naming the file.
        let reason: String
        var description: String { "consentd cannot inline the notice: \(reason)" }
    }

    /// Inlines `files` (name to contents, the page's own folder) into `page`. Throws ``Failure``
    /// when a linked file is missing, when one holds the text that would end its block early
    /// (`</script` or `</style`), or when the page's policy already sets `script-src`/`style-src`.
    init(page: Data, files: [String: Data]) throws {
        var text = String(decoding: page, as: UTF8.self)
        var scripts: [String] = [], styles: [String] = []
        for name in NoticeAssets.linkedFiles(of: page) {
            let (tag, open, close) = name.hasSuffix(".css")
                ? (#"<link rel="stylesheet" href="\#(name)">"#, "<style>", "</style>")
                : (#"<script src="\#(name)"></script>"#, "<script>", "</script>")
            guard text.contains(tag) else { continue }  // linked otherwise (an icon, say): left as it is
            guard let body = files[name] else { throw Failure(reason: "\(name) is linked but was not read") }
            let content = String(decoding: body, as: UTF8.self)
            guard !content.lowercased().contains(close.dropLast()) else {
                throw Failure(reason: "\(name) holds \"\(close.dropLast())\", which would end its block early")
            }
            let source = "'sha256-" + Data(SHA256.hash(data: Data(content.utf8))).base64EncodedString() + "'"
            if close == "</style>" { styles.append(source) } else { scripts.append(source) }
            text = text.replacingOccurrences(of: tag, with: open + content + close)
        }
        let policyStart = #"http-equiv="Content-Security-Policy" content=""#
        if let start = text.range(of: policyStart) {
            let rest = text[start.upperBound...]
            let policy = rest[..<(rest.firstIndex(of: "\"") ?? rest.endIndex)]
            guard !policy.contains("script-src"), !policy.contains("style-src") else {
                throw Failure(reason: "the page's own policy sets script-src or style-src; it must leave them to consentd")
            }
            let added = "script-src 'self'\(scripts.map { " " + $0 }.joined()); style-src 'self'\(styles.map { " " + $0 }.joined()); "
            text.insert(contentsOf: added, at: start.upperBound)
        }
        html = Data(text.utf8)
        scriptSources = scripts
        styleSources = styles
    }
}
