import ConsentKitFormats
import Foundation

/// The secret with which an app hands its consent to the pages of one web view, and hands it
/// over again when it changes (docs/web-consent.md, "Who may speak for the app").
///
/// The document-start script keeps it in a closure of the app's `ConsentKitTCF`, which no page
/// script can replace; `ConsentKitTCF.fromApp` refuses every call without it, so page scripts
/// cannot speak for the app. Never put it anywhere a page can read (the URL, the DOM, a cookie):
/// only in ``WebViewConsent/documentStartScript(secret:credential:)`` and
/// ``WebViewConsent/updateScript(secret:)``.
public struct HandOverSecret: Sendable, Equatable {
    /// The secret's text: 32 lowercase hexadecimal digits (128 random bits) when made by ``init()``.
    public let text: String

    /// A new secret from the system's random number generator.
    public init() {
        var generator = SystemRandomNumberGenerator()
        text = (0..<2).map { _ in
            let hex = String(generator.next() as UInt64, radix: 16)
            return String(repeating: "0", count: 16 - hex.count) + hex
        }.joined()
    }

    /// A secret given as text (for tests and tools): nil unless it has 16 to 128 characters of
    /// `A-Z a-z 0-9 - _`.
    public init?(_ text: String) {
        guard (16...128).contains(text.utf8.count),
              text.utf8.allSatisfy({ byte in
                  (0x30...0x39).contains(byte) || (0x41...0x5a).contains(byte) || (0x61...0x7a).contains(byte) || byte == 0x2d || byte == 0x5f
              })
        else { return nil }
        self.text = text
    }
}

/// The app's subject on consentd, with which a page of the web view that runs ConsentKit's web
/// CMP has the app's choice recorded (method `sync`, into this subject of the app). consentd
/// records an app's consent with nothing less (a page key alone is refused). The token stays in
/// the app's `ConsentKitTCF` and is sent only to `consentd`'s origin, in that one request.
public struct AppCredential: Sendable, Equatable {
    /// consentd's base URL, as in the page's `/cmp/stub.js` tag; only its origin counts.
    public var consentd: URL
    /// The app's subject: the installation's or the signed-in user's id.
    public var subjectId: String
    /// A subject token (`ckt_…`) consentd minted for ``subjectId``; prefer a short-lived one.
    public var subjectToken: String

    /// Creates a credential.
    public init(consentd: URL, subjectId: String, subjectToken: String) {
        self.consentd = consentd
        self.subjectId = subjectId
        self.subjectToken = subjectToken
    }

    /// `scheme://host[:port]` of ``consentd``, as a page's `new URL(src).origin` reads it; nil
    /// when the URL has no scheme or host.
    var origin: String? {
        guard let components = URLComponents(url: consentd, resolvingAgainstBaseURL: false),
              let scheme = components.scheme?.lowercased(), let host = components.host?.lowercased(), !host.isEmpty
        else { return nil }
        let defaultPort = (scheme == "https" && components.port == 443) || (scheme == "http" && components.port == 80)
        return scheme + "://" + host + (components.port.map { defaultPort ? "" : ":" + String($0) } ?? "")
    }
}

extension WebViewConsent {
    /// The script to inject at document start, in the main frame and the page's content world:
    /// the text of `cmp-frames.js` and `tcfapi.js` in a function whose parameter `consentKitAppHandOver` is
    /// `{payload, secret, credential}`. On a page with no CMP it installs a read-only `__tcfapi`
    /// (and its `__tcfapiLocator` frame) answering with ``tcData``; on a page running ConsentKit's
    /// web CMP it hands the payload to it (and, with `credential`, has it recorded for the app's
    /// subject); on a page with another CMP it does nothing. Only calls carrying `secret` change
    /// the app's consent in the page afterwards.
    public func documentStartScript(secret: HandOverSecret, credential: AppCredential? = nil) -> String {
        var handOver = JSONWriter(capacity: 1024 + payload.utf8.count + apiSource.utf8.count)
        handOver.beginObject()
        handOver.key("credential")
        if let credential, let origin = credential.origin {
            handOver.beginObject()
            handOver.field("consentd", origin)
            handOver.field("subjectId", credential.subjectId)
            handOver.field("subjectToken", credential.subjectToken)
            handOver.endObject()
        } else {
            handOver.null()
        }
        handOver.key("payload")
        handOver.raw(payload)
        handOver.field("secret", secret.text)
        handOver.endObject()
        return "(function (consentKitAppHandOver) {\n" + apiSource + "\n})(" + handOver.text + ");"
    }

    /// The script to run in a page already open when the consent changes:
    /// `window.ConsentKitTCF && ConsentKitTCF.fromApp(<payload>, <secret>);`, with the secret of
    /// the document-start script the page was loaded with (nothing on a page it did not reach).
    public func updateScript(secret: HandOverSecret) -> String {
        "window.ConsentKitTCF && ConsentKitTCF.fromApp(" + payload + ", " + JSONWriter.quoted(secret.text) + ");"
    }
}
