#if canImport(WebKit) && canImport(UIKit)
import ConsentKit
import WebKit

/// Keeps one of the app's own `WKWebView`s told of the app's consent (docs/web-consent.md): its
/// pages get a read-only `__tcfapi` (or ConsentKit's web CMP gets the app's choice) from the
/// first line of their own scripts, and an open page hears of each change.
///
/// ```swift
/// let webConsent = ConsentWebView.prepare(webView, manager: consent)   // keep it with the web view
/// webView.load(URLRequest(url: consent.webViewConsent.url(articleURL)))
/// ```
///
/// Only for web content of the app's own service or group, never for third-party sites: a TC
/// string is service- or group-specific. `SFSafariViewController` takes no scripts; pass the
/// URL parameters (``WebViewConsent/url(_:)``) there.
///
/// Only the app speaks for the app: the scripts carry a ``HandOverSecret`` made for this web view,
/// which no page script can read (docs/web-consent.md, "Who may speak for the app"). They run in
/// the page's content world (`WKContentWorld.page`) on purpose: the read-only `__tcfapi` and the
/// app's `ConsentKitTCF` must be visible to the page's tags and CMP, which an isolated world's
/// globals are not; the secret, and a `ConsentKitTCF` no page script can replace, keep the
/// hand-over the app's.
@available(iOS 15.0, *)
@MainActor
public final class ConsentWebView {
    private weak var webView: WKWebView?
    private let manager: ConsentManager
    private let secret: HandOverSecret
    private let credential: AppCredential?
    private var consent: WebViewConsent
    private var script: WKUserScript
    private var token: ObservationToken?

    /// Adds ``WebViewConsent/documentStartScript(secret:credential:)`` to `webView` as a user
    /// script (at document start, main frame only, page content world) and follows `manager`:
    /// after each change of the consent or of GDPR applicability it runs
    /// ``WebViewConsent/updateScript(secret:)`` in the open page and replaces the user script for
    /// the next pages. With `credential` (the app's subject on consentd), a page running
    /// ConsentKit's web CMP has the app's choice recorded for that subject; without it the page
    /// only adopts it. Keep the returned value as long as the web view; dropping it stops the
    /// updates (the last script stays).
    public static func prepare(_ webView: WKWebView, manager: ConsentManager, credential: AppCredential? = nil) -> ConsentWebView {
        ConsentWebView(webView, manager: manager, credential: credential)
    }

    private init(_ webView: WKWebView, manager: ConsentManager, credential: AppCredential?) {
        let secret = HandOverSecret()
        let consent = manager.webViewConsent
        self.webView = webView
        self.manager = manager
        self.secret = secret
        self.credential = credential
        self.consent = consent
        script = Self.userScript(consent, secret: secret, credential: credential)
        webView.configuration.userContentController.addUserScript(script)
        token = manager.addListener { [weak self] event in
            switch event {
            case .ready, .consentChanged, .regionDecided:
                Task { @MainActor in self?.refresh() }
            default:
                break
            }
        }
    }

    /// Reads the manager's keys again and, when the consent differs from what the web view has,
    /// tells the open page and replaces the user script (in its place among the app's other
    /// user scripts). Called on the manager's events; call it after changing the keys another way.
    public func refresh() {
        let current = manager.webViewConsent
        guard current != consent, let webView else { return }
        consent = current
        let replacement = Self.userScript(current, secret: secret, credential: credential)
        let controller = webView.configuration.userContentController
        var scripts = controller.userScripts
        if let index = scripts.firstIndex(where: { $0 === script }) {
            scripts[index] = replacement
        } else {
            scripts.append(replacement)
        }
        controller.removeAllUserScripts()
        for each in scripts { controller.addUserScript(each) }
        script = replacement
        webView.evaluateJavaScript(current.updateScript(secret: secret), in: nil, in: .page, completionHandler: nil)
    }

    private static func userScript(_ consent: WebViewConsent, secret: HandOverSecret, credential: AppCredential?) -> WKUserScript {
        WKUserScript(source: consent.documentStartScript(secret: secret, credential: credential), injectionTime: .atDocumentStart,
                     forMainFrameOnly: true, in: .page)
    }
}
#endif
